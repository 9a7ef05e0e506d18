/**
 * Sign in: e-mail and password, then — when the account has two-factor authentication — a second step
 * asking for the authenticator's 6-digit code or one of the recovery codes (docs/web-app.md).
 */
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSignIn } from '../api/auth.ts';
import { ApiError } from '../../../api/client.ts';
import { APP_PATHS, safeNext } from '@netloom/protocol/http';
import { Button, ErrorNotice, TextField } from '../../../components/ui.tsx';

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<'password' | 'mfa'>('password');
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const signIn = useSignIn();
  const navigate = useNavigate();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const next = safeNext(params.get('next'));
  const expired = params.get('expired') === '1';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = step === 'mfa' ? { email, password, ...(useRecovery ? { recoveryCode: code.trim() } : { totp: code.replace(/\s/g, '') }) } : { email, password };
    signIn.mutate(body, {
      onSuccess: (s) => navigate(s.mfaEnrolmentRequired ? APP_PATHS.mfaEnrol : next, { replace: true }),
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'MFA_REQUIRED' && step === 'password') {
          signIn.reset();
          setStep('mfa');
        }
      },
    });
  };

  const mfaError = signIn.error instanceof ApiError && signIn.error.code === 'MFA_REQUIRED' && step === 'password' ? null : signIn.error;

  return (
    <div className="narrow">
      <div className="card">
        <h1 id="page-title" tabIndex={-1}>{step === 'password' ? 'Sign in to Netloom' : 'Two-factor authentication'}</h1>
        {expired && step === 'password' && (
          <p className="notice notice-warning" role="status" data-testid="session-ended">Your session has ended. Sign in again to continue where you were.</p>
        )}
        <form onSubmit={submit} className="stack" noValidate={false}>
          {step === 'password' ? (
            <>
              <TextField label="E-mail" type="email" name="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
              <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </>
          ) : (
            <>
              <p>{useRecovery ? 'Enter one of your recovery codes. Each code works once.' : 'Enter the 6-digit code from your authenticator app.'}</p>
              <TextField
                key={useRecovery ? 'recovery' : 'totp'}
                label={useRecovery ? 'Recovery code' : 'Authentication code'}
                name={useRecovery ? 'recoveryCode' : 'totp'}
                autoComplete="one-time-code"
                inputMode={useRecovery ? 'text' : 'numeric'}
                pattern={useRecovery ? undefined : '[0-9 ]{6,7}'}
                required
                autoFocus
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
              <button type="button" className="link-button" onClick={() => { setUseRecovery((r) => !r); setCode(''); signIn.reset(); }}>
                {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
              </button>
            </>
          )}
          <ErrorNotice error={mfaError} />
          <div className="form-actions form-actions-start">
            <Button type="submit" variant="primary" busy={signIn.isPending}>
              {step === 'password' ? 'Sign in' : 'Verify'}
            </Button>
            {step === 'mfa' && (
              <button type="button" className="link-button" onClick={() => { setStep('password'); setCode(''); signIn.reset(); }}>
                Back
              </button>
            )}
          </div>
        </form>
      </div>
      <p className="muted center">
        First run? The owner's e-mail and password were printed when the service started. Invitations and password resets arrive as links.
      </p>
      <p className="center">
        <Link to={APP_PATHS.discover}>Discover public networks</Link> · <a href="/docs/">Documentation</a>
      </p>
    </div>
  );
}
