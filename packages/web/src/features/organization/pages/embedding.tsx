/**
 * `/organization/embedding` (Owners and Admins): everything a host integration needs, without raw API
 * calls — seats, allowed host origins (validated by the server exactly as the API does, errors shown at
 * the origin), embeddable networks, the data-disclosure acknowledgement, managed users (grant, remove,
 * deactivate, reactivate), live sessions (revoke), the AI chat switch with this month's allowance and each
 * network's preset questions. When the operator has not enabled embedding, the page says whom to ask.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useOrgOverview } from '../api/organization.ts';
import {
  useCreateManagedUser,
  useDeactivateManagedUser,
  useEmbeddingConsole,
  useGrantNetwork,
  useLiveSessions,
  useManagedUsers,
  useNetworkChoices,
  usePresetQuestions,
  useReactivateManagedUser,
  useRemoveGrant,
  useRevokeLiveSession,
  useSaveAllowedOrigins,
  useSaveEmbeddable,
  useSavePresets,
  useSetChat,
  type EmbedSettings,
  type LiveSession,
  type ManagedUser,
  type NetworkChoice,
} from '../api/embedding.ts';
import { Badge, Button, DateText, Empty, ErrorNotice, Loading, PageHeader, Select, TextArea, TextField, Stat, num } from '../../../components/ui.tsx';
import { ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { APP_PATHS, parseOrigin } from '@netloom/protocol/http';
import { AdminsOnly, OrgTabs } from '../components/tabs.tsx';

export default function OrganizationEmbedding() {
  const overview = useOrgOverview();
  const o = overview.data;
  const admin = !!o?.canManage;
  const enabled = !!o?.embedding.enabled;
  const consoleQ = useEmbeddingConsole(admin);
  return (
    <>
      <PageHeader title="Embedding" subtitle="Show your networks inside your own application, to your own users." />
      <OrgTabs overview={o} />
      {overview.isPending && <Loading />}
      <ErrorNotice error={overview.error} />
      {o && !admin && <AdminsOnly />}
      {o && admin && !enabled && (
        <Empty title="Embedding is not enabled for this organization">
          <p>
            The service operator turns embedding on and sets your number of managed-user seats. Ask your operator to run{' '}
            <code>netloom embedding enable --org "{o.name}" --seats 10</code>. The <a href="/docs/embedding">embedding guide</a> explains the rest.
          </p>
        </Empty>
      )}
      {admin && enabled && consoleQ.isPending && <Loading />}
      <ErrorNotice error={consoleQ.error} />
      {admin && enabled && consoleQ.data && (
        <div className="stack-lg">
          <section className="stats" aria-label="Seats">
            <Stat label="Managed-user seats">
              <span data-testid="seats">{num(consoleQ.data.settings.seatsUsed)} / {num(consoleQ.data.settings.seats)}</span> used
            </Stat>
            <Stat label="AI chat this month">
              {num(consoleQ.data.chat.allowance.used)} / {num(consoleQ.data.chat.allowance.limit)} questions
            </Stat>
          </section>
          <OriginsCard settings={consoleQ.data.settings} />
          <NetworksCard settings={consoleQ.data.settings} disclosureText={consoleQ.data.disclosureText} />
          <ManagedUsersCard />
          <SessionsCard />
          <ChatCard aiChat={consoleQ.data.chat.aiChat} />
          <p className="muted">
            Try a session and get the code for your backend in <Link to={APP_PATHS.organizationTry}>Try it</Link>; every change here is in the <Link to={APP_PATHS.organizationAudit}>audit log</Link>.
          </p>
        </div>
      )}
    </>
  );
}

/** Allowed host origins: exact `scheme://host[:port]`; the server's problems name `/allowedOrigins/<i>`. */
function OriginsCard({ settings }: { settings: EmbedSettings }) {
  const [origins, setOrigins] = useState<string[]>(settings.allowedOrigins);
  const [draftError, setDraftError] = useState<string | undefined>(undefined);
  const [draft, setDraft] = useState('');
  const save = useSaveAllowedOrigins();
  useEffect(() => setOrigins(settings.allowedOrigins), [settings.allowedOrigins]);
  const errorAt = (i: number): string | undefined => {
    const err = save.error;
    if (!(err instanceof ApiError)) return undefined;
    return err.errors.find((p) => p.path === `/allowedOrigins/${i}` || p.path?.startsWith(`/allowedOrigins/${i}/`))?.message;
  };
  const dirty = origins.join('\n') !== settings.allowedOrigins.join('\n');
  const submit = (list: string[]) =>
    save.mutate({ allowedOrigins: list }, { onSuccess: () => setDraft('') });
  return (
    <section className="card stack" aria-labelledby="origins-title">
      <h2 id="origins-title">Allowed host origins</h2>
      <p className="muted">The exact origins of the pages that may show the viewer: <code>https://app.example.com</code> or <code>http://localhost:3000</code> — scheme, host and an optional port, no path.</p>
      {origins.length === 0 && <p className="muted">No origin yet: no session can be created.</p>}
      <ul className="list-plain" data-testid="origins">
        {origins.map((origin, i) => (
          <li key={`${origin}-${i}`} className="row">
            <code>{origin}</code>
            {errorAt(i) && <span className="field-error" role="alert">{errorAt(i)}</span>}
            <Button variant="ghost" aria-label={`Remove ${origin}`} onClick={() => setOrigins(origins.filter((_, j) => j !== i))}>Remove</Button>
          </li>
        ))}
      </ul>
      <form
        className="row row-end"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          const v = draft.trim();
          if (!v) return;
          // the service's own rule (scheme://host[:port]): refused here with its reason, not only on Save
          const parsed = parseOrigin(v);
          if ('error' in parsed) return setDraftError(`${v} ${parsed.error}`);
          if (origins.includes(parsed.origin)) return setDraftError(`${parsed.origin} is already in the list`);
          setOrigins([...origins, parsed.origin]);
          setDraft('');
          setDraftError(undefined);
        }}
      >
        <TextField label="Add an origin" name="origin" placeholder="https://app.example.com" value={draft} onChange={(e) => { setDraft(e.target.value); setDraftError(undefined); }} error={draftError} />
        <Button type="submit">Add</Button>
      </form>
      {save.error && !(save.error instanceof ApiError && save.error.errors.some((p) => p.path?.startsWith('/allowedOrigins/'))) && <ErrorNotice error={save.error} />}
      <div className="form-actions">
        <Button variant="primary" busy={save.isPending} disabled={!dirty && !draft.trim()} onClick={() => submit(draft.trim() ? [...origins, draft.trim()] : origins)}>Save origins</Button>
      </div>
    </section>
  );
}

