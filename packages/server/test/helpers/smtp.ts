/**
 * An SMTP server in this process that keeps what arrives (smtp-server; no TLS, no authentication), for the
 * survey e-mail tests of the server and of the web app: each message once per recipient, with its subject
 * and its body (quoted-printable soft breaks and `=3D` undone, so links read as sent).
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  body: string;
}

export interface SmtpCapture {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** What arrived, in order. */
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1; `delayMs` holds each message's acknowledgement that long (a slow server). */
export async function smtpCapture(opts: { delayMs?: number } = {}): Promise<SmtpCapture> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
        const body = rest.join('\n\n').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        setTimeout(() => {
          for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, subject, body });
          callback();
        }, opts.delayMs ?? 0);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
