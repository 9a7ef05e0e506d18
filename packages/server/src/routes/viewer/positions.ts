/**
 * PUT /api/v2/embed/viewer/network/positions — "Keep these positions" of the embedded viewer's Layout
 * panel (Edit only; docs/embedding.md, Layouts). Thin: schema → domain/network-positions.ts.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { EmbedContext } from '../../domain/embed-context.ts';
import { authenticateViewer } from '../../domain/embed-sessions.ts';
import { keepPositions, type PositionsInput } from '../../domain/network-positions.ts';
import { ProblemSchema } from '../../schemas/network.ts';

const MAX = 1_000_000;
const PositionsBody = Type.Object({
  networkUUID: Type.String({ minLength: 1, maxLength: 100, description: 'The networkUUID the viewer loaded (the change applies only to that version).' }),
  nodeIds: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: MAX, uniqueItems: false }),
  x: Type.Array(Type.Number(), { maxItems: MAX }),
  y: Type.Array(Type.Number(), { maxItems: MAX }),
}, { additionalProperties: false });
const PositionsResult = Type.Object({
  networkUUID: Type.String(),
  modified: Type.String(),
  updatedNodes: Type.Integer(),
});

export function viewerPositionRoutes(app: FastifyInstance, ctx: EmbedContext): void {
  app.put('/api/v2/embed/viewer/network/positions', {
    config: { auth: { skip: true } },
    schema: {
      summary: "Keep node positions in the session's network (Edit; new networkUUID)",
      tags: ['embedded viewer'],
      body: PositionsBody,
      response: { 200: PositionsResult, 400: ProblemSchema, 401: ProblemSchema, 403: ProblemSchema, 404: ProblemSchema, 409: ProblemSchema, 410: ProblemSchema, 413: ProblemSchema, 429: ProblemSchema },
    },
  }, async (request) => {
    const live = await authenticateViewer(ctx, request.headers.authorization);
    return keepPositions(ctx, live, request.body as PositionsInput);
  });
}
