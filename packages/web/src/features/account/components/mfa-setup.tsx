/**
 * TOTP enrolment: asks the server for a new secret, shows it as a QR code (the otpauth URL, drawn by the
 * `qrcode` library, loaded only here) and as text, checks a code from the app, then shows the recovery
 * codes once. Used by the forced enrolment page and by Account.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useEnableMfa, useMfaSetup } from '../api/account.ts';
import { Button, ErrorNotice, Loading, TextField } from '../../../components/ui.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

function QrCode({ text }: { text: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode').then((m) => (m.default ?? m).toDataURL(text, { margin: 1, width: 200, errorCorrectionLevel: 'M' })).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <img className="qr" src={src} width={200} height={200} alt="QR code of the authenticator secret" data-testid="mfa-qr" /> : <div className="qr qr-pending"><Loading label="Drawing the QR code…" /></div>;
}

export function MfaSetup({ onDone }: { onDone: () => void }) {
  const setup = useMfaSetup();
  const enable = useEnableMfa();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const start = setup.mutate;
  useEffect(() => start(), [start]);

  if (enable.data) {
    return (
      <div className="stack">
        <p className="notice notice-success">Two-factor authentication is on.</p>
        <RecoveryCodes codes={enable.data.recoveryCodes} />
        <div><Button variant="primary" onClick={onDone}>Continue</Button></div>
      </div>
    );
  }
  if (setup.error) return <ErrorNotice error={setup.error} title="Could not start the set-up" />;
  if (!setup.data) return <Loading label="Preparing a secret…" />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate({ code: code.replace(/\s/g, ''), password });
  };
  return (
    <div className="mfa-setup">
      <p>Open an authenticator app (e.g. 1Password, Google Authenticator, Aegis) and scan this code:</p>
      <div className="mfa-grid">
        <QrCode text={setup.data.otpauthUrl} />
        <div className="stack">
          <p className="muted">Cannot scan? Enter this secret by hand:</p>
          <code className="secret" data-testid="mfa-secret">{setup.data.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
        </div>
      </div>
      <form className="stack" onSubmit={submit}>
        <TextField label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required value={code} onChange={(e) => setCode(e.target.value)} hint="6 digits; a new one every 30 seconds." />
        <TextField label="Your password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} hint="Turning two-factor authentication on needs your password." />
        <ErrorNotice error={enable.error} />
        <div><Button type="submit" variant="primary" busy={enable.isPending}>Turn on</Button></div>
      </form>
    </div>
  );
}
