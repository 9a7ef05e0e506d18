/** `/account`: plan and usage, password, two-factor authentication, active sessions. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../../../api/session.ts';
import { useAccount, useRenameAccount, useChangePassword, useDisableMfa, useEndSession, useNewRecoveryCodes, useSignOutEverywhere, useWebSessions } from '../api/account.ts';
import { APP_PATHS } from '@netloom/protocol/http';
import type { WebSession } from '../../../api/types.ts';
import { Badge, Button, DateText, ErrorNotice, Loading, Notice, PageHeader, Quota, TextField } from '../../../components/ui.tsx';
import { Confirm, ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { RecoveryCodes } from '../components/recovery-codes.tsx';

export default function Account() {
  const { data, isPending, error } = useAccount();
  return (
    <>
      <PageHeader title="Account" subtitle={data ? `${data.user.name || data.user.email} · ${data.user.email}` : undefined} />
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && (
        <div className="columns">
          <div className="stack-lg">
            <section className="card" aria-labelledby="plan-h">
              <h2 id="plan-h">Plan</h2>
              <p><Badge tone="accent">{data.plan}</Badge>{data.organization ? <> through <strong>{data.organization.name}</strong> ({data.organization.role})</> : null}</p>
              <div className="quotas">
                <Quota label="Public networks" used={data.networkCounts.public} max={data.networkMaxima.public} />
                <Quota label="Private networks" used={data.networkCounts.private} max={data.networkMaxima.private} />
              </div>
            </section>
            <NameCard current={data.user.name} />
            <PasswordCard />
          </div>
          <div className="stack-lg">
            <MfaCard codesLeft={data.mfa.recoveryCodesLeft} />
            <SessionsCard />
          </div>
        </div>
      )}
    </>
  );
}

function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const change = useChangePassword();
  const tooShort = next.length > 0 && next.length < 10;
  const mismatch = repeat.length > 0 && repeat !== next;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (next.length < 10 || next !== repeat) return;
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent(''); setNext(''); setRepeat('');
        },
      },
    );
  };
  return (
    <section className="card" aria-labelledby="pw-h">
      <h2 id="pw-h">Password</h2>
      <form className="stack" onSubmit={submit}>
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <TextField label="Current password" type="password" name="current-password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" name="new-password" autoComplete="new-password" required minLength={10} hint="At least 10 characters." error={tooShort ? 'Use at least 10 characters.' : undefined} value={next} onChange={(e) => setNext(e.target.value)} />
        <TextField label="Repeat the new password" type="password" name="repeat-password" autoComplete="new-password" required error={mismatch ? 'The passwords differ.' : undefined} value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        <ErrorNotice error={change.error} />
        <div><Button type="submit" variant="primary" busy={change.isPending}>Change password</Button></div>
      </form>
    </section>
  );
}

function PasswordPrompt({ open, title, action, danger, onClose, run }: { open: boolean; title: string; action: string; danger?: boolean; onClose: () => void; run: (password: string) => Promise<unknown> }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => { setPassword(''); setError(null); onClose(); };
  return (
    <Dialog open={open} title={title} onClose={close}>
      <form className="stack" onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await run(password);
          setPassword('');
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}>
        <TextField label="Your password" type="password" name="password" autoComplete="current-password" required autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorNotice error={error} />
        <div className="dialog-actions-end">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>{action}</Button>
        </div>
      </form>
    </Dialog>
  );
}

function MfaCard({ codesLeft }: { codesLeft: number }) {
  const { data: session } = useSession();
  const newCodes = useNewRecoveryCodes();
  const disable = useDisableMfa();
  const [prompt, setPrompt] = useState<'disable' | 'codes' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  if (!session) return null;
  const on = session.user.mfaEnabled;
  const required = session.organization?.requireMfa;
  return (
    <section className="card" aria-labelledby="mfa-h">
      <h2 id="mfa-h">Two-factor authentication</h2>
      <p>{on ? <Badge tone="public">On</Badge> : <Badge>Off</Badge>} {on ? 'Sign-ins ask for a code from your authenticator app.' : 'Add a second step to sign-in with an authenticator app.'}</p>
      {on && !codes && <p className={codesLeft <= 2 ? 'notice notice-warning' : 'muted'}>{codesLeft} of 10 recovery codes left.</p>}
      {required && <p className="muted">{session.organization!.name} requires two-factor authentication.</p>}
      {codes && <RecoveryCodes codes={codes} />}
      <div className="row wrap">
        {!on && <Link className="btn btn-primary" to={APP_PATHS.mfaEnrol}>Set up</Link>}
        {on && <Button onClick={() => setPrompt('codes')}>New recovery codes</Button>}
        {on && !required && <Button variant="danger" onClick={() => setPrompt('disable')}>Turn off</Button>}
      </div>
      <PasswordPrompt
        open={prompt === 'codes'}
        title="New recovery codes"
        action="Replace codes"
        onClose={() => setPrompt(null)}
        run={async (password) => {
          const r = await newCodes.mutateAsync(password);
          setCodes(r.recoveryCodes);
          setPrompt(null);
        }}
      />
      <PasswordPrompt
        open={prompt === 'disable'}
        title="Turn off two-factor authentication?"
        action="Turn off"
        danger
        onClose={() => setPrompt(null)}
        run={async (password) => {
          await disable.mutateAsync(password);
          setPrompt(null);
          setCodes(null);
        }}
      />
    </section>
  );
}

function describeAgent(ua: string | null): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? `${browser} on ${os}` : browser;
}

function SessionsCard() {
  const { data, isPending, error } = useWebSessions();
  const end = useEndSession();
  const everywhereM = useSignOutEverywhere();
  const navigate = useNavigate();
  const [ending, setEnding] = useState<WebSession | null>(null);
  const [everywhere, setEverywhere] = useState(false);
  return (
    <section className="card" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Active sessions</h2>
      {isPending && <Loading />}
      <ErrorNotice error={error} />
      {data && (
        <ul className="session-list" data-testid="sessions">
          {data.sessions.map((s) => (
            <li key={s.id}>
              <div>
                <strong>{describeAgent(s.userAgent)}</strong> {s.current && <Badge tone="public">This session</Badge>}
                <div className="muted">{s.ip ?? 'unknown address'} · signed in <DateText iso={s.created} /> · last seen <DateText iso={s.lastSeenAt} /></div>
              </div>
              {!s.current && <Button variant="ghost" aria-label={`End session: ${describeAgent(s.userAgent)}, ${s.ip ?? 'unknown address'}`} onClick={() => setEnding(s)}>End session</Button>}
            </li>
          ))}
        </ul>
      )}
      <Notice kind="info">Changing your password signs out your other sessions too.</Notice>
      <div><Button variant="danger" onClick={() => setEverywhere(true)}>Sign out everywhere</Button></div>
      <ConfirmAction item={ending} title="Sign out this session?" confirmLabel="Sign it out" onClose={() => setEnding(null)} run={(s) => end.mutateAsync(s.id)}>
        <p>{describeAgent(ending?.userAgent ?? null)} ({ending?.ip ?? 'unknown address'}) will have to sign in again.</p>
      </ConfirmAction>
      <Confirm open={everywhere} title="Sign out everywhere?" confirmLabel="Sign out everywhere" onClose={() => setEverywhere(false)} onConfirm={() => everywhereM.mutateAsync().then(() => navigate(APP_PATHS.signIn), () => undefined)}>
        <p>Every session of your account ends, this one included. API tokens keep working.</p>
      </Confirm>
    </section>
  );
}

/** The display name others see (members, shares, the audit log). */
function NameCard({ current }: { current: string }) {
  const [name, setName] = useState(current);
  const rename = useRenameAccount();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(name);
  };
  return (
    <section className="card" aria-labelledby="name-h">
      <h2 id="name-h">Display name</h2>
      <form className="stack" onSubmit={submit}>
        <TextField label="Display name" name="display-name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} hint="Shown to the members of your organization, on shares and in the audit log." />
        <ErrorNotice error={rename.error} />
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={rename.isPending} disabled={!name.trim() || name.trim() === current}>Save name</Button>
        </div>
      </form>
    </section>
  );
}
