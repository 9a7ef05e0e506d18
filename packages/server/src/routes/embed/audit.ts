/** GET /api/v2/embed/audit — the organization's embedding audit log, newest first, paged. */
import type { App } from '../../http/app-type.ts';
import { AuditPageSchema, problemResponses, ref } from '@netloom/protocol/http';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { auditPage, parseAuditFilter } from '../../domain/embedding/audit-log.ts';
import { orgCredential, paging } from './context.ts';

const Query = Type.Object(
  {
    limit: Type.Optional(Type.String({ description: '1 to 500, default 50' })),
    offset: Type.Optional(Type.String({ description: 'default 0' })),
    action: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

export function auditRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/embed/audit',
    { config: { auth: { resource: 'embed', action: 'manage' } }, schema: { summary: 'Embedding audit log (newest first)', tags: ['embedding'], querystring: Query, response: { 200: ref(AuditPageSchema), ...problemResponses(403) } } },
    async (request) => {
      const { orgId } = orgCredential(request);
      const q = request.query;
      return auditPage(ctx, orgId, parseAuditFilter({ action: q.action }), paging(q));
    },
  );
}
