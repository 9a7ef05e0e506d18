/** `/discover`: everyone's public networks, handpicked first; search by name; pages; open read-only. Works signed out. */
import { Link } from 'react-router';
import { usePublicNetworks } from '../api/discover.ts';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Badge, DateText, Empty, ErrorNotice, Loading, PageHeader, num } from '../../../components/ui.tsx';
import { Pager, SearchForm, pageCount, useSearchPaging } from '../../../components/search-paging.tsx';

const PAGE = 12;

export default function Discover() {
  const paging = useSearchPaging(PAGE);
  const { q } = paging;
  const { data, isPending, error, isFetching } = usePublicNetworks(q, paging.offset, PAGE);
  return (
    <>
      <PageHeader title="Discover" subtitle="Public networks shared by Netloom users. Open any of them in Explore, read-only." />
      <SearchForm paging={paging} id="discover-q" label="Search public networks by name" placeholder="Search by name" button />
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && data.networks.length === 0 && (
        <Empty title={q ? `No public network matches “${q}”` : 'No public networks yet'}>
          <p>{q ? 'Try another name.' : 'Networks their owners make public appear here.'}</p>
        </Empty>
      )}
      {data && data.networks.length > 0 && (
        <>
          <ul className="cards" aria-busy={isFetching || undefined} data-testid="discover-list">
            {data.networks.map((n) => (
              <li key={n._id} className="card net-card">
                <h2 className="net-card-title">{n.name}</h2>
                {n.handpicked && <Badge tone="accent">Handpicked</Badge>}
                <p className="muted clamp">{n.description || 'No description.'}</p>
                <p className="net-card-meta">{num(n.nodeCount)} nodes · {num(n.edgeCount)} edges · by {n.owner.name} · <DateText iso={n.modified} /></p>
                <Link className="btn btn-primary" to={pathTo(APP_PATHS.discoverExplore, { id: n._id })} state={{ name: n.name }} aria-label={`Explore ${n.name}`}>Explore</Link>
              </li>
            ))}
          </ul>
          <Pager paging={paging} pages={pageCount(data.total, PAGE)}> · {num(data.total)} networks</Pager>
        </>
      )}
    </>
  );
}
