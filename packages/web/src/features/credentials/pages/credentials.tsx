/**
 * `/credentials`: API tokens and legacy key pairs. Create a token (named; Full API access or chosen scopes,
 * resource × read/write plus the explicit `embed:manage`), after re-entering the password; the token is
 * shown once. Revoke with confirmation. Owners and Admins also see and create the organization's.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useSession } from '../../../api/session.ts';
import type { CreateCredentialInput, CreatedCredential, Credential } from '../../../api/types.ts';
import { useCreateCredential, useCredentials, useRevokeCredential, useScopes } from '../api/credentials.ts';
import { Badge, Button, CopyButton, DateText, Empty, ErrorNotice, Loading, Notice, PageHeader, TextField } from '../../../components/ui.tsx';
import { ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';

const ADMIN_ROLES = new Set(['Owner', 'Admin', 'owner', 'admin']);

export default function Credentials() {
  const { data, isPending, error } = useCredentials();
  const { data: session } = useSession();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<Credential | null>(null);
  const [created, setCreated] = useState<CreatedCredential | null>(null);
  const revoke = useRevokeCredential();
  const orgAdmin = !!session?.organization && ADMIN_ROLES.has(session.organization.role);
  const create = <Button variant="primary" onClick={() => setCreating(true)}>Create token</Button>;
  return (
    <>
      <PageHeader title="API credentials" subtitle={<>Tokens for the REST API (<code>Authorization: Bearer nl_…</code>). See <a href="/docs/api/credentials">the credentials guide</a>.</>}>
        {create}
      </PageHeader>
      {created && (
        <div className="card card-highlight" data-testid="new-token">
          <h2>Token “{created.credential.name}” created</h2>
          <Notice kind="warning"><strong>Copy it now.</strong> This is the only time the token is shown; Netloom keeps only a hash.</Notice>
          <div className="token-row">
            <code className="token" data-testid="token-value">{created.token}</code>
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <Button variant="ghost" onClick={() => setCreated(null)}>I have stored it</Button>
        </div>
      )}
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && data.credentials.length === 0 && (
        <Empty title="No credentials yet" action={create}>
          <p>Create a token to call the API from scripts, notebooks or your own back end.</p>
        </Empty>
      )}
      {data && data.credentials.length > 0 && (
        <DataTable
          testId="credentials-table"
          rows={data.credentials}
          rowKey={(c) => c.id}
          columns={[
            { label: 'Name', cell: (c) => <>{c.name || <span className="muted">unnamed</span>} {c.kind === 'basic' && <Badge>Legacy key pair</Badge>}</> },
            { label: 'Prefix', cell: (c) => <code>{c.prefix}…</code> },
            { label: 'Scopes', cell: (c) => (c.fullAccess ? <Badge tone="accent">Full API access</Badge> : <span className="scopes">{c.scopes.map((s) => <code key={s}>{s}</code>)}</span>) },
            { label: 'Owner', cell: (c) => (c.owner.type === 'organization' ? <>{c.owner.name} <Badge>Organization</Badge></> : c.owner.id === session?.user.id ? 'You' : c.owner.name) },
            { label: 'Created', cell: (c) => <DateText iso={c.created} /> },
            { label: 'Last used', cell: (c) => <DateText iso={c.lastUsedAt} /> },
            { label: 'Actions', actions: true, cell: (c) => <Button variant="danger" onClick={() => setRevoking(c)} aria-label={`Revoke ${c.name || c.prefix}`}>Revoke</Button> },
          ]}
        />
      )}
      <CreateDialog open={creating} orgName={orgAdmin ? session!.organization!.name : null} onClose={() => setCreating(false)} onCreated={(r) => { setCreated(r); setCreating(false); }} />
      <ConfirmAction
        item={revoking}
        title="Revoke this credential?"
        confirmLabel="Revoke"
        onClose={() => setRevoking(null)}
        run={revoke.mutateAsync}
      >
        <p>Programs using <strong>{revoking?.name || revoking?.prefix}</strong> (<code>{revoking?.prefix}…</code>) get <code>401</code> from their next request. This cannot be undone.</p>
      </ConfirmAction>
    </>
  );
}

function CreateDialog({ open, orgName, onClose, onCreated }: { open: boolean; orgName: string | null; onClose: () => void; onCreated: (r: CreatedCredential) => void }) {
  const scopesQ = useScopes();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [mode, setMode] = useState<'full' | 'custom'>('full');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [owner, setOwner] = useState<'user' | 'organization'>('user');
  const create = useCreateCredential();
  const reset = () => {
    setName('');
    setPassword('');
    setMode('full');
    setChosen(new Set());
    setOwner('user');
    create.reset();
  };
  const grid = useMemo(() => {
    const all = scopesQ.data?.scopes ?? [];
    const resources = scopesQ.data?.resources ?? [];
    const rows = resources.map((r) => ({ resource: r, read: all.includes(`${r}:read`), write: all.includes(`${r}:write`) }));
    const inGrid = new Set(rows.flatMap((r) => [`${r.resource}:read`, `${r.resource}:write`]));
    return { rows, extra: all.filter((s) => !inGrid.has(s)) };
  }, [scopesQ.data]);
  const toggle = (s: string) => setChosen((c) => { const n = new Set(c); if (n.has(s)) n.delete(s); else n.add(s); return n; });
  const invalid = !name.trim() || !password || (mode === 'custom' && chosen.size === 0);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invalid) return;
    const body: CreateCredentialInput = { name: name.trim(), password, scopes: mode === 'full' ? 'full' : [...chosen].sort(), ...(orgName ? { owner } : {}) };
    create.mutate(body, {
      onSuccess: (r) => {
        reset();
        onCreated(r);
      },
    });
  };
  return (
    <Dialog open={open} title="Create an API token" onClose={() => { reset(); onClose(); }} wide>
      <form className="stack" onSubmit={submit}>
        <TextField label="Name" name="token-name" required placeholder="e.g. Nightly import script" value={name} onChange={(e) => setName(e.target.value)} hint="So you recognise it in this list later." />
        {orgName && (
          <fieldset className="fieldset">
            <legend>Owner</legend>
            <label className="check"><input type="radio" name="owner" value="user" checked={owner === 'user'} onChange={() => setOwner('user')} /> <span>Me</span></label>
            <label className="check"><input type="radio" name="owner" value="organization" checked={owner === 'organization'} onChange={() => setOwner('organization')} /> <span>{orgName} (organization credential)</span></label>
          </fieldset>
        )}
        <fieldset className="fieldset">
          <legend>Access</legend>
          <label className="check"><input type="radio" name="access" value="full" checked={mode === 'full'} onChange={() => setMode('full')} /> <span><strong>Full API access</strong> — every scope, now and later</span></label>
          <label className="check"><input type="radio" name="access" value="custom" checked={mode === 'custom'} onChange={() => setMode('custom')} /> <span><strong>Custom scopes</strong> — only what you tick</span></label>
        </fieldset>
        {mode === 'custom' && (
          scopesQ.isPending ? <Loading label="Loading scopes…" /> : scopesQ.error ? <ErrorNotice error={scopesQ.error} /> : (
            <div className="scope-grid-wrap">
              <table className="table scope-grid" data-testid="scope-grid">
                <caption className="visually-hidden">Scopes by resource</caption>
                <thead><tr><th scope="col">Resource</th><th scope="col">Read</th><th scope="col">Write</th></tr></thead>
                <tbody>
                  {grid.rows.map((r) => (
                    <tr key={r.resource}>
                      <th scope="row">{r.resource}</th>
                      {(['read', 'write'] as const).map((a) => (
                        <td key={a}>{r[a] ? <input type="checkbox" aria-label={`${r.resource}:${a}`} checked={chosen.has(`${r.resource}:${a}`)} onChange={() => toggle(`${r.resource}:${a}`)} /> : <span className="muted" aria-label="not applicable">—</span>}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {grid.extra.map((s) => (
                <label key={s} className="check"><input type="checkbox" checked={chosen.has(s)} onChange={() => toggle(s)} /> <span><code>{s}</code>{s === 'embed:manage' ? ' — manage embedding: settings, managed users, sessions and launch tokens' : ''}</span></label>
              ))}
            </div>
          )
        )}
        <TextField label="Your password" type="password" name="confirm-password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} hint="Creating a credential needs your password again." />
        <ErrorNotice error={create.error} />
        <div className="dialog-actions-end">
          <Button onClick={() => { reset(); onClose(); }}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} disabled={invalid}>Create token</Button>
        </div>
      </form>
    </Dialog>
  );
}
