/**
 * PUT /api/v2/embed/viewer/network/positions — "Keep these positions" of the embedded viewer's Layout
 * panel (Edit only; docs/embedding.md, Layouts). Thin: schema → domain/networks/positions.ts.
 */
import type { App } from '../../http/app-type.ts';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { viewerOf } from './auth.ts';
import { keepPositions } from '../../domain/networks/positions.ts';
import { PositionsBodySchema, PositionsResultSchema, problemResponses, ref } from '@netloom/protocol/http';

export function viewerPositionRoutes(app: App, ctx: EmbedContext): void {
  app.put('/api/v2/embed/viewer/network/positions', {
    config: { auth: { skip: true } },
    schema: {
      summary: "Keep node positions in the session's network (Edit; new networkUUID)",
      tags: ['embedded viewer'],
      security: [{ viewerToken: [] }],
      body: ref(PositionsBodySchema),
      response: { 200: ref(PositionsResultSchema), ...problemResponses(401, 403, 404, 409, 410) },
    },
  }, async (request) => {
    const live = viewerOf(request);
    return keepPositions(ctx, live, request.body);
  });
}
