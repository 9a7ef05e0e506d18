/**
 * The service's viewer API (docs/embedding-api.md), called with the in-memory access token. All paths in
 * one table. 410 means the session ended (→ SESSION_EXPIRED); 401 means the access token is no longer
 * accepted: it is dropped and the call retried once with a fresh one.
 */
import type { EmbedView, SessionInfo, ViewerJob, ViewSummary } from '@netloom/protocol';
import type { OfferedMetric, OfferedMetricList } from '@netloom/protocol/http';
import { CommandError } from './errors.ts';
import type { NetworkJson } from './model.ts';
import type { TokenManager } from './tokens.ts';
import type { BackendPort } from './engine.ts';

export const PATHS = {
  accessTokens: (sessionId: string) => `/api/v2/embed/sessions/${encodeURIComponent(sessionId)}/access-tokens`,
  session: '/api/v2/embed/viewer/session',
  network: '/api/v2/embed/viewer/network',
  views: '/api/v2/embed/viewer/views',
  view: (id: string) => `/api/v2/embed/viewer/views/${encodeURIComponent(id)}`,
  heartbeat: '/api/v2/embed/viewer/heartbeat',
  positions: '/api/v2/embed/viewer/network/positions',
  status: (sessionId: string) => `/api/v2/embed/sessions/${encodeURIComponent(sessionId)}/status`,
  metric: (kind: 'network' | 'nodes', metricId: string) => `/api/v2/embed/viewer/metrics/${kind}/${encodeURIComponent(metricId)}`,
  metrics: '/api/v2/embed/viewer/metrics',
  job: (jobId: string) => `/api/v2/embed/viewer/jobs/${encodeURIComponent(jobId)}`,
};

export interface LoadedNetwork {
  networkId: string;
  name: string;
  isDirected: boolean;
  json: NetworkJson;
}

type Fetch = typeof fetch;

async function problem(res: Response): Promise<{ code?: string; detail?: string }> {
  try {
    const body = await res.json() as Record<string, unknown>;
    return { code: typeof body.code === 'string' ? body.code : undefined, detail: typeof body.detail === 'string' ? body.detail : typeof body.message === 'string' ? body.message : undefined };
  } catch {
    return {};
  }
}

export class ViewerApi implements BackendPort {
  readonly base: string;
  readonly sessionId: string;
  tokens: TokenManager | null = null;
  /** The stored network's version the viewer loaded (`networkUUID`); a positions save applies only to it. */
  networkUUID = '';
  /** Called when the service says the session has ended. */
  onExpired: (reason: string) => void = () => undefined;
  #fetch: Fetch;

