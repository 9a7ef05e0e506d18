/**
 * Access-token lifecycle (docs/spec/api.md Authentication 8). The viewer holds its access token in memory only.
 * It asks the SDK for a launch token (→ host backend) on load, and again before the 15-minute token
 * expires, but only if the viewer or host code has been active since the last token; otherwise the
 * token lapses and the next activity fetches a new one on demand. No DOM.
 */
import { LIMITS } from '@netloom/protocol';
import { CommandError } from './errors.ts';

export interface TokenDeps {
  /** Asks the host (through the SDK) for a launch token. */
  requestLaunchToken(reason: 'initial' | 'refresh'): Promise<string>;
  /** Exchanges a launch token at the service. */
  exchange(launchToken: string): Promise<{ accessToken: string; expiresAt: string }>;
  now?(): number;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(t: unknown): void;
}

export class TokenManager {
  #deps: TokenDeps;
  #token: string | null = null;
  #expiresAt = 0;
  #obtainedAt = 0;
  #lastActivity = 0;
  #inflight: Promise<string> | null = null;
  #timer: unknown = null;
  #stopped = false;
  refreshes = 0;

  constructor(deps: TokenDeps) {
    this.#deps = deps;
  }

  #now(): number {
    return this.#deps.now ? this.#deps.now() : Date.now();
  }

  /** The viewer clicked/panned, or host code sent a command. */
  activity(): void {
    this.#lastActivity = this.#now();
  }

  get expiresAt(): number {
    return this.#expiresAt;
  }

  /** A valid access token, fetching a new one when there is none or it (nearly) expired. */
  get(): Promise<string> {
    if (this.#stopped) return Promise.reject(new CommandError('SESSION_EXPIRED', 'the session has ended'));
    if (this.#token && this.#now() < this.#expiresAt - 5_000) return Promise.resolve(this.#token);
    return this.#fetch(this.#token === null && this.refreshes === 0 ? 'initial' : 'refresh');
  }

  /** Forget the token (the service refused it); the next get() fetches a new one. */
  invalidate(): void {
    this.#token = null;
  }

  stop(): void {
    this.#stopped = true;
    this.#token = null;
    if (this.#timer !== null) (this.#deps.clearTimer ?? clearTimeout)(this.#timer as ReturnType<typeof setTimeout>);
  }

  #fetch(reason: 'initial' | 'refresh'): Promise<string> {
    this.#inflight ??= (async () => {
      try {
        const launchToken = await this.#deps.requestLaunchToken(reason);
        const { accessToken, expiresAt } = await this.#deps.exchange(launchToken);
        this.#token = accessToken;
        this.#obtainedAt = this.#now();
        this.#expiresAt = Date.parse(expiresAt);
        if (!Number.isFinite(this.#expiresAt)) this.#expiresAt = this.#obtainedAt + 15 * 60_000;
        if (reason === 'refresh') this.refreshes++;
        else this.refreshes = Math.max(this.refreshes, 0);
        this.#schedule();
        return accessToken;
      } finally {
        this.#inflight = null;
      }
    })();
    return this.#inflight;
  }

  #schedule(): void {
    const set = this.#deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    if (this.#timer !== null) (this.#deps.clearTimer ?? clearTimeout)(this.#timer as ReturnType<typeof setTimeout>);
    const ms = Math.max(0, this.#expiresAt - LIMITS.accessTokenRefreshMarginMs - this.#now());
    this.#timer = set(() => {
      this.#timer = null;
      if (this.#stopped) return;
      // Refresh ahead of expiry only when someone was active since the token was obtained.
      if (this.#lastActivity > this.#obtainedAt) this.#fetch('refresh').catch(() => undefined);
    }, ms);
  }
}