function NetworksCard({ settings, disclosureText }: { settings: EmbedSettings; disclosureText: string }) {
  const choices = useNetworkChoices();
  const [filter, setFilter] = useState('');
  const save = useSaveEmbeddable();
  const listed = new Set(settings.embeddableNetworkIds);
  const shown = (choices.data?.networks ?? []).filter((n) => n.name.toLowerCase().includes(filter.toLowerCase()));
  const setListed = (id: string, on: boolean) => {
    const next = new Set(listed);
    if (on) next.add(id);
    else next.delete(id);
    save.mutate({ embeddableNetworkIds: [...next] });
  };
  return (
    <section className="card stack" aria-labelledby="networks-title">
      <h2 id="networks-title">Embeddable networks</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.allOwnedNetworks}
          onChange={(e) => save.mutate({ allOwnedNetworks: e.target.checked })}
        />
        <span>All owned networks (every network owned by a member of the organization)</span>
      </label>
      {choices.isPending && <Loading />}
      {choices.data && choices.data.networks.length === 0 && <p className="muted">No member owns a network yet. <Link to={APP_PATHS.networks}>Upload one</Link>.</p>}
      {choices.data && choices.data.networks.length > 0 && (
        <>
          {choices.data.networks.length > 8 && <TextField label="Search networks" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />}
          <DataTable
            testId="embeddable-networks"
            rows={shown}
            rowKey={(n) => n._id}
            columns={[
              { label: 'Network', cell: (n) => n.name },
              { label: 'Owner', cell: (n) => n.owner.name },
              { label: 'Size', cell: (n) => <>{num(n.nodeCount)} nodes · {num(n.edgeCount)} edges</> },
              {
                label: 'Embeddable',
                cell: (n) =>
                  settings.allOwnedNetworks ? (
                    <Badge tone="accent">Yes (all owned)</Badge>
                  ) : (
                    <label className="check">
                      <input type="checkbox" checked={n.listed} onChange={(e) => setListed(n._id, e.target.checked)} />
                      <span>{n.listed ? 'Yes' : 'No'}<span className="visually-hidden"> (embeddable: {n.name})</span></span>
                    </label>
                  ),
              },
            ]}
          />
        </>
      )}
      <h3>Data disclosure</h3>
      <p>{disclosureText}</p>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.dataDisclosureAccepted}
          onChange={(e) => save.mutate({ dataDisclosureAccepted: e.target.checked })}
        />
        <span>
          I acknowledge this for the organization
          {settings.dataDisclosureAcceptedAt && <> (acknowledged <DateText iso={settings.dataDisclosureAcceptedAt} />)</>}
        </span>
      </label>
    </section>
  );
}

