/**
 * `/networks/:id`: everything about one network — metadata, counts, owner, dates, views; edit (owner and
 * editors), share by e-mail with View/Edit and remove shares, delete (owner; confirmed), download in each
 * export format, Explore, and metrics run as jobs (progress here and on the Jobs page).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useDeleteNetwork, useNetwork, useShare, useUpdateNetwork } from '../api/networks.ts';
import { useCancelJob, useComputeNetworkValue, useJobs, useJobTitle, useStartMetricJob } from '../../jobs/api/jobs.ts';
import { useMetricTitle, useOfferedMetrics } from '../../../api/metrics.ts';
import { formatMetricValue, JobProgress, JobStatusBadge, useFinishedToasts } from '../../jobs/components/job-progress.tsx';
import { type NetworkDetail, type Share, type WebNetworkValue } from '../../../api/types.ts';
import { APP_PATHS, FILE_FORMATS, FORMAT_IDS, pathTo } from '@netloom/protocol/http';
import { Badge, Button, DateText, Empty, ErrorNotice, Loading, PageHeader, Select, TextArea, TextField, num } from '../../../components/ui.tsx';
import { Confirm, ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { PermissionPicker, ShareForm } from '../../../components/share-form.tsx';
import { ApiError } from '../../../api/client.ts';

const ACCESS_TEXT = { owner: 'You own this network', edit: 'You can edit this network', read: 'You can view this network' } as const;

export default function NetworkPage() {
  const { id = '' } = useParams();
  const { data: n, isPending, error } = useNetwork(id);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const del = useDeleteNetwork();
  const navigate = useNavigate();

  if (isPending) return <Loading />;
  if (error) {
    if (error instanceof ApiError && error.status === 404) {
      return <Empty level={1} title="Network not found" action={<Link className="btn btn-primary" to={APP_PATHS.networks}>Back to networks</Link>}><p>It was deleted, or it is not shared with you.</p></Empty>;
    }
    return <ErrorNotice error={error} />;
  }
  const canEdit = n.access === 'owner' || n.access === 'edit';
  const isOwner = n.access === 'owner';
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb"><Link to={APP_PATHS.networks}>Networks</Link> <span aria-hidden="true">/</span></nav>
      <PageHeader title={n.name} subtitle={ACCESS_TEXT[n.access]}>
        <Link className="btn btn-primary" to={pathTo(APP_PATHS.explore, { id: n._id })} state={{ name: n.name }}>Explore</Link>
        {canEdit && <Button onClick={() => setEditing(true)}>Edit details</Button>}
        {isOwner && <Button variant="danger" onClick={() => setDeleting(true)}>Delete</Button>}
      </PageHeader>
      <div className="columns">
        <section className="card" aria-labelledby="about-h">
          <h2 id="about-h">About</h2>
          <p className={n.description ? '' : 'muted'}>{n.description || 'No description.'}</p>
          <dl className="facts">
            <dt>Visibility</dt><dd><Badge tone={n.status === 'Public' ? 'public' : 'private'}>{n.status}</Badge></dd>
            <dt>Direction</dt><dd>{n.isDirected ? 'Directed' : 'Undirected'}</dd>
            <dt>Nodes</dt><dd data-testid="node-count">{num(n.nodeCount)}</dd>
            <dt>Edges</dt><dd data-testid="edge-count">{num(n.edgeCount)}</dd>
            <dt>Owner</dt><dd>{n.owner.name}</dd>
            <dt>Created</dt><dd><DateText iso={n.created} /></dd>
            <dt>Modified</dt><dd><DateText iso={n.modified} /></dd>
            <dt>Views</dt><dd>{num(n.viewCount)}</dd>
            {n.originalFileType && <><dt>Imported from</dt><dd>{n.originalFileType}</dd></>}
          </dl>
        </section>
        <div className="stack-lg">
          <section className="card" aria-labelledby="download-h">
            <h2 id="download-h">Download</h2>
            <p className="muted">The whole network with its attributes and layout.</p>
            <div className="row wrap">
              {FORMAT_IDS.map((id) => ({ id, ...FILE_FORMATS[id] })).map((f) => (
                <a key={f.id} className="btn btn-secondary" href={`/app/api/networks/${encodeURIComponent(n._id)}/export?format=${f.id}`} download data-testid={`export-${f.id}`}>
                  {f.label}
                </a>
              ))}
            </div>
          </section>
          <MetricJobs network={n} canEdit={canEdit} />
          {isOwner && <Shares network={n} />}
        </div>
      </div>
      {canEdit && <EditDialog network={n} open={editing} onClose={() => setEditing(false)} />}
      <Confirm
        open={deleting}
        title="Delete this network?"
        confirmLabel="Delete network"
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          del.mutateAsync(n).then(() => navigate(APP_PATHS.networks, { replace: true }), () => undefined)
        }
      >
        <p>
          <strong>{n.name}</strong> ({num(n.nodeCount)} nodes, {num(n.edgeCount)} edges) will be deleted for you and everyone it is shared with, including embeds. This cannot be undone.
        </p>
      </Confirm>
    </>
  );
}

function EditDialog({ network: n, open, onClose }: { network: NetworkDetail; open: boolean; onClose: () => void }) {
  const [name, setName] = useState(n.name);
  const [description, setDescription] = useState(n.description);
  const [status, setStatus] = useState(n.status);
  const update = useUpdateNetwork(n._id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ name: name.trim(), description, status }, { onSuccess: onClose });
  };
  return (
    <Dialog open={open} title="Edit details" onClose={() => { update.reset(); onClose(); }}>
      <form className="stack" onSubmit={submit}>
        <TextField label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} />
        <TextArea label="Description" name="description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
        <Select label="Visibility" name="status" value={status} onChange={(e) => setStatus(e.target.value as 'Public' | 'Private')} hint="Public networks are listed in Discover and open read-only for anyone.">
          <option value="Private">Private</option>
          <option value="Public">Public</option>
        </Select>
        <ErrorNotice error={update.error} />
        <div className="dialog-actions-end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={update.isPending} disabled={!name.trim()}>Save</Button>
        </div>
      </form>
    </Dialog>
  );
}

function Shares({ network: n }: { network: NetworkDetail }) {
  const { add, change, remove } = useShare(n._id);
  const [removing, setRemoving] = useState<Share | null>(null);
  return (
    <section className="card" aria-labelledby="share-h">
      <h2 id="share-h">Sharing</h2>
      {n.shares.length === 0 ? (
        <p className="muted">Not shared with anyone.</p>
      ) : (
        <ul className="share-list" data-testid="shares">
          {n.shares.map((s) => (
            <li key={s.email}>
              <span className="share-who">{s.name ? <>{s.name} <span className="muted">{s.email}</span></> : s.email}</span>
              <PermissionPicker id={`perm-${s.email}`} email={s.email} value={s.permission} onChange={(permission) => change.mutate({ email: s.email, permission })} />
              <Button variant="ghost" aria-label={`Remove ${s.email}`} onClick={() => setRemoving(s)}>Remove</Button>
            </li>
          ))}
        </ul>
      )}
      <ShareForm emailLabel="Share with (e-mail of a Netloom user)" name="share" busy={add.isPending} error={add.error} share={(s, sent) => add.mutate(s, { onSuccess: sent })} />
      <ConfirmAction
        item={removing}
        title="Stop sharing?"
        confirmLabel="Remove access"
        onClose={() => setRemoving(null)}
        run={(r) => remove.mutateAsync(r.email)}
      >
        <p><strong>{removing?.email}</strong> will no longer see this network.</p>
      </ConfirmAction>
    </section>
  );
}

/** Run a metric on this network as a job; this network's latest jobs with their progress; a link to all jobs. */
function MetricJobs({ network: n, canEdit }: { network: NetworkDetail; canEdit: boolean }) {
  const offered = (useOfferedMetrics().data?.metrics ?? []).filter((m) => canEdit || m.kind === 'network');
  const [chosen, setMetric] = useState('');
  const metric = chosen || (offered[0]?.id ?? '');
  const jobTitle = useJobTitle();
  const start = useStartMetricJob(n._id);
  const cancel = useCancelJob();
  const { data } = useJobs();
  const mine = (data?.jobs ?? []).filter((j) => j.networkId === n._id).slice(0, 3);
  useFinishedToasts(data?.jobs);
  const compute = useComputeNetworkValue(n._id);
  const metricTitle = useMetricTitle();
  const [values, setValues] = useState<WebNetworkValue[]>([]);
  const chosenMetric = offered.find((m) => m.id === metric);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate(metric);
  };
  const computeNow = () => compute.mutate(metric, { onSuccess: (v) => setValues((list) => [v, ...list.filter((x) => x.metric !== v.metric)]) });
  return (
    <section className="card" aria-labelledby="metrics-h" data-testid="metric-jobs">
      <h2 id="metrics-h">Metrics</h2>
      <p className="muted">
        Computed in the background as a job: leave the page if you like; a network-level metric (one number) can also be computed now.{' '}
        {canEdit ? 'Node metrics write their values onto the nodes (a new version of the network).' : 'Node metrics write onto the network, which needs Edit access; open Explore to compute them for yourself.'}
      </p>
      <form className="metric-form" onSubmit={submit}>
        <Select label="Metric" name="metric" value={metric} onChange={(e) => setMetric(e.target.value)}>
          {offered.map((m) => <option key={m.id} value={m.id}>{m.title}{m.kind === 'network' ? ' (one number)' : ''}</option>)}
        </Select>
        <span className="metric-actions">
          <Button type="submit" variant="primary" busy={start.isPending}>Run as a job</Button>
          {chosenMetric?.kind === 'network' && <Button type="button" variant="secondary" busy={compute.isPending} onClick={computeNow}>Compute now</Button>}
        </span>
      </form>
      <ErrorNotice error={start.error ?? compute.error} />
      {values.length > 0 && (
        <ul className="metric-values" aria-label="Computed now">
          {values.map((v) => (
            <li key={v.metric} data-testid="metric-value" data-metric={v.metric}>
              <strong>{metricTitle(v.metric)}: {formatMetricValue(v.value)}</strong>{' '}
              <span className="muted">{Object.keys(v.parameters).length ? Object.entries(v.parameters).map(([k, x]) => `${k} ${String(x)}`).join(', ') : 'default parameters'} · {v.ms < 1000 ? `${v.ms} ms` : `${(v.ms / 1000).toFixed(1)} s`}</span>
            </li>
          ))}
        </ul>
      )}
      {mine.length > 0 && (
        <ul className="job-list" aria-label="Latest jobs on this network">
          {mine.map((j) => (
            <li key={j.jobId} data-job={j.jobId} data-status={j.status}>
              <span className="job-list-head"><strong>{jobTitle(j)}</strong> <JobStatusBadge job={j} /></span>
              <JobProgress job={j} />
              {(j.status === 'queued' || j.status === 'running') && (
                <Button variant="ghost" aria-label={`Cancel ${jobTitle(j)}`} onClick={() => cancel.mutate(j.jobId)}>Cancel</Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p><Link to={APP_PATHS.jobs}>All your jobs</Link></p>
    </section>
  );
}
