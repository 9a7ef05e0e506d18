/**
 * Everything of embedding over HTTP (issue 4): one plugin registered by app.ts.
 * - /api/v2/embed/settings, /embed/users…, /embed/sessions…, /embed/audit — organization credential with
 *   `embed:manage` (this file's siblings);
 * - /api/v2/embed/sessions/:id/access-tokens, /api/v2/embed/viewer/…, /api/v2/embed/data/… — the viewer
 *   (routes/viewer);
 * - /embed/:sessionId — the embed page (routes/viewer/page.ts);
 * - /api/v2/networks/:id/views and /api/v2/organization/members — ordinary credentials;
 * - /api/v2/operator/… — the service operator (NETLOOM_OPERATOR_TOKEN).
 */
import type { App } from '../../http/app-type.ts';
import { embedContextOf } from './context.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { settingsRoutes } from './settings.ts';
import { managedUserRoutes } from './users.ts';
import { sessionRoutes } from './sessions.ts';
import { auditRoutes } from './audit.ts';
import { operatorRoutes } from './operator.ts';
import { orgMemberRoutes, networkViewRoutes } from './org.ts';
import { viewerRoutes } from '../viewer/index.ts';
import { registerViewerAuth } from '../viewer/auth.ts';
import { embedPageRoutes } from '../viewer/page.ts';
import { viewerChatRoutes } from '../viewer/chat.ts';
import { viewerPositionRoutes } from '../viewer/positions.ts';
import { viewerJobRoutes } from '../viewer/jobs.ts';
import { jobDeps } from '../jobs.ts';
import { chatSettingsRoutes } from './chat.ts';

/** `opts.ctx`: the app's shared embedding context (app.ts makes one for embedding and the web app). */
export async function embedRoutes(app: App, opts: { ctx?: EmbedContext } = {}): Promise<void> {
  const ctx = opts.ctx ?? embedContextOf(app);
  settingsRoutes(app, ctx);
  managedUserRoutes(app, ctx);
  sessionRoutes(app, ctx);
  auditRoutes(app, ctx);
  operatorRoutes(app, ctx);
  orgMemberRoutes(app, ctx);
  networkViewRoutes(app, ctx);
  registerViewerAuth(app, ctx);
  viewerRoutes(app, ctx);
  viewerChatRoutes(app, ctx);
  viewerPositionRoutes(app, ctx);
  viewerJobRoutes(app, ctx, () => jobDeps(app));
  chatSettingsRoutes(app, ctx);
  embedPageRoutes(app, ctx);
}
