/**
 * The web application (packages/web, built by `npm run build` into packages/web/dist):
 *
 * - `/assets/*`: content-hashed scripts, styles and source maps through @fastify/static, cached for a
 *   year as immutable (a new build has new names).
 * - The app's page paths (packages/protocol/src/http/paths.ts, the list the browser router uses too): index.html,
 *   `Cache-Control: no-cache` (always revalidated, so a deploy is picked up at once), with a strict CSP.
 *   Only these paths fall back to the app; `/api/`, `/app/api/`, `/embed/`, `/sdk/`, `/docs/` keep their
 *   own handlers and unknown paths stay JSON 404 problems.
 *
 * docs/architecture.md describes the build; docs/web-app.md the app.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVER_APP_PATHS } from '@netloom/protocol/http';
import { HttpProblem } from '../http/error-codes.ts';

export const WEB_DIST = resolve(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/**
 * The app's pages: same-origin scripts, styles, API calls and frames (the Explore viewer is served by this
 * service); images from here or data: URLs (QR code, icon); never framed by another site.
 */
export const APP_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface WebManifest {
  js: string;
  css: string;
  preload: string[];
}

/** The built app's entry files, or null when the app has not been built (`npm run build`). */
export function webManifest(): WebManifest | null {
  try {
    return JSON.parse(readFileSync(join(WEB_DIST, 'manifest.json'), 'utf8')) as WebManifest;
  } catch {
    return null;
  }
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', APP_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
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

  const index = async (_request: unknown, reply: FastifyReply) => {
    let html: string;
    try {
      html = await readFile(join(WEB_DIST, 'index.html'), 'utf8');
    } catch {
      throw new HttpProblem('UNAVAILABLE', 'the web application is not built; run `npm run build` (npm start does it)');
    }
    return pageHeaders(reply).type('text/html; charset=utf-8').send(html);
  };
  for (const path of SERVER_APP_PATHS) app.get(path, open, index);
}