function ManagedUsersCard() {
  const [status, setStatus] = useState<'' | 'active' | 'deactivated'>('');
  const users = useManagedUsers(status);
  const choices = useNetworkChoices();
  const [creating, setCreating] = useState(false);
  const [granting, setGranting] = useState<ManagedUser | null>(null);
  const [deactivating, setDeactivating] = useState<ManagedUser | null>(null);
  const removeGrant = useRemoveGrant();
  const deactivate = useDeactivateManagedUser();
  const reactivate = useReactivateManagedUser();
  const embeddable = (choices.data?.networks ?? []).filter((n) => n.embeddable);
  return (
    <section className="card stack" aria-labelledby="users-title">
      <div className="card-header">
        <h2 id="users-title">Managed users</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>New managed user</Button>
      </div>
      <p className="muted">The people of your application who see networks here. Each active one takes a seat; deactivating frees it and ends their sessions.</p>
      <div className="narrow-field">
      <Select label="Show" value={status} onChange={(e) => setStatus(e.target.value as '' | 'active' | 'deactivated')}>
        <option value="">All</option>
        <option value="active">Active</option>
        <option value="deactivated">Deactivated</option>
      </Select>
      </div>
      <ErrorNotice error={users.error} />
      {users.isPending && <Loading />}
      {users.data && users.data.users.length === 0 && <p className="muted">No managed users{status ? ` (${status})` : ''} yet. Your backend creates them with <code>PUT /api/v2/embed/users/:externalId</code>, or add one here.</p>}
      {users.data && users.data.users.length > 0 && (
        <DataTable
          testId="managed-users"
          rows={users.data.users}
          rowKey={(u) => u.externalId}
          rowAttributes={(u) => ({ 'data-testid': `managed-${u.externalId}` })}
          columns={[
            {
              label: 'User',
              cell: (u) => (
                <>
                  {u.displayName} <Badge tone="accent">Embedded</Badge>
                  <div className="muted"><code>{u.externalId}</code></div>
                </>
              ),
            },
            { label: 'Status', cell: (u) => (u.status === 'active' ? 'Active' : <Badge tone="private">Deactivated</Badge>) },
            { label: 'Chat', cell: (u) => (u.chatAccess === 'full' ? 'Full' : u.chatAccess === 'presetOnly' ? 'Preset questions' : 'Off') },
            {
              label: 'Networks',
              cell: (u) => (
                <>
                  {u.networks.length === 0 && <span className="muted">none</span>}
                  <ul className="list-plain">
                    {u.networks.map((n) => (
                      <li key={n.networkId} className="row">
                        {n.name} <Badge>{n.permission}</Badge>
                        <Button variant="ghost" aria-label={`Remove ${n.name} from ${u.displayName}`} onClick={() => removeGrant.mutate({ u, grant: n })}>
                          Remove
                        </Button>
                      </li>
                    ))}
                  </ul>
                </>
              ),
            },
            { label: 'Last active', cell: (u) => <DateText iso={u.lastActiveAt} /> },
            {
              label: 'Actions',
              actions: true,
              cell: (u) =>
                u.status === 'active' ? (
                  <>
                    <Button onClick={() => setGranting(u)} disabled={embeddable.length === 0}>Grant network</Button>
                    <Button variant="danger" onClick={() => setDeactivating(u)} aria-label={`Deactivate ${u.displayName}`}>Deactivate</Button>
                  </>
                ) : (
                  <Button onClick={() => reactivate.mutate(u)}>Reactivate</Button>
                ),
            },
          ]}
        />
      )}
      <CreateManagedUser open={creating} onClose={() => setCreating(false)} />
      <GrantDialog user={granting} networks={embeddable} onClose={() => setGranting(null)} />
      <ConfirmAction
        item={deactivating}
        title="Deactivate this managed user?"
        confirmLabel="Deactivate"
        onClose={() => setDeactivating(null)}
        run={deactivate.mutateAsync}
      >
        <p>
          <strong>{deactivating?.displayName}</strong> loses access to every network and their open sessions end now. The seat becomes free. Reactivating later takes a seat again.
        </p>
      </ConfirmAction>
    </section>
  );
}

