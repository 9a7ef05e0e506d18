/** The built web app (packages/web/dist, `npm run build`): its folder and the entry files of its manifest. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { join, resolve } from 'node:path';

export const WEB_DIST = resolve(import.meta.dirname, '..', '..', '..', 'web', 'dist');

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

/**
 * The app's pages: same-origin scripts, styles, API calls and frames (the Explore viewer is served by this
 * service); images from here or data: URLs (QR code, icon); never framed by another site.
 */
export const APP_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The headers of every page of the app (index.html and its 404). */
export function appPageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', APP_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .header('x-frame-options', 'DENY');
}

/** The app's index.html (null when the web app is not built). */
export async function appIndexHtml(): Promise<string | null> {
  try {
    return await readFile(join(WEB_DIST, 'index.html'), 'utf8');
  } catch {
    return null;
  }
}
