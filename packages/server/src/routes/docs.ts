/**
 * Serves the project's Markdown documentation at `/docs/<page>` (e.g. `/docs/api/credentials`, the page
 * the `Deprecation` link of Basic-authenticated answers points to, `/docs/errors`, `/docs/metrics`).
 * Only files under docs/ ending in .md are reachable; paths are normalised and checked.
 */
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import { HttpProblem } from '../http/error-codes.ts';

const DOCS = resolve(import.meta.dirname, '..', '..', '..', '..', 'docs');

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  app.get('/docs/*', { config: { auth: { skip: true } }, schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'].replace(/\.md$/, '');
    const file = normalize(join(DOCS, `${rest}.md`));
    if (!file.startsWith(DOCS + sep) || !/^[\w\-/]+$/.test(rest)) throw new HttpProblem('NOT_FOUND', 'no such page');
    try {
      const text = await readFile(file, 'utf8');
      return reply.type('text/markdown; charset=utf-8').send(text);
    } catch {
      throw new HttpProblem('NOT_FOUND', 'no such page');
    }
  });
}
