/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers) for load
 * balancers and orchestrators (docs/operations.md). Not in the API's OpenAPI document: they are the
 * platform's, not an integration's (docs/spec/contract.md); their schemas still shape the answers.
 */
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { App } from '../http/app-type.ts';
import { HttpProblem } from '../http/error-codes.ts';
import { problemResponses } from '../schemas/problem.ts';

const Live = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
const Ready = Type.Object(
  { status: Type.Literal('ready'), database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]) },
  { additionalProperties: true, description: 'Every dependency the instance needs answered.' },
);

export async function healthRoutes(app: App): Promise<void> {
  const open = { auth: { skip: true } };
  app.get('/healthz', { config: open, schema: { hide: true, summary: 'Liveness: the process answers', response: { 200: Live } } }, async () => ({ status: 'ok' as const }));
  app.get('/readyz', { config: open, schema: { hide: true, summary: 'Readiness: the database answers (503 otherwise)', response: { 200: Ready, ...problemResponses(503) } } }, async () => {
    try {
      await sql`select 1`.execute(app.database.db);
    } catch {
      throw new HttpProblem('UNAVAILABLE', 'database unreachable');
    }
    return { status: 'ready' as const, database: app.database.dialect };
  });
}