  constructor(opts: { base: string; sessionId: string; fetch?: Fetch }) {
    this.base = opts.base.replace(/\/$/, '');
    this.sessionId = opts.sessionId;
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  async exchange(launchToken: string): Promise<{ accessToken: string; expiresAt: string }> {
    const res = await this.#fetch(this.base + PATHS.accessTokens(this.sessionId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ launchToken }),
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    if (!res.ok) {
      const p = await problem(res);
      if (res.status === 410 || p.code === 'SESSION_EXPIRED') {
        this.onExpired(p.detail ?? 'expired');
        throw new CommandError('SESSION_EXPIRED', p.detail ?? 'the session has ended');
      }
      throw new CommandError('SESSION_EXPIRED', `the launch token was refused (${res.status}${p.detail ? `: ${p.detail}` : ''})`);
    }
    return await res.json() as { accessToken: string; expiresAt: string };
  }

  async request<T>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}, retried = false): Promise<T> {
    if (!this.tokens) throw new CommandError('INTERNAL', 'no token manager');
    const token = await this.tokens.get();
    const res = await this.#fetch(path.startsWith('http') ? path : this.base + path, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, authorization: `Bearer ${token}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
    if (res.ok) return (res.status === 204 ? undefined : await res.json()) as T;
    const p = await problem(res);
    if (res.status === 410 || p.code === 'SESSION_EXPIRED') {
      this.onExpired(p.detail ?? 'expired');
      throw new CommandError('SESSION_EXPIRED', p.detail ?? 'the session has ended');
    }
    if (res.status === 401 && !retried) {
      this.tokens.invalidate();
      return this.request<T>(path, init, true);
    }
    const message = p.detail ?? `the service answered ${res.status}`;
    if (res.status === 403) throw new CommandError('NOT_PERMITTED', message, p.code ? { reason: p.code } : undefined);
    if (res.status === 404) throw new CommandError('NOT_FOUND', message);
    if (res.status === 429) throw new CommandError('RATE_LIMITED', message);
    if (res.status === 400) throw new CommandError('INVALID_ARGS', message);
    throw new CommandError('INTERNAL', message);
  }

  sessionInfo(): Promise<SessionInfo> {
    return this.request<SessionInfo>(PATHS.session);
  }

  /** The session's network: metadata, then its JSON through the signed data link. */
  async network(): Promise<LoadedNetwork> {
    const meta = await this.request<Record<string, unknown>>(PATHS.network);
    const networkId = String(meta.networkId ?? meta._id ?? meta.id ?? '');
    const name = String(meta.name ?? '');
    const isDirected = meta.isDirected === true;
    this.networkUUID = typeof meta.networkUUID === 'string' ? meta.networkUUID : '';
    let json = meta.networkJSON as NetworkJson | undefined;
    const link = (meta.dataUrl ?? meta.url ?? meta.signedUrl) as string | undefined;
    if (!json && typeof link === 'string') {
      // The service signs the link with its configured public URL; the viewer reaches the service at its own
      // API base (the page's origin, which the page's CSP `default-src 'self'` allows), so only the link's
      // path and query are used. Otherwise a page opened as 127.0.0.1 with a public URL of localhost, or
      // behind a proxy, could not load its network.
      const signed = new URL(link, this.base + '/');
      const res = await this.#fetch(new URL(signed.pathname + signed.search, this.base + '/').toString(), { credentials: 'omit', referrerPolicy: 'no-referrer' });
      if (res.status === 410) {
        this.onExpired('expired');
        throw new CommandError('SESSION_EXPIRED', 'the session has ended');
      }
      if (!res.ok) throw new CommandError('INTERNAL', `network data: ${res.status}`);
      const body = await res.json() as Record<string, unknown>;
      json = (body.networkJSON ?? body) as NetworkJson;
    }
    if (!json || !Array.isArray(json.nodes)) throw new CommandError('INTERNAL', 'the service sent no network data');
    return { networkId, name, isDirected, json };
  }

  listViews(): Promise<ViewSummary[]> {
    return this.request<ViewSummary[] | { views: ViewSummary[] }>(PATHS.views).then((r) => (Array.isArray(r) ? r : r.views));
  }

  getView(viewId: string): Promise<EmbedView> {
    return this.request<EmbedView>(PATHS.view(viewId));
  }

  saveView(view: Omit<EmbedView, 'id'>): Promise<EmbedView> {
    return this.request<EmbedView>(PATHS.views, { method: 'POST', body: view });
  }

  updateView(view: EmbedView): Promise<EmbedView> {
    return this.request<EmbedView>(PATHS.view(view.id), { method: 'PUT', body: view });
  }

  /**
   * Whether the session still lives, without a token and without counting as activity (an idle viewer
   * notices a revocation this way). Says so through onExpired when it has ended; network errors → live.
   */
  async status(): Promise<{ live: boolean; checkAfterMs: number }> {
    const res = await this.#fetch(this.base + PATHS.status(this.sessionId), { credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store' });
    if (!res.ok) throw new CommandError('INTERNAL', `session status: ${res.status}`);
    const body = await res.json() as { live?: unknown; checkAfterMs?: unknown };
    const checkAfterMs = typeof body.checkAfterMs === 'number' && body.checkAfterMs >= 1000 ? body.checkAfterMs : 30_000;
    if (body.live === false) this.onExpired('the session has ended');
    return { live: body.live !== false, checkAfterMs };
  }

  /** "Keep these positions" (Edit): x/y of the listed nodes into the stored network; a new networkUUID. */
  async savePositions(p: { nodeIds: string[]; x: number[]; y: number[] }): Promise<{ networkUUID: string; modified: string }> {
    const r = await this.request<{ networkUUID: string; modified: string }>(PATHS.positions, { method: 'PUT', body: { networkUUID: this.networkUUID, ...p } });
    this.networkUUID = r.networkUUID;
    return r;
  }

  /** Starts a metric as a job of this session (`Prefer: respond-async`): progress, ETA and Cancel (docs/embedding-api.md "Metric jobs"). */
  startMetricJob(kind: 'network' | 'nodes', metricId: string, params: Record<string, unknown> = {}): Promise<ViewerJob> {
    return this.request<ViewerJob>(PATHS.metric(kind, metricId), { method: 'POST', body: params, headers: { prefer: 'respond-async' } });
  }

  /** The node metrics the Metrics panel offers (the engine registry's, served by the service). */
  async offeredMetrics(): Promise<OfferedMetric[]> {
    return (await this.request<OfferedMetricList>(PATHS.metrics, { method: 'GET' })).metrics;
  }

  metricJob(jobId: string): Promise<ViewerJob> {
    return this.request<ViewerJob>(PATHS.job(jobId));
  }

  /** Cancels the job (its worker is freed); answers it (`cancelled`, or as it finished). */
  cancelMetricJob(jobId: string): Promise<ViewerJob> {
    return this.request<ViewerJob>(PATHS.job(jobId), { method: 'DELETE' });
  }

  heartbeat(): Promise<unknown> {
    return this.request(PATHS.heartbeat, { method: 'POST', body: {} });
  }
}
