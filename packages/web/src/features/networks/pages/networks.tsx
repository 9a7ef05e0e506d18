/** `/networks`: your networks and those shared with you; sort; plan counts against maxima; upload. */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useNetworks } from '../api/networks.ts';
import { pathTo, APP_PATHS } from '@netloom/protocol/http';
import { Badge, Button, DateText, Empty, ErrorNotice, Loading, PageHeader, Quota, num } from '../../../components/ui.tsx';
import { UploadDialog } from '../components/upload-dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';
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
          <DataTable
            testId="networks-table"
            rows={data.networks}
            rowKey={(n) => n._id}
            columns={[
              {
                label: 'Name',
                cell: (n) => (
                  <>
                    <Link to={pathTo(APP_PATHS.network, { id: n._id })} className="strong">{n.name}</Link>
                    {n.description && <div className="muted clamp">{n.description}</div>}
                  </>
                ),
              },
              { label: 'Visibility', cell: (n) => <Badge tone={n.status === 'Public' ? 'public' : 'private'}>{n.status}</Badge> },
              { label: 'Nodes', className: 'num', cell: (n) => num(n.nodeCount) },
              { label: 'Edges', className: 'num', cell: (n) => num(n.edgeCount) },
              { label: 'Owner', cell: (n) => (n.access && n.access !== 'owner' ? <>{n.owner.name} <Badge>{ACCESS_LABEL[n.access]}</Badge></> : 'You') },
              { label: 'Last modified', cell: (n) => <DateText iso={n.modified} /> },
            ]}
          />
        </>
      )}
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
    </>
  );
}
