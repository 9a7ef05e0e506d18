/** The built web app (packages/web/dist, `npm run build`): its folder and the entry files of its manifest. */
import { readFileSync } from 'node:fs';
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
