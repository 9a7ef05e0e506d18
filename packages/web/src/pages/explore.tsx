/**
 * Explore (`/networks/:id/explore`, and read-only `/discover/:id/explore`): the network in the same viewer
 * as the embed, filling the page. The server hands out a viewer URL authenticated for this web session
 * (owner mode; read-only for viewers and for Discover); the viewer runs in a sandboxed iframe.
 */
import { Link, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../api/client.ts';
import { APP_PATHS, pathTo } from '../paths.ts';
import { Empty, ErrorNotice, Loading } from '../components/ui.tsx';

/** The iframe sandbox the viewer needs (scripts, its own origin for storage and API calls, popups for links). */
export const VIEWER_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

export default function Explore() {
  const { id = '' } = useParams();
  const location = useLocation();
  const isPublic = location.pathname.startsWith('/discover/');
  const name = (location.state as { name?: string } | null)?.name;
  const back = isPublic ? APP_PATHS.discover : pathTo(APP_PATHS.network, { id });
  const viewer = useQuery({
    queryKey: ['explore', isPublic ? 'public' : 'own', id],
    queryFn: () => api.post<{ viewerUrl: string }>(isPublic ? `/app/api/public-networks/${encodeURIComponent(id)}/explore` : `/app/api/networks/${encodeURIComponent(id)}/explore`),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
  });
  return (
    <div className="explore">
      <div className="explore-bar">
        <Link to={back} className="btn btn-ghost">← {isPublic ? 'Discover' : 'Network'}</Link>
        <h1 id="page-title" tabIndex={-1} className="explore-title">{name ? `Explore: ${name}` : 'Explore'}</h1>
        {isPublic && <span className="badge badge-neutral">Read-only</span>}
      </div>
      {viewer.isPending && <Loading label="Opening the viewer…" />}
      {viewer.error &&
        (viewer.error instanceof ApiError && viewer.error.status === 404 ? (
          <Empty title="Network not found" action={<Link className="btn btn-primary" to={back}>Back</Link>}><p>It was deleted, made private, or it is not shared with you.</p></Empty>
        ) : (
          <div className="explore-error"><ErrorNotice error={viewer.error} title="The viewer could not be opened" /></div>
        ))}
      {viewer.data && <iframe className="explore-frame" title={name ? `Network viewer: ${name}` : 'Network viewer'} src={viewer.data.viewerUrl} sandbox={VIEWER_SANDBOX} allow="clipboard-write; fullscreen" data-testid="viewer-frame" />}
    </div>
  );
}
