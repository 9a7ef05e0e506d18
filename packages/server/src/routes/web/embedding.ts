/**
 * The organization console's embedding part (docs/web-app.md "Embedding console"), session-authenticated,
 * Owners and Admins only. Every change is the same domain command as the public embedding API
 * (`/api/v2/embed/...`, organization credentials) — the same validation, seat accounting, provisioning
 * allowance and audit entry — with the signed-in admin as the audit actor:
 *   GET  /app/api/organization/embedding                               settings (readable while embedding is off) + AI chat
 *   PUT  /app/api/organization/embedding/settings                      allowed origins, all owned networks / chosen list, disclosure
 *   GET  /app/api/organization/embedding/networks                      the chooser: organization networks, embeddable or not
 *   GET  /app/api/organization/embedding/users                         managed users (status, paging)
 *   PUT  /app/api/organization/embedding/users/:externalId             create/update (reactivates)
 *   PUT|DELETE /app/api/organization/embedding/users/:externalId/networks/:networkId   grant / remove
 *   POST /app/api/organization/embedding/users/:externalId/deactivate  ends sessions, frees the seat
 *   GET  /app/api/organization/embedding/sessions                      live sessions; DELETE …/:sessionId revokes
 *   POST /app/api/organization/embedding/sessions                      "try it": a session + launch token + snippet
 *   POST /app/api/organization/embedding/sessions/:sessionId/launch-tokens   for the console's live preview
 *   GET  /app/api/organization/embedding/audit(.csv)                   the audit log, filtered and paged / as CSV
 *   PUT  /app/api/organization/embedding/chat                          the AI chat switch
 *   GET|PUT /app/api/organization/embedding/networks/:networkId/presets   preset questions
 */
import type { App } from '../../http/app-type.ts';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { requireEnabled } from '../../domain/embedding/context.ts';
import { settingsView, updateSettings } from '../../domain/embedding/settings.ts';
import { chatSettings, networkPresets, setAiChat, setNetworkPresets } from '../../domain/embedding/chat-settings.ts';
import { embeddingNetworkChoices } from '../../domain/embedding/network-choices.ts';
import { createSession, issueLaunchToken, revokeSession } from '../../domain/embedding/sessions.ts';
import { getManagedUserWithGrants, listManagedUsersPage } from '../../domain/embedding/users.ts';
import { checkProvisioning, provisionDeactivation, provisionGrant, provisionGrantRemoval, provisionManagedUser } from '../../domain/embedding/provisioning.ts';
import { liveSessionsPage } from '../../domain/embedding/live-sessions.ts';
import { auditCsv, auditPage, parseAuditFilter } from '../../domain/embedding/audit-log.ts';
import { embedSnippet } from '../../domain/embedding/snippet.ts';
import { presentManagedUser } from '../../presenters/embed.ts';
import { AuditQuery, EmbeddingConsoleSchema, ExternalIdParams, GrantParams, ConsoleLaunchTokenSchema, LiveSessionPageSchema, ConsoleManagedUserListQuery, NetworkChoicesSchema, ConsoleNetworkIdParams, PageQuery, ConsoleSessionIdParams, TrySessionBody, TrySessionSchema, AuditPageSchema, ChatSettingsBodySchema, ChatSettingsSchema, EmbedSettingsBodySchema, EmbedSettingsSchema, GrantBodySchema, ManagedUserBodySchema, ManagedUserListSchema, ManagedUserSchema, PresetQuestionsBodySchema, PresetQuestionsSchema, SessionRevokedSchema, cookieSecurity, webProblems, ref } from '@netloom/protocol/http';
import { checkedByDomain } from '../../http/route-contract.ts';
import { paging } from '../../http/paging.ts';
import { ConsoleTag } from '../../schemas/tags.ts';
import { principalOf } from '../../plugins/principal.ts';

const P = '/app/api/organization/embedding';
/** The data-disclosure acknowledgement's text (docs/embedding-api.md, "Organization settings"). */
export const DISCLOSURE_TEXT =
  'Making networks embeddable authorizes your integration (the host application holding your organization credential) to receive the full content of those networks — every node, edge and attribute — and to show it to the managed users you grant access to.';

