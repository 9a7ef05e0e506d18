/**
 * Explore (`/networks/:id/explore`, and read-only `/discover/:id/explore`): the network in the same viewer
 * as the embed, filling the page. The web app is the viewer's host (docs/web-app.md "Explore"): it asks the
 * server for a viewer session (owner mode for the signed-in user; read-only for View shares and Discover)
 * and frames it with the embed SDK, handing it launch tokens from `/app/api/explore/:sessionId/launch-tokens`.
 * The viewer never sees the session cookie.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError, errorText } from '../../../api/client.ts';
import { exploreLaunchToken, useExploreSession } from '../api/explore.ts';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Button, Empty, ErrorNotice, Loading, num } from '../../../components/ui.tsx';
import { launchTokens, loadSdk, type EmbedHandle } from '../../../embed-sdk.ts';

type ViewerState =
  | { kind: 'opening' }
  | { kind: 'ready'; name: string; nodeCount: number; edgeCount: number; visibleNodes?: number; visibleEdges?: number }
  | { kind: 'ended' }
  | { kind: 'failed'; message: string };

/** "60 nodes · 250 edges", or with filters on "42 of 60 nodes shown · 107 of 250 edges". */
function countsText(v: Extract<ViewerState, { kind: 'ready' }>): string {
  const nodes = v.visibleNodes ?? v.nodeCount;
  const edges = v.visibleEdges ?? v.edgeCount;
  if (nodes === v.nodeCount && edges === v.edgeCount) return `${num(v.nodeCount)} nodes · ${num(v.edgeCount)} edges`;
  return `${num(nodes)} of ${num(v.nodeCount)} nodes shown · ${num(edges)} of ${num(v.edgeCount)} edges`;
}

const ACCESS_BADGE = { owner: null, edit: null, read: 'Read-only' } as const;

export default function Explore() {
  const { id = '' } = useParams();
  const location = useLocation();
  const isPublic = location.pathname.startsWith('/discover/');
  const stateName = (location.state as { name?: string } | null)?.name;
  // `?difference=1`: a difference network made by the compare view — its ties coloured by `Change`
  // (added green, removed red, kept faded; the viewer's legend names them).
  const difference = new URLSearchParams(location.search).get('difference') === '1';
  const back = isPublic ? APP_PATHS.discover : pathTo(APP_PATHS.network, { id });
  const started = useExploreSession(id, isPublic);
  const frame = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<ViewerState>({ kind: 'opening' });

  const s = started.data;
  useEffect(() => {
    if (!s || !frame.current) return;
    const container = frame.current;
    let handle: EmbedHandle | null = null;
    let cancelled = false;
    setViewer({ kind: 'opening' });
    const getLaunchToken = launchTokens(s.launchToken, exploreLaunchToken);
    loadSdk()
      .then((m) => m.default.create(container, { sessionId: s.sessionId, getLaunchToken, title: 'Network viewer' }))
      .then(async (h) => {
        if (cancelled) return h.destroy();
        handle = h;
        h.on('session.expired', () => !cancelled && setViewer({ kind: 'ended' }));
        const info = await h.network.info();
        if (difference && !cancelled) await h.layers.color({ attribute: 'Change', appliedTo: 'edges' });
        if (!cancelled) setViewer({ kind: 'ready', name: info.name, nodeCount: info.nodeCount, edgeCount: info.edgeCount });
        // The counts follow the viewer's filters ("42 of 60 nodes shown").
        h.on('state.changed', () => {
          void h.state.get().then((st) => {
            if (!cancelled) setViewer((v) => (v.kind === 'ready' ? { ...v, visibleNodes: st.visibleNodeCount, visibleEdges: st.visibleEdgeCount } : v));
          }, () => undefined);
        });
      })
      .catch((err: unknown) => !cancelled && setViewer({ kind: 'failed', message: errorText(err) }));
    return () => {
      cancelled = true;
      handle?.destroy();
      container.textContent = '';
    };
  }, [s, difference]);

  const name = viewer.kind === 'ready' ? viewer.name : stateName;
  const badge = isPublic ? 'Read-only' : s ? ACCESS_BADGE[s.access] : null;
  return (
    <div className="explore">
      <div className="explore-bar">
        <Link to={back} className="btn btn-ghost">← {isPublic ? 'Discover' : 'Network'}</Link>
        <h1 id="page-title" tabIndex={-1} className="explore-title">{name ? `Explore: ${name}` : 'Explore'}</h1>
        {badge && <span className="badge badge-neutral">{badge}</span>}
        <span className="explore-status muted" data-testid="viewer-status" aria-live="polite">
          {viewer.kind === 'ready' ? countsText(viewer) : s && viewer.kind === 'opening' ? 'Drawing the network…' : ''}
        </span>
      </div>
      {started.isPending && <Loading label="Opening the viewer…" />}
      {started.error &&
        (started.error instanceof ApiError && started.error.status === 404 ? (
          <Empty title="Network not found" action={<Link className="btn btn-primary" to={back}>Back</Link>}><p>It was deleted, made private, or it is not shared with you.</p></Empty>
        ) : (
          <div className="explore-error"><ErrorNotice error={started.error} title="The viewer could not be opened" /></div>
        ))}
      {viewer.kind === 'failed' && (
        <div className="explore-error">
          <div className="notice notice-error" role="alert"><strong>The viewer could not be opened</strong><p>{viewer.message}</p></div>
          <Button onClick={() => void started.refetch()}>Try again</Button>
        </div>
      )}
      {viewer.kind === 'ended' && (
        <div className="explore-error">
          <div className="notice notice-warning" role="status"><strong>This viewer session has ended.</strong><p>The network was changed, unshared or made private, or you signed out.</p></div>
          <Button onClick={() => void started.refetch()}>Open again</Button>
        </div>
      )}
      {s && <div ref={frame} className={`explore-frame${viewer.kind === 'ready' || viewer.kind === 'opening' ? '' : ' explore-frame-hidden'}`} data-testid="viewer-frame" />}
    </div>
  );
}
