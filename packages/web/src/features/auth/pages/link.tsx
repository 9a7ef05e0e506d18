/**
 * `/link/:token`: an invitation (choose your name and password — or, for an existing account, sign in as
 * it and accept) or a password reset (choose a new password). Redeeming the link signs you in. Used or
 * expired links say so. An invitation never changes an existing account's password.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useAcceptInvitation, useLink, useRedeemLink } from '../api/auth.ts';
import { APP_PATHS } from '@netloom/protocol/http';
import { Button, Empty, ErrorNotice, Loading, TextField, formatDate } from '../../../components/ui.tsx';

const MIN_PASSWORD = 10;

export default function LinkPage() {
  const { token = '' } = useParams();
  const info = useLink(token);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [askCode, setAskCode] = useState(false);
  const navigate = useNavigate();
  const accept = useAcceptInvitation(token);
  const redeem = useRedeemLink(token);

  if (info.isPending) return <Loading />;
  if (info.error) {
    const gone = info.error instanceof ApiError && info.error.status === 404;
    return (
      <Empty level={1} title={gone ? 'This link no longer works' : 'Could not open the link'} action={<Link className="btn btn-primary" to={APP_PATHS.signIn}>Go to sign in</Link>}>
        <p>{gone ? 'It was used already or it expired. Ask your administrator for a new one.' : String(info.error.message)}</p>
      </Empty>
    );
  }
  const l = info.data;
  if (l.kind === 'invite' && l.acceptable) {
    return (
      <div className="narrow">
        <div className="card stack">
          <h1 id="page-title" tabIndex={-1}>Join {l.organization ? l.organization.name : 'Netloom'}</h1>
          <p>You were invited as <strong>{l.email}</strong>, the account you are signed in as. Your password and everything you own stay as they are; what you own now stays yours.</p>
          <ErrorNotice error={accept.error} />
          <div><Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate(undefined, { onSuccess: () => navigate(APP_PATHS.networks, { replace: true }) })}>Accept the invitation</Button></div>
        </div>
      </div>
    );
  }
  // A reset of an account with two-factor authentication asks for a code too (the server says so).
  const needsCode = askCode;
  const tooShort = password.length > 0 && password.length < MIN_PASSWORD;
  const mismatch = repeat.length > 0 && repeat !== password;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (password.length < MIN_PASSWORD || password !== repeat || (l.needsName && !name.trim())) return;
    const second = needsCode && code.trim() ? (useRecovery ? { recoveryCode: code.trim() } : { totp: code.replace(/\s/g, '') }) : {};
    redeem.mutate(
      { ...(l.kind === 'invite' && name.trim() ? { name: name.trim() } : {}), password, ...second },
      {
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'MFA_REQUIRED') setAskCode(true);
        },
        onSuccess: (s) => navigate(s.mfaEnrolmentRequired ? APP_PATHS.mfaEnrol : APP_PATHS.networks, { replace: true }),
      },
    );
  };
  return (
    <div className="narrow">
      <div className="card">
        <h1 id="page-title" tabIndex={-1}>{l.kind === 'invite' ? 'Welcome to Netloom' : 'Choose a new password'}</h1>
        <p>
          {l.kind === 'invite' ? (
            <>You were invited as <strong>{l.email}</strong>{l.organization ? <> to <strong>{l.organization.name}</strong></> : null}. Choose a password to finish.</>
          ) : (
            <>For <strong>{l.email}</strong>. Other sessions of this account end when you set it.</>
          )}
        </p>
        <p className="muted">This link works until {formatDate(l.expiresAt)}.</p>
        {l.kind === 'invite' && (
          <p className="muted">
            Already have a Netloom account with this e-mail? <Link to={APP_PATHS.signIn}>Sign in</Link> as it, then open this link again to accept.
          </p>
        )}
        <form className="stack" onSubmit={submit}>
          <input type="email" name="email" autoComplete="username" value={l.email} readOnly hidden />
          {l.kind === 'invite' && <TextField label={l.needsName ? 'Your name' : 'Your name (optional)'} name="name" autoComplete="name" required={l.needsName} error={touched && l.needsName && !name.trim() ? 'Enter your name.' : undefined} value={name} onChange={(e) => setName(e.target.value)} />}
          <TextField label="New password" type="password" name="password" autoComplete="new-password" required minLength={MIN_PASSWORD} hint={`At least ${MIN_PASSWORD} characters.`} error={(touched || tooShort) && password.length < MIN_PASSWORD ? `Use at least ${MIN_PASSWORD} characters.` : undefined} value={password} onChange={(e) => setPassword(e.target.value)} />
          <TextField label="Repeat the password" type="password" name="repeat" autoComplete="new-password" required error={(touched || mismatch) && repeat !== password ? 'The passwords differ.' : undefined} value={repeat} onChange={(e) => setRepeat(e.target.value)} />
          {needsCode && (
            <>
              <TextField label={useRecovery ? 'Recovery code' : 'Code from your authenticator app'} name="code" autoComplete="one-time-code" inputMode={useRecovery ? 'text' : 'numeric'} required value={code} onChange={(e) => setCode(e.target.value)} />
              <button type="button" className="link-button" onClick={() => { setUseRecovery((r) => !r); setCode(''); }}>
                {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
              </button>
            </>
          )}
          <ErrorNotice error={redeem.error instanceof ApiError && redeem.error.code === 'MFA_REQUIRED' && !code ? null : redeem.error} />
          {redeem.error instanceof ApiError && redeem.error.code === 'MFA_REQUIRED' && !code && <p className="muted">This account has two-factor authentication: enter a code to finish.</p>}
          <Button type="submit" variant="primary" busy={redeem.isPending}>
            {l.kind === 'invite' ? 'Create account and sign in' : 'Set password and sign in'}
          </Button>
        </form>
      </div>
    </div>
  );
}