function CreateManagedUser({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [externalId, setExternalId] = useState('');
  const [displayName, setDisplayName] = useState('');
  // the API's default (PUT /api/v2/embed/users/:externalId without chatAccess): Full
  const [chatAccess, setChatAccess] = useState<ManagedUser['chatAccess']>('full');
  const create = useCreateManagedUser();
  const close = () => {
    setExternalId('');
    setDisplayName('');
    setChatAccess('full');
    create.reset();
    onClose();
  };
  return (
    <Dialog open={open} title="New managed user" onClose={close}>
      <form className="stack" onSubmit={(e) => { e.preventDefault(); create.mutate({ externalId: externalId.trim(), displayName: displayName.trim(), chatAccess }, { onSuccess: close }); }}>
        <TextField label="External id" required value={externalId} onChange={(e) => setExternalId(e.target.value)} hint="The id of this person in your application." />
        <TextField label="Display name" required value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
        <Select label="AI chat" value={chatAccess} onChange={(e) => setChatAccess(e.target.value as ManagedUser['chatAccess'])}>
          <option value="off">Off</option>
          <option value="presetOnly">Preset questions only</option>
          <option value="full">Full</option>
        </Select>
        <ErrorNotice error={create.error} />
        <div className="form-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!externalId.trim() || !displayName.trim()}>Create</Button>
        </div>
      </form>
    </Dialog>
  );
}

function GrantDialog({ user, networks, onClose }: { user: ManagedUser | null; networks: NetworkChoice[]; onClose: () => void }) {
  const [networkId, setNetworkId] = useState('');
  const [permission, setPermission] = useState<'View' | 'Edit'>('View');
  const grant = useGrantNetwork();
  useEffect(() => {
    setNetworkId(networks[0]?._id ?? '');
    setPermission('View');
    grant.reset();
  }, [user]);
  return (
    <Dialog open={user !== null} title={`Grant a network to ${user?.displayName ?? ''}`} onClose={onClose}>
      <form className="stack" onSubmit={(e) => { e.preventDefault(); grant.mutate({ externalId: user!.externalId, networkId, permission }, { onSuccess: onClose }); }}>
        <Select label="Network" value={networkId} onChange={(e) => setNetworkId(e.target.value)}>
          {networks.map((n) => <option key={n._id} value={n._id}>{n.name}</option>)}
        </Select>
        <Select label="Permission" value={permission} onChange={(e) => setPermission(e.target.value as 'View' | 'Edit')} hint={user?.readOnly ? 'This user is read-only: View only.' : 'Edit lets them save views and run metrics that write to the network.'}>
          <option value="View">View</option>
          {!user?.readOnly && <option value="Edit">Edit</option>}
        </Select>
        <ErrorNotice error={grant.error} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={grant.isPending} disabled={!networkId}>Grant</Button>
        </div>
      </form>
    </Dialog>
  );
}

function SessionsCard() {
  const sessions = useLiveSessions();
  const [revoking, setRevoking] = useState<LiveSession | null>(null);
  const revoke = useRevokeLiveSession();
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Live sessions</h2>
      <ErrorNotice error={sessions.error} />
      {sessions.isPending && <Loading />}
      {sessions.data && sessions.data.sessions.length === 0 && <p className="muted">No session is open right now.</p>}
      {sessions.data && sessions.data.sessions.length > 0 && (
        <DataTable
          testId="live-sessions"
          rows={sessions.data.sessions}
          rowKey={(x) => x.sessionId}
          rowAttributes={(x) => ({ 'data-testid': `session-${x.sessionId}` })}
          columns={[
            { label: 'User', cell: (x) => x.user.displayName },
            { label: 'Network', cell: (x) => x.network.name },
            { label: 'Origin', cell: (x) => <code>{x.origin}</code> },
            { label: 'Started', cell: (x) => <DateText iso={x.created} /> },
            { label: 'Expires', cell: (x) => <DateText iso={x.expiresAt} /> },
            { label: 'Last activity', cell: (x) => <DateText iso={x.lastActivityAt} /> },
            { label: 'Actions', actions: true, cell: (x) => <Button variant="danger" onClick={() => setRevoking(x)} aria-label={`Revoke the session of ${x.user.displayName}`}>Revoke</Button> },
          ]}
        />
      )}
      <ConfirmAction
        item={revoking}
        title="Revoke this session?"
        confirmLabel="Revoke session"
        onClose={() => setRevoking(null)}
        run={(x) => revoke.mutateAsync(x.sessionId)}
      >
        <p>The viewer of <strong>{revoking?.user.displayName}</strong> on <strong>{revoking?.network.name}</strong> ends now (it reports <code>session.expired</code> to your page).</p>
      </ConfirmAction>
    </section>
  );
}

