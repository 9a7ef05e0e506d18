/**
 * The web application's own JSON endpoints under `/app/api` (docs/web-app.md), authenticated by the
 * session cookie (http/web-session.ts) — never by API credentials.
 */
import type { App } from '../../http/app-type.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import type { SignInDeps } from '../../domain/identity/sign-in.ts';
import { passwordQueue } from '../../domain/identity/password-queue.ts';
import { webSessionRoutes } from './session.ts';
import { webAccountRoutes } from './account.ts';
import { webOrganizationRoutes } from './organization.ts';
import { webLinkRoutes } from './links.ts';
import { webPasswordResetRoutes } from './password-reset.ts';
import { webCredentialRoutes } from './credentials.ts';
import { webExploreRoutes } from './explore.ts';
import { organizationMemberRoutes } from './organization-members.ts';
import { embeddingConsoleRoutes } from './embedding.ts';
import { webNetworkRoutes } from './networks.ts';
import { webJobRoutes } from './jobs.ts';

export async function webRoutes(app: App, opts: { ctx: EmbedContext }): Promise<void> {
  const web = app.config.web;
  const deps: SignInDeps = { db: app.database.db, config: web, state: opts.ctx.state, now: () => app.now(), passwords: passwordQueue(web.passwordHashConcurrency, web.passwordHashQueue) };
  webSessionRoutes(app, deps);
  webAccountRoutes(app, deps);
  webOrganizationRoutes(app);
  webLinkRoutes(app, deps);
  webPasswordResetRoutes(app, deps);
  webCredentialRoutes(app, deps);
  webExploreRoutes(app, opts.ctx);
  organizationMemberRoutes(app, opts.ctx);
  embeddingConsoleRoutes(app, opts.ctx);
  webJobRoutes(app);
  await app.register(webNetworkRoutes);
}
