/** `/networks`: your networks and those shared with you; sort; plan counts against maxima; upload. */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useNetworks } from '../api/networks.ts';
import { pathTo, APP_PATHS } from '@netloom/protocol/http';
import { Badge, Button, DateText, Empty, ErrorNotice, Loading, PageHeader, Quota, num } from '../../../components/ui.tsx';
import { UploadDialog } from '../components/upload-dialog.tsx';
import type { Access } from '../../../api/types.ts';

const ACCESS_LABEL: Record<Access, string> = { owner: 'Owner', edit: 'Can edit', read: 'Can view' };

export default function Networks() {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort') === 'name' ? 'name' : 'modified';
  const { data, isPending, error } = useNetworks(sort);
  const [uploading, setUploading] = useState(false);
  const upload = <Button variant="primary" onClick={() => setUploading(true)}>Upload network</Button>;
  return (
    <>
      <PageHeader title="Networks" subtitle="Your networks and the ones shared with you.">
        {upload}
      </PageHeader>
      {data && (
        <div className="quotas" aria-label="Plan usage">
          <Quota label="Public networks" used={data.counts.public} max={data.maxima.public} />
          <Quota label="Private networks" used={data.counts.private} max={data.maxima.private} />
        </div>
      )}
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && data.networks.length === 0 && (
        <Empty title="No networks yet" action={upload}>
          <p>Upload a JSON, Excel, GEXF, GraphML or CSV file — or start from a template in the upload dialog. Networks others share with you appear here too.</p>
        </Empty>
      )}
      {data && data.networks.length > 0 && (
        <>
          <div className="toolbar">
            <label htmlFor="sort">Sort by</label>
            <select id="sort" className="input input-inline" value={sort} onChange={(e) => setParams(e.target.value === 'name' ? { sort: 'name' } : {}, { replace: true })}>
              <option value="modified">Last modified</option>
              <option value="name">Name</option>
            </select>
            <span className="muted">{data.networks.length} {data.networks.length === 1 ? 'network' : 'networks'}</span>
          </div>
          <table className="table table-responsive" data-testid="networks-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Visibility</th>
                <th scope="col" className="num">Nodes</th>
                <th scope="col" className="num">Edges</th>
                <th scope="col">Owner</th>
                <th scope="col">Last modified</th>
              </tr>
            </thead>
            <tbody>
              {data.networks.map((n) => (
                <tr key={n._id}>
                  <td data-label="Name">
                    <Link to={pathTo(APP_PATHS.network, { id: n._id })} className="strong">{n.name}</Link>
                    {n.description && <div className="muted clamp">{n.description}</div>}
                  </td>
                  <td data-label="Visibility"><Badge tone={n.status === 'Public' ? 'public' : 'private'}>{n.status}</Badge></td>
                  <td data-label="Nodes" className="num">{num(n.nodeCount)}</td>
                  <td data-label="Edges" className="num">{num(n.edgeCount)}</td>
                  <td data-label="Owner">{n.access && n.access !== 'owner' ? <>{n.owner.name} <Badge>{ACCESS_LABEL[n.access]}</Badge></> : 'You'}</td>
                  <td data-label="Last modified"><DateText iso={n.modified} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
    </>
  );
}
