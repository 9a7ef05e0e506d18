/**
 * Self-service password reset (docs/web-app.md "Invitations and password resets"), signed out:
 *   GET  /app/api/password-reset   { enabled } — whether the sign-in page offers "Forgot password?" (SMTP_URL set)
 *   POST /app/api/password-reset   { email } → 202 { accepted: true }, the same whether or not the address
 *                                  has an account; throttled like sign-in; 403 when e-mail is off
 */
import type { App } from '../../http/app-type.ts';
import { requestPasswordReset } from '../../domain/identity/reset-mail.ts';
import type { SignInDeps } from '../../domain/identity/sign-in.ts';
import { PasswordResetAcceptedSchema, PasswordResetBody, PasswordResetStatusSchema, ref, WebTag, webProblems } from '@netloom/protocol/http';

export function webPasswordResetRoutes(app: App, deps: SignInDeps): void {
  const base = { tags: [WebTag], security: [] };
  const none = { web: { session: 'none' as const } };

  app.get(
    '/app/api/password-reset',
    { config: none, schema: { ...base, summary: 'Whether self-service password reset is on (e-mail configured)', response: { 200: ref(PasswordResetStatusSchema), ...webProblems(429) } } },
    async () => ({ enabled: app.mail !== null }),
  );

  app.post(
    '/app/api/password-reset',
    {
      config: none,
      schema: {
        ...base,
        summary: 'Forgot password: e-mail a reset link (the same answer whether or not the address has an account)',
        body: ref(PasswordResetBody),
        response: { 202: ref(PasswordResetAcceptedSchema), ...webProblems(400, 403, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestPasswordReset({ ...deps, publicUrl: app.config.publicUrl, mailer: app.mail, log: request.log }, request.body, request.ip)),
  );
}
