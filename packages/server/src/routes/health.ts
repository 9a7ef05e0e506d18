/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpProblem } from '../http/error-codes.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { config: { auth: { skip: true } }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { auth: { skip: true } }, schema: { hide: true } }, async () => {
    try {
      await sql`select 1`.execute(app.database.db);
    } catch {
      throw new HttpProblem('UNAVAILABLE', 'database unreachable');
    }
    return { status: 'ready', database: app.database.dialect };
  });
}
