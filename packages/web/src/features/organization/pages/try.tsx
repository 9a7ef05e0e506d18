/**
 * `/organization/try` (Owners and Admins, embedding on): pick a managed user, one of their networks and an
 * allowed origin, create a real session, and get the host code filled in for it — the backend handler and
 * the page's `Embed.create` call. When the web app's own origin is allowed, the session opens in a live
 * preview right here, through the same SDK a host page uses (`/sdk/embed.js`).
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../../api/client.ts';
import { useOrgOverview } from '../api/organization.ts';
import { consoleLaunchToken, useCreateTrySession, useEmbeddingConsole, useManagedUsers, type TrySession } from '../api/embedding.ts';
import { Button, CopyButton, ErrorNotice, Loading, Notice, PageHeader, Select } from '../../../components/ui.tsx';
import { APP_PATHS } from '@netloom/protocol/http';
import { AdminsOnly, OrgTabs } from '../components/tabs.tsx';
import { launchTokens, loadSdk, type EmbedHandle } from '../../../embed-sdk.ts';

export default function OrganizationTry() {
  const overview = useOrgOverview();
  const o = overview.data;
  const ready = !!o?.canManage && !!o?.embedding.enabled;
  const consoleQ = useEmbeddingConsole(ready);
  const users = useManagedUsers('active', ready);
  const [externalId, setExternalId] = useState('');
  const [networkId, setNetworkId] = useState('');
  const [origin, setOrigin] = useState('');
  const [session, setSession] = useState<TrySession | null>(null);
  const create = useCreateTrySession();
  const user = users.data?.users.find((u) => u.externalId === externalId);
  const origins = consoleQ.data?.settings.allowedOrigins ?? [];
  const ownOrigin = window.location.origin;

  useEffect(() => {
    if (!externalId && users.data?.users[0]) setExternalId(users.data.users[0].externalId);
  }, [users.data, externalId]);
  useEffect(() => {
    if (user && !user.networks.some((n) => n.networkId === networkId)) setNetworkId(user.networks[0]?.networkId ?? '');
  }, [user, networkId]);
  useEffect(() => {
    if (!origin && origins.length) setOrigin(origins.includes(ownOrigin) ? ownOrigin : origins[0]);
  }, [origins, origin, ownOrigin]);

  return (
    <>
      <PageHeader title="Try it" subtitle="Open a real embed session and get the code your application needs for it." />
      <OrgTabs overview={o} />
      <div className="stack-lg">
      {overview.isPending && <Loading />}
      {o && !o.canManage && <AdminsOnly />}
      {o && o.canManage && !o.embedding.enabled && <Notice>Embedding is not enabled for this organization; see <Link to={APP_PATHS.organizationEmbedding}>Embedding</Link>.</Notice>}
      {ready && (users.isPending || consoleQ.isPending) && <Loading />}
      {ready && users.data && consoleQ.data && (
        <section className="card stack" aria-labelledby="try-title">
          <h2 id="try-title">Session</h2>
          {users.data.users.length === 0 || origins.length === 0 ? (
            <Notice kind="warning">
              First {origins.length === 0 ? 'add an allowed host origin' : ''}{origins.length === 0 && users.data.users.length === 0 ? ' and ' : ''}
              {users.data.users.length === 0 ? 'create a managed user and grant them a network' : ''} in <Link to={APP_PATHS.organizationEmbedding}>Embedding</Link>.
            </Notice>
          ) : (
            <form
              className="stack"
              onSubmit={(e) => {
                e.preventDefault();
                setSession(null);
                create.mutate({ externalId, networkId, origin }, { onSuccess: setSession });
              }}
            >
              <div className="grid-3">
                <Select label="Managed user" value={externalId} onChange={(e) => setExternalId(e.target.value)}>
                  {users.data.users.map((u) => <option key={u.externalId} value={u.externalId}>{u.displayName} ({u.externalId})</option>)}
                </Select>
                <Select label="Network" value={networkId} onChange={(e) => setNetworkId(e.target.value)} hint={user && user.networks.length === 0 ? 'This user has no network: grant one in Embedding.' : undefined}>
                  {(user?.networks ?? []).map((n) => <option key={n.networkId} value={n.networkId}>{n.name} ({n.permission})</option>)}
                </Select>
                <Select label="Host origin" value={origin} onChange={(e) => setOrigin(e.target.value)} hint={origins.includes(ownOrigin) ? undefined : `Allow ${ownOrigin} to preview here.`}>
                  {origins.map((x) => <option key={x} value={x}>{x}</option>)}
                </Select>
              </div>
              <ErrorNotice error={create.error} />
              <div className="form-actions">
                <Button type="submit" variant="primary" busy={create.isPending} disabled={!externalId || !networkId || !origin}>Create session</Button>
              </div>
            </form>
          )}
        </section>
      )}
      {session && <SessionResult session={session} />}
      </div>
    </>
  );
}

function SessionResult({ session }: { session: TrySession }) {
  return (
    <div className="stack-lg">
      <section className="card stack" aria-labelledby="snippet-title" data-testid="try-session">
        <h2 id="snippet-title">Your code for this session</h2>
        <p className="muted">
          Session <code data-testid="try-session-id">{session.sessionId}</code> for <code>{session.origin}</code>. In your application the backend creates sessions and hands out launch tokens;
          the organization credential (<code>embed:manage</code>) never leaves it.
        </p>
        <h3>Backend</h3>
        <pre className="code" data-testid="snippet-backend"><code>{session.snippet.backend}</code></pre>
        <CopyButton text={session.snippet.backend} label="Copy backend code" />
        <h3>Page</h3>
        <pre className="code" data-testid="snippet-page"><code>{session.snippet.page}</code></pre>
        <CopyButton text={session.snippet.page} label="Copy page code" />
      </section>
      {session.previewAvailable ? <Preview session={session} /> : <Notice>The preview draws only when the session's origin is this app's own origin ({window.location.origin}).</Notice>}
    </div>
  );
}

/** The session opened through the SDK, as a host page would; its events are listed under the frame. */
function Preview({ session }: { session: TrySession }) {
  const frame = useRef<HTMLDivElement>(null);
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let handle: EmbedHandle | null = null;
    let cancelled = false;
    const getLaunchToken = launchTokens(session.launchToken, consoleLaunchToken);
    loadSdk()
      .then((m) => m.default.create(frame.current!, { sessionId: session.sessionId, getLaunchToken }))
      .then((h) => {
        if (cancelled) return h.destroy();
        handle = h;
        setEvents((e) => [...e, 'drawn']);
        for (const name of ['session.expired', 'node.clicked', 'error']) h.on(name, () => setEvents((e) => [...e, name]));
      })
      .catch((err) => !cancelled && setError(errorText(err)));
    return () => {
      cancelled = true;
      handle?.destroy();
      if (frame.current) frame.current.textContent = '';
    };
  }, [session]);
  return (
    <section className="card stack" aria-labelledby="preview-title">
      <h2 id="preview-title">Live preview</h2>
      {error && <div className="notice notice-error" role="alert">{error}</div>}
      <div ref={frame} className="embed-preview" data-testid="preview" />
      <p className="muted" data-testid="preview-events" aria-live="polite">Events: {events.length ? events.join(', ') : 'waiting for the viewer…'}</p>
    </section>
  );
}
