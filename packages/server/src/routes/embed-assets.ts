/**
 * Static browser code: the SDK at `/sdk/embed.js` (ES module, CORS-open so any host page can import it)
 * and the viewer's bundle at `/embed/assets/*`, both built by `npm run build` (esbuild) into
 * packages/embed/dist and packages/viewer/public/assets. Also `renderViewerPage()`, the HTML of the embed
 * page `/embed/:sessionId` (the route itself, with its CSP and checks, lives in routes/embed).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join, normalize, resolve, sep } from 'node:path';
import { HttpProblem } from '../http/error-codes.ts';

const PACKAGES = resolve(import.meta.dirname, '..', '..', '..');
export const SDK_DIST = join(PACKAGES, 'embed', 'dist');
export const VIEWER_ASSETS = join(PACKAGES, 'viewer', 'public', 'assets');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  // The viewer's download page (exports leave the sandboxed iframe through it; docs/embedding.md, Exports).
  '.html': 'text/html; charset=utf-8',
};

/** Headers of the viewer's static HTML (the download page): its own scripts only, never framed. */
const HTML_HEADERS = { 'content-security-policy': "default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'", 'referrer-policy': 'no-referrer' };

async function sendFile(reply: FastifyReply, dir: string, name: string, extraHeaders: Record<string, string> = {}): Promise<FastifyReply> {
  const file = normalize(join(dir, name));
  const ext = /\.[a-z]+$/.exec(name)?.[0] ?? '';
  if (!file.startsWith(dir + sep) || !/^[\w.-]+$/.test(name) || !TYPES[ext]) throw new HttpProblem('NOT_FOUND', 'no such file');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    throw new HttpProblem('NOT_FOUND', `no such file (has \`npm run build\` been run?)`);
  }
  reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
  for (const [k, v] of Object.entries({ ...(ext === '.html' ? HTML_HEADERS : {}), ...extraHeaders })) reply.header(k, v);
  return reply.type(TYPES[ext]).send(body);
}

export async function embedAssetRoutes(app: FastifyInstance): Promise<void> {
  const open = { config: { auth: { skip: true } }, schema: { hide: true } };
  const cors = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
  app.get('/sdk/embed.js', open, (_request, reply) => sendFile(reply, SDK_DIST, 'embed.js', cors));
  app.get('/sdk/:file', open, (request, reply) => sendFile(reply, SDK_DIST, (request.params as { file: string }).file, cors));
  app.get('/embed/assets/:file', open, (request, reply) => sendFile(reply, VIEWER_ASSETS, (request.params as { file: string }).file));
}
