/**
 * Every route module, registered once from app.ts (docs/architecture.md "Composition"). Route files
 * declare routes and call the domain through the app's decorators (plugins/services.ts); they never import
 * one another (eslint.config.js). Each `app.register` is a Fastify encapsulation context: the content-type
 * parsers, upload handling and hooks a group sets apply to that group only. The order here is the order
 * of the OpenAPI documents' paths.
 */
import type { App } from '../http/app-type.ts';
import { healthRoutes } from '../routes/health.ts';
import { docsRoutes } from '../routes/docs.ts';
import { embedAssetRoutes } from '../routes/embed-assets.ts';
import { webAssetRoutes } from '../routes/web-assets.ts';
import { networkRoutes } from '../routes/networks/index.ts';
import { networkFileRoutes } from '../routes/networks/files.ts';
import { networkCompareRoutes } from '../routes/networks/compare.ts';
import { metricRoutes } from '../routes/metrics/index.ts';
import { jobRoutes } from '../routes/jobs.ts';
import { peopleRoutes } from '../routes/people.ts';
import { surveyRoutes } from '../routes/surveys.ts';
import { respondentRoutes } from '../routes/respondent.ts';
import { settingsRoutes } from '../routes/embed/settings.ts';
import { managedUserRoutes } from '../routes/embed/users.ts';
import { sessionRoutes } from '../routes/embed/sessions.ts';
import { auditRoutes } from '../routes/embed/audit.ts';
import { operatorRoutes } from '../routes/embed/operator.ts';
import { orgMemberRoutes, networkViewRoutes } from '../routes/embed/org.ts';
import { chatSettingsRoutes } from '../routes/embed/chat.ts';
import { viewerRoutes } from '../routes/viewer/index.ts';
import { embedPageRoutes } from '../routes/viewer/page.ts';
import { viewerChatRoutes } from '../routes/viewer/chat.ts';
import { viewerPositionRoutes } from '../routes/viewer/positions.ts';
import { viewerJobRoutes } from '../routes/viewer/jobs.ts';
import { webSessionRoutes } from '../routes/web/session.ts';
import { webAccountRoutes } from '../routes/web/account.ts';
import { webOrganizationRoutes } from '../routes/web/organization.ts';
import { webLinkRoutes } from '../routes/web/links.ts';
import { webPasswordResetRoutes } from '../routes/web/password-reset.ts';
import { webCredentialRoutes } from '../routes/web/credentials.ts';
import { webExploreRoutes } from '../routes/web/explore.ts';
import { organizationMemberRoutes } from '../routes/web/organization-members.ts';
import { embeddingConsoleRoutes } from '../routes/web/embedding.ts';
import { webNetworkRoutes } from '../routes/web/networks.ts';
import { webJobRoutes } from '../routes/web/jobs.ts';
import { registerViewerAuth } from './viewer-auth.ts';

export async function registerRoutes(app: App): Promise<void> {
  await app.register(healthRoutes);
  await app.register(docsRoutes);
  await app.register(embedAssetRoutes);
  await app.register(webAssetRoutes);
  await app.register(networkRoutes, { prefix: '/api/v2' });
  await app.register(networkFileRoutes, { prefix: '/api/v2' });
  await app.register(networkCompareRoutes, { prefix: '/api/v2' });
  await app.register(metricRoutes, { prefix: '/api/v2' });
  await app.register(jobRoutes, { prefix: '/api/v2' });
  await app.register(peopleRoutes, { prefix: '/api/v2' });
  await app.register(surveyRoutes, { prefix: '/api/v2' });
  await app.register(respondentRoutes);

  // Embedding (issue 4): the organization's API (organization credential with embed:manage), the
  // embedded viewer (its access token, checked by plugins/viewer-auth.ts) and the embed page.
  await app.register(async (embed: App) => {
    const ctx = embed.embedContext;
    settingsRoutes(embed, ctx);
    managedUserRoutes(embed, ctx);
    sessionRoutes(embed, ctx);
    auditRoutes(embed, ctx);
    operatorRoutes(embed, ctx);
    orgMemberRoutes(embed, ctx);
    networkViewRoutes(embed, ctx);
    registerViewerAuth(embed, ctx);
    viewerRoutes(embed, ctx);
    viewerChatRoutes(embed, ctx);
    viewerPositionRoutes(embed, ctx);
    viewerJobRoutes(embed, ctx, () => embed.jobDeps);
    chatSettingsRoutes(embed, ctx);
    embedPageRoutes(embed, ctx);
  });

  // The web application's own endpoints under /app/api (docs/web-app.md), authenticated by the session
  // cookie (http/web-session.ts) — never by API credentials.
  await app.register(async (web: App) => {
    const ctx = web.embedContext;
    const deps = web.signInDeps;
    webSessionRoutes(web, deps);
    webAccountRoutes(web, deps);
    webOrganizationRoutes(web);
    webLinkRoutes(web, deps, ctx);
    webPasswordResetRoutes(web, deps);
    webCredentialRoutes(web, deps);
    webExploreRoutes(web, ctx);
    organizationMemberRoutes(web, ctx);
    embeddingConsoleRoutes(web, ctx);
    webJobRoutes(web);
    await web.register(webNetworkRoutes);
    // people and surveys: the /api/v2 route plugins on the web surface (http/route-surface.ts)
    await web.register(peopleRoutes, { prefix: '/app/api', surface: 'web' });
    await web.register(surveyRoutes, { prefix: '/app/api', surface: 'web' });
    // the compare view of the web app (features/analysis)
    await web.register(networkCompareRoutes, { prefix: '/app/api', surface: 'web' });
  });
}
