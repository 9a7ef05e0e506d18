/** `/discover`: everyone's public networks, handpicked first; search by name; pages; open read-only. Works signed out. */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePublicNetworks } from '../api/discover.ts';
import { APP_PATHS, pathTo } from '@netloom/protocol/http';
import { Badge, Button, DateText, Empty, ErrorNotice, Loading, PageHeader, num } from '../../../components/ui.tsx';

const PAGE = 12;

export default function Discover() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  // search as you type, a little after the last key
  useEffect(() => {
    if (text === q) return;
    const t = setTimeout(() => setParams(text ? { q: text } : {}, { replace: true }), 300);
    return () => clearTimeout(t);
  }, [text, q, setParams]);
  const { data, isPending, error, isFetching } = usePublicNetworks(q, (page - 1) * PAGE, PAGE);
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE)) : 1;
  const go = (p: number) => setParams({ ...(q ? { q } : {}), ...(p > 1 ? { page: String(p) } : {}) });
  return (
    <>
      <PageHeader title="Discover" subtitle="Public networks shared by Netloom users. Open any of them in Explore, read-only." />
      <form className="search" role="search" onSubmit={(e) => { e.preventDefault(); setParams(text ? { q: text } : {}); }}>
        <label htmlFor="discover-q" className="visually-hidden">Search public networks by name</label>
        <input id="discover-q" className="input" type="search" placeholder="Search by name" value={text} onChange={(e) => setText(e.target.value)} />
        <Button type="submit">Search</Button>
      </form>
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
          <nav className="pager" aria-label="Pages">
            <Button disabled={page <= 1} onClick={() => go(page - 1)}>Previous</Button>
            <span>Page {page} of {pages} · {num(data.total)} networks</span>
            <Button disabled={page >= pages} onClick={() => go(page + 1)}>Next</Button>
          </nav>
        </>
      )}
    </>
  );
}
