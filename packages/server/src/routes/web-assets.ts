/**
 * The web application (packages/web, built by `npm run build` into packages/web/dist):
 *
 * - `/assets/*`: content-hashed scripts, styles and source maps through @fastify/static, cached for a
 *   year as immutable (a new build has new names).
 * - The app's page paths (packages/protocol/src/http/paths.ts, the list the browser router uses too): index.html,
 *   `Cache-Control: no-cache` (always revalidated, so a deploy is picked up at once), with a strict CSP.
 *   Only these paths fall back to the app; `/api/`, `/app/api/`, `/embed/`, `/sdk/`, `/docs/` keep their
 *   own handlers and stay JSON 404 problems; any other unknown path asked for by a browser (GET, Accept
 *   text/html) gets the app with status 404, which shows its "Page not found" page (http/problem-handler.ts).
 *
 * docs/architecture.md describes the build; docs/web-app.md the app.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_APP_PATHS } from '@netloom/protocol/http';
import { HttpProblem } from '../http/error-codes.ts';
import { APP_CSP, appPageHeaders, WEB_DIST } from '../presenters/web-manifest.ts';


export { APP_CSP };

const pageHeaders = appPageHeaders;

/** A page of the built web application (packages/web/dist); 503 UNAVAILABLE when it is not built. */
async function builtPage(name: string): Promise<string> {
  try {
    return await readFile(join(WEB_DIST, name), 'utf8');
  } catch {
    throw new HttpProblem('UNAVAILABLE', 'the web application is not built; run `npm run build` (npm start does it)');
  }
}

export async function webAssetRoutes(app: FastifyInstance): Promise<void> {
  const open = { config: { auth: { skip: true } }, schema: { hide: true } };
  // Static files need no credential and count against no rate limit (the static plugin takes no route config).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/assets/')) route.config = { ...route.config, auth: { skip: true } };
  });
  await app.register(fastifyStatic, {
    root: join(WEB_DIST, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    wildcard: true,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: true,
    immutable: true,
    maxAge: '365d',
    etag: true,
    lastModified: false,
    // @fastify/static 10 passes the Fastify reply here (its type still says ServerResponse)
    setHeaders: (res) => void (res as unknown as FastifyReply).header('x-content-type-options', 'nosniff'),
  });

  const index = async (_request: unknown, reply: FastifyReply) => pageHeaders(reply).type('text/html; charset=utf-8').send(await builtPage('index.html'));
  for (const path of SERVER_APP_PATHS) app.get(path, open, index);

  // The respondent pages (docs/spec/decisions.md §10.3): their own small bundle, never cached (the page
  // belongs to one link), never framed, no referrer (the token is in the path), nothing from other sites.
  const respondent = async (_request: unknown, reply: FastifyReply) => {
    const html = await builtPage('respondent.html');
    return pageHeaders(reply)
      .header('cache-control', 'no-store')
      .header('content-security-policy', RESPONDENT_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      .type('text/html; charset=utf-8')
      .send(html);
  };
  const token = { type: 'object', properties: { token: { type: 'string', maxLength: 128 } } } as const;
  app.get('/s/:token', { ...open, schema: { hide: true, params: token } }, respondent);
  app.get('/s/open/:token', { ...open, schema: { hide: true, params: token } }, respondent);
}

/** The respondent pages: only this service (its API and assets); photos from here or data: URLs. */
export const RESPONDENT_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
