/**
 * The documentation site at `/docs/`: the repository's Markdown (docs/) rendered to HTML pages with an
 * overview and navigation (presenters/docs-site.ts), e.g. `/docs/api/credentials` (the page the
 * `Deprecation` link of Basic-authenticated answers points to), `/docs/errors`, `/docs/metrics`.
 * `/docs/<page>.md` answers the raw Markdown. Only files under docs/ ending in .md are reachable; paths
 * are normalised and checked. `/api/v2` points to the API reference.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { readFile } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import { HttpProblem } from '../http/error-codes.ts';
import { DocsSite } from '../presenters/docs-site.ts';
import { webManifest } from '../presenters/web-manifest.ts';

const DOCS = resolve(import.meta.dirname, '..', '..', '..', '..', 'docs');
/** Pages carry no script; styles and images from this service only. */
const DOCS_CSP = "default-src 'none'; style-src 'self'; img-src 'self' data: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function send(reply: FastifyReply, html: string): FastifyReply {
  return reply.header('content-security-policy', DOCS_CSP).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').type('text/html; charset=utf-8').send(html);
}

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const site = new DocsSite(DOCS);
  const open = { config: { auth: { skip: true } }, schema: { hide: true } };
  const css = () => webManifest()?.css ?? null;

  app.get('/docs', open, (_request, reply) => send(reply, site.page({ title: 'Overview', current: null, article: site.indexArticle(), css: css() })));

  app.get('/docs/*', open, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const raw = path.endsWith('.md');
    const rest = path.replace(/\.md$/, '').replace(/\/+$/, '');
    if (rest === '' && !raw) return send(reply, site.page({ title: 'Overview', current: null, article: site.indexArticle(), css: css() }));
    const file = normalize(join(DOCS, `${rest}.md`));
    if (!file.startsWith(DOCS + sep) || !/^[\w\-/]+$/.test(rest)) throw new HttpProblem('NOT_FOUND', 'no such page');
    if (raw) {
      try {
        return reply.type('text/markdown; charset=utf-8').header('x-content-type-options', 'nosniff').send(await readFile(file, 'utf8'));
      } catch {
        throw new HttpProblem('NOT_FOUND', 'no such page');
      }
    }
    const body = site.body(file, rest);
    if (!body) throw new HttpProblem('NOT_FOUND', 'no such page');
    return send(reply, site.page({ title: body.title, current: rest, article: body.html, css: css() }));
  });

  // The API's root: where its reference and documentation are. Browsers go straight to the reference.
  const ApiIndex = Type.Object({
    name: Type.String(),
    version: Type.String(),
    reference: Type.String({ description: 'Interactive API reference (Swagger UI).' }),
    openapi: Type.String({ description: 'OpenAPI 3.1 description.' }),
    documentation: Type.String({ description: 'Guides and reference pages.' }),
  }, { additionalProperties: false });
  app.get(
    '/api/v2',
    {
      config: { auth: { skip: true } },
      schema: {
        hide: true,
        summary: 'Where the API reference is',
        response: { 200: ApiIndex, 302: { description: 'Browsers (Accept: text/html) are sent to the API reference (`Location: /api/v2/docs`).', type: 'null' } },
      },
    },
    async (request, reply) => {
      const accept = String(request.headers.accept ?? '');
      reply.header('link', '</api/v2/docs>; rel="service-doc", </api/v2/openapi.json>; rel="service-desc"');
      if (/text\/html/.test(accept) && !/application\/json/.test(accept)) return reply.redirect('/api/v2/docs', 302);
      return { name: 'Netloom API', version: '2', reference: '/api/v2/docs', openapi: '/api/v2/openapi.json', documentation: '/docs/' };
    },
  );
}