function ChatCard({ aiChat }: { aiChat: boolean }) {
  const choices = useNetworkChoices();
  const [editing, setEditing] = useState<NetworkChoice | null>(null);
  const setChat = useSetChat();
  const embeddable = useMemo(() => (choices.data?.networks ?? []).filter((n) => n.embeddable), [choices.data]);
  return (
    <section className="card stack" aria-labelledby="chat-title">
      <h2 id="chat-title">AI chat</h2>
      <label className="check">
        <input type="checkbox" checked={aiChat} onChange={(e) => setChat.mutate(e.target.checked)} />
        <span>AI chat in embedded viewers (each managed user's chat access applies too)</span>
      </label>
      <h3>Preset questions</h3>
      {embeddable.length === 0 && <p className="muted">No embeddable network yet.</p>}
      <ul className="list-plain">
        {embeddable.map((n) => (
          <li key={n._id} className="row">
            {n.name} <Button variant="ghost" onClick={() => setEditing(n)} aria-label={`Edit questions: ${n.name}`}>Edit questions</Button>
          </li>
        ))}
      </ul>
      <PresetsDialog network={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function PresetsDialog({ network, onClose }: { network: NetworkChoice | null; onClose: () => void }) {
  const [text, setText] = useState('');
  const [custom, setCustom] = useState(false);
  const presets = usePresetQuestions(network?._id ?? null);
  const save = useSavePresets(network?._id ?? null);
  useEffect(() => {
    if (network) save.reset();
  }, [network]);
  useEffect(() => {
    if (!presets.data) return;
    setText(presets.data.presetQuestions.join('\n'));
    setCustom(presets.data.custom);
  }, [presets.data]);
  const questions = text.split('\n').map((q) => q.trim()).filter(Boolean);
  return (
    <Dialog open={network !== null} title={`Preset questions: ${network?.name ?? ''}`} onClose={onClose} wide>
      <ErrorNotice error={presets.error} />
      <form className="stack" onSubmit={(e) => { e.preventDefault(); save.mutate(questions, { onSuccess: onClose }); }}>
        <TextArea label="One question per line (1–20, at most 500 characters each)" rows={8} value={text} onChange={(e) => setText(e.target.value)} hint={custom ? 'Your own set.' : 'The default set, suggested from the network’s attributes.'} />
        <ErrorNotice error={save.error} />
        <div className="form-actions">
          {custom && <Button onClick={() => save.mutate(null, { onSuccess: onClose })}>Use the default set</Button>}
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.isPending} disabled={questions.length === 0}>Save</Button>
        </div>
      </form>
    </Dialog>
  );
}
