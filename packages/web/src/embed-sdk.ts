/**
 * The embed SDK (`@netloom/embed`) exactly as host pages load it, from `/sdk/embed.js` — not bundled into
 * the app: only Explore and the organization console's preview need it, so the first load never carries
 * it. The types below are the part of the SDK the app uses (docs/embed-sdk.md).
 */

export interface EmbedHandle {
  on(event: string, fn: (payload: unknown) => void): void;
  destroy(): void;
  readonly iframe: HTMLIFrameElement;
  network: { info(): Promise<{ name: string; nodeCount: number; edgeCount: number }> };
  state: { get(): Promise<{ visibleNodeCount: number; visibleEdgeCount?: number }> };
  layers: { color(a: { attribute: string; appliedTo?: 'nodes' | 'edges' }): Promise<{ layerId: string }> };
}

export interface EmbedCreateOptions {
  sessionId: string;
  getLaunchToken: (sessionId: string) => Promise<string>;
  timeoutMs?: number;
  title?: string;
}

interface EmbedModule {
  default: { create(el: HTMLElement, opts: EmbedCreateOptions): Promise<EmbedHandle> };
}

const SDK_URL = '/sdk/embed.js';

export const loadSdk = (): Promise<EmbedModule> => import(/* @vite-ignore */ SDK_URL) as Promise<EmbedModule>;

/**
 * A launch-token source for `Embed.create`: hands out the token the session was started with once, then
 * asks `next()` (the server) for a fresh one each time the viewer needs one (launch tokens are single use).
 */
export function launchTokens(first: string, next: (sessionId: string) => Promise<string>): (sessionId: string) => Promise<string> {
  let initial: string | null = first;
  return async (sessionId) => {
    if (initial) {
      const t = initial;
      initial = null;
      return t;
    }
    return next(sessionId);
  };
}
