/**
 * "Forgot password?" and invitation e-mail (docs/web-app.md "Invitations and password resets"), with
 * `SMTP_URL` set (domain/mail.ts).
 *
 * A reset request answers the same whether or not the address has an account, and is throttled like
 * sign-in: every request takes a slot of the sign-in counters of that address and account
 * (sign-in-limits.ts), so it cannot be used to probe for accounts or to flood an inbox. When the account
 * exists, a one-hour reset link (user-links.ts; older unused ones stop working) is e-mailed to it; the
 * message is sent after the answer, so the answer's timing does not tell either.
 */
import type { Mailer } from '../mail.ts';
import { DomainError } from '../errors.ts';
import { createResetLink, type CreatedLink } from './user-links.ts';
import { reserveAttempt, type LimitDeps } from './sign-in-limits.ts';
import { normalizeEmail } from './users.ts';
import type { SignInDeps } from './sign-in.ts';

export interface ResetMailDeps extends SignInDeps {
  publicUrl: string;
  mailer: Mailer | null;
  log: { warn(o: Record<string, unknown>, m: string): void };
}

export async function requestPasswordReset(deps: ResetMailDeps, body: { email?: unknown }, ip: string): Promise<{ accepted: true }> {
  if (!deps.mailer) throw new DomainError('FORBIDDEN', 'e-mail is off on this service (no SMTP_URL): ask an organization Owner or Admin, or the operator, for a reset link');
  if (typeof body.email !== 'string' || body.email.trim() === '' || body.email.length > 254) throw new DomainError('INVALID_ARGS', 'email: is required', [{ path: '/email', message: 'is required' }]);
  const email = normalizeEmail(body.email);
  // counts like a failed sign-in (never given back): 429 with Retry-After past the sign-in limits
  await reserveAttempt(deps as LimitDeps, email, ip);
  let link: CreatedLink | null = null;
  try {
    link = await createResetLink(deps.db, deps.publicUrl, email, 'self-service', deps.now());
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'NOT_FOUND')) throw err;
  }
  if (link) {
    const mailer = deps.mailer;
    const l = link;
    setImmediate(() => {
      mailer
        .send({ to: l.email, subject: 'Reset your Netloom password', text: `Someone asked to reset the password of your Netloom account.\n\nTo choose a new password, open this link within an hour:\n\n${l.url}\n\nIf it was not you, ignore this message: your password stays as it is.` })
        .catch((err: unknown) => deps.log.warn({ err: { message: (err as Error).message } }, 'password reset e-mail failed'));
    });
  }
  return { accepted: true };
}

/** E-mails an invitation link (best effort: the link is also answered to the inviter). */
export async function mailInvitation(mailer: Mailer | null, link: CreatedLink, orgName: string): Promise<boolean> {
  if (!mailer) return false;
  await mailer.send({ to: link.email, subject: `You are invited to ${orgName} on Netloom`, text: `You are invited to join ${orgName} on Netloom.\n\nTo accept, open this link within 7 days and choose your password:\n\n${link.url}\n` });
  return true;
}