export function embeddingConsoleRoutes(app: App, ctx: EmbedContext): void {
  const tags = [ConsoleTag];
  const config = { web: true } as const;
  const security = cookieSecurity;


  app.get(P, { config, schema: { summary: 'Embedding settings, seats and AI chat of the organization', tags, security, response: { 200: ref(EmbeddingConsoleSchema), ...webProblems(401, 403) } } }, async (request) => {
    const { orgId } = principalOf(request, 'admin');
    const [settings, chat] = await Promise.all([settingsView(ctx, orgId), chatSettings(ctx, orgId)]);
    return { settings, chat, disclosureText: DISCLOSURE_TEXT };
  });

  app.put(`${P}/settings`, { config, validatorCompiler: checkedByDomain, schema: { summary: 'Change allowed origins, all owned networks / chosen networks, the data disclosure', tags, security, body: ref(EmbedSettingsBodySchema), response: { 200: ref(EmbedSettingsSchema), ...webProblems(400, 401, 403) } } }, async (request) => {
    const { orgId, actor } = principalOf(request, 'admin');
    await requireEnabled(ctx, orgId);
    return updateSettings(ctx, orgId, actor, request.body);
  });

  app.get(`${P}/networks`, { config, schema: { summary: "The organization's networks for the embeddable chooser", tags, security, response: { 200: ref(NetworkChoicesSchema), ...webProblems(401, 403) } } }, async (request) =>
    embeddingNetworkChoices(ctx, principalOf(request, 'admin').orgId),
  );

  app.get(`${P}/users`, { config, schema: { summary: 'Managed users (status, paging; oldest first)', tags, security, querystring: ConsoleManagedUserListQuery, response: { 200: ref(ManagedUserListSchema), ...webProblems(400, 401, 403) } } }, async (request) => {
    const { orgId } = principalOf(request, 'admin');
    const q = request.query;
    const page = await listManagedUsersPage(ctx, orgId, { status: q.status, ...paging(q) });
    return { total: page.total, offset: page.offset, limit: page.limit, users: page.users.map(presentManagedUser) };
  });

  app.get(`${P}/users/:externalId`, { config, schema: { summary: 'One managed user', tags, security, params: ExternalIdParams, response: { 200: ref(ManagedUserSchema), ...webProblems(401, 403, 404) } } }, async (request) =>
    presentManagedUser(await getManagedUserWithGrants(ctx, principalOf(request, 'admin').orgId, request.params.externalId)),
  );

  app.put(
    `${P}/users/:externalId`,
    { config, validatorCompiler: checkedByDomain, schema: { summary: 'Create (201) or update (200) a managed user; reactivates a deactivated one', tags, security, params: ExternalIdParams, body: ref(ManagedUserBodySchema), response: { 200: ref(ManagedUserSchema), 201: ref(ManagedUserSchema), ...webProblems(400, 401, 402, 403, 409, 429) } } },
    async (request, reply) => {
      const { orgId, actor } = principalOf(request, 'admin');
      const { created, result } = await provisionManagedUser(ctx, orgId, actor, request.params.externalId, request.body ?? {});
      return reply.code(created ? 201 : 200).send(presentManagedUser(result));
    },
  );

  app.put(
    `${P}/users/:externalId/networks/:networkId`,
    { config, validatorCompiler: checkedByDomain, schema: { summary: 'Grant View or Edit on an embeddable network', tags, security, params: GrantParams, body: ref(GrantBodySchema), response: { 200: ref(ManagedUserSchema), ...webProblems(400, 401, 403, 404, 429) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      const { externalId, networkId } = request.params;
      return presentManagedUser(await provisionGrant(ctx, orgId, actor, externalId, networkId, request.body ?? {}));
    },
  );

  app.delete(
    `${P}/users/:externalId/networks/:networkId`,
    { config, schema: { summary: 'Remove a grant', tags, security, params: GrantParams, response: { 200: ref(ManagedUserSchema), ...webProblems(401, 403, 404, 429) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      const { externalId, networkId } = request.params;
      return presentManagedUser(await provisionGrantRemoval(ctx, orgId, actor, externalId, networkId));
    },
  );

  app.post(
    `${P}/users/:externalId/deactivate`,
    { config, schema: { summary: 'Deactivate: ends sessions, removes access, frees the seat (idempotent)', tags, security, params: ExternalIdParams, response: { 200: ref(ManagedUserSchema), ...webProblems(401, 403, 404, 429) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return presentManagedUser(await provisionDeactivation(ctx, orgId, actor, request.params.externalId));
    },
  );

  app.get(`${P}/sessions`, { config, schema: { summary: 'Live embed sessions (newest first)', tags, security, querystring: PageQuery, response: { 200: ref(LiveSessionPageSchema), ...webProblems(400, 401, 403) } } }, async (request) => {
    const { orgId } = principalOf(request, 'admin');
    return liveSessionsPage(ctx, orgId, paging(request.query));
  });

  app.post(
    `${P}/sessions`,
    { config, schema: { summary: 'Try it: a session for a managed user on one network, with its launch token and the embed snippet', tags, security, body: ref(TrySessionBody), response: { 201: ref(TrySessionSchema), ...webProblems(400, 401, 403, 404, 410, 429) } } },
    async (request, reply) => {
      const { orgId, actor } = principalOf(request, 'admin');
      await checkProvisioning(ctx, orgId);
      const b = request.body;
      const maxMinutes = b.maxMinutes ?? 60;
      const s = await createSession(ctx, orgId, actor, { externalId: b.externalId, networkIds: [b.networkId], origin: b.origin, maxMinutes });
      const user = await getManagedUserWithGrants(ctx, orgId, b.externalId);
      const permission = user.grants.find((g) => g.network_id === b.networkId)?.permission ?? 'View';
      const publicUrl = app.config.publicUrl;
      return reply.code(201).send({
        sessionId: s.sessionId,
        embedUrl: `${publicUrl.replace(/\/+$/, '')}/embed/${s.sessionId}`,
        expiresAt: s.expiresAt,
        launchToken: s.launchToken,
        origin: b.origin,
        previewAvailable: new URL(publicUrl).origin === b.origin,
        snippet: embedSnippet({ publicUrl, sessionId: s.sessionId, externalId: b.externalId, displayName: user.user.display_name, networkId: b.networkId, permission, origin: b.origin, maxMinutes }),
      });
    },
  );

  app.post(
    `${P}/sessions/:sessionId/launch-tokens`,
    { config, schema: { summary: "A new launch token for the console's live preview", tags, security, params: ConsoleSessionIdParams, response: { 200: ref(ConsoleLaunchTokenSchema), ...webProblems(401, 403, 404, 410) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      const { launchToken } = await issueLaunchToken(ctx, orgId, actor, request.params.sessionId);
      return { launchToken };
    },
  );

  app.delete(
    `${P}/sessions/:sessionId`,
    { config, schema: { summary: 'Revoke a session (idempotent)', tags, security, params: ConsoleSessionIdParams, response: { 200: ref(SessionRevokedSchema), ...webProblems(401, 403, 404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return revokeSession(ctx, orgId, actor, request.params.sessionId);
    },
  );

  app.get(`${P}/audit`, { config, schema: { summary: 'The audit log, filtered by action, actor, target and dates; newest first', tags, security, querystring: AuditQuery, response: { 200: ref(AuditPageSchema), ...webProblems(400, 401, 403) } } }, async (request) => {
    const { orgId } = principalOf(request, 'admin');
    const q = request.query;
    return auditPage(ctx, orgId, parseAuditFilter(q), paging(q));
  });

  app.get(
    `${P}/audit.csv`,
    { config, schema: { summary: 'The filtered audit log as CSV (at most 50,000 rows, newest first)', tags, security, querystring: AuditQuery, response: { 200: { description: 'The audit log as CSV (Content-Disposition: attachment; X-Netloom-Truncated: true when cut at 50,000 rows)', content: { 'text/csv': { schema: Type.String() } } }, ...webProblems(400, 401, 403) } } },
    async (request, reply) => {
      const { orgId } = principalOf(request, 'admin');
      const { csv, truncated } = await auditCsv(ctx, orgId, parseAuditFilter(request.query));
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="netloom-audit-${day}.csv"`)
        .header('x-netloom-truncated', truncated ? 'true' : 'false')
        .send(csv);
    },
  );

  app.put(`${P}/chat`, { config, schema: { summary: "Switch the organization's AI chat on or off", tags, security, body: ref(ChatSettingsBodySchema), response: { 200: ref(ChatSettingsSchema), ...webProblems(400, 401, 403) } } }, async (request) => {
    const { orgId, actor } = principalOf(request, 'admin');
    return setAiChat(ctx, orgId, actor, request.body.aiChat);
  });

  app.get(`${P}/networks/:networkId/presets`, { config, schema: { summary: "A network's preset chat questions", tags, security, params: ConsoleNetworkIdParams, response: { 200: ref(PresetQuestionsSchema), ...webProblems(401, 403, 404) } } }, async (request) =>
    networkPresets(ctx, principalOf(request, 'admin').orgId, request.params.networkId),
  );

  app.put(
    `${P}/networks/:networkId/presets`,
    { config, validatorCompiler: checkedByDomain, schema: { summary: "Set a network's preset questions ({ presetQuestions: [String] | null })", tags, security, params: ConsoleNetworkIdParams, body: ref(PresetQuestionsBodySchema), response: { 200: ref(PresetQuestionsSchema), ...webProblems(400, 401, 403, 404) } } },
    async (request) => {
      const { orgId, actor } = principalOf(request, 'admin');
      return setNetworkPresets(ctx, orgId, actor, request.params.networkId, request.body);
    },
  );
}
