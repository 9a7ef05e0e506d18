/**
 * Configuration from the environment, shared by the server and the CLI. Every limit of docs/spec/decisions.md is
 * configurable here. `loadConfig(env)` validates and returns a frozen object; tests pass overrides.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { Plan } from './store/schema.ts';

export interface PlanLimits {
  maxPublicNetworks: number; // Infinity = unlimited
  maxPrivateNetworks: number;
  maxViews: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl: string | null;
  /** PostgreSQL schema to use (tests isolate runs with their own schema). */
  databaseSchema: string | null;
  redisUrl: string | null;
  /** NETLOOM_HOUSEKEEPING_MS: how often expired embed tokens, leases and rate-limit windows are deleted from the database (10 min). */
  housekeepingMs: number;
  logLevel: string;
  /** Public origin of the service, used in links (`Link` deprecation header, embed URLs). */
  publicUrl: string;
  /**
   * NETLOOM_TRUSTED_PROXIES (Fastify `trustProxy`): which peers may tell the client's address in
   * `X-Forwarded-For`. Every per-IP limit keys on the address this yields (docs/operations.md, "Behind
   * a load balancer"). false (default): the peer's own address; a list of addresses/CIDRs (or
   * `loopback`, `linklocal`, `uniquelocal`); a number of hops; true: any peer (only when nothing but the
   * proxy can reach the service).
   */
  trustedProxies: boolean | number | string[];
  /** Connection limits (docs/operations.md, "Timeouts and connections"). */
  server: ServerLimits;
  limits: {
    /** Requests per hour per credential outside embedding. */
    requestsPerHour: number;
    /** NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR: refused credentials from one address per hour before 429 (300). */
    authFailuresPerIpPerHour: number;
    /** Compressed body limit in bytes. */
    maxBodyBytes: number;
    /** Decompressed body limit in bytes. */
    maxInflatedBytes: number;
    /** NETLOOM_IMPORT_HEAP_MB: JavaScript heap of an import reader thread, in MiB (default 4096). */
    importHeapMb: number;
    /**
     * NETLOOM_MAX_ANONYMOUS_BODY_BYTES: compressed and decompressed limit of a body whose sender has not
     * proved a credential before it is read (launch-token exchange, sign-in, links, anonymous calls): 64 KiB.
     */
    maxAnonymousBodyBytes: number;
    maxNodes: number;
    maxEdges: number;
    maxCredentialsPerUser: number;
    metricTimeoutMs: number;
    metricQueueSize: number;
    metricWorkers: number;
  };
  plans: Record<Plan, PlanLimits>;
  /** Create the first owner account on an empty database. */
  bootstrapOwner: boolean;
  /** Embedding (docs/spec/api.md Embedding, docs/spec/decisions.md §5); see docs/embedding-api.md. */
  embed: EmbedConfig;
  /** AI chat of embedded viewers (docs/embedding-api.md, chat). */
  ai: AiConfig;
  /** Web application accounts and sessions (docs/web-app.md). */
  web: WebConfig;
  /** Metric jobs and their workers (docs/jobs.md). */
  jobs: JobsConfig;
  /** Network exports (docs/api/import-export.md "Export limits", docs/security.md "Exports"). */
  exports: ExportsConfig;
  /** Surveys: respondent links and e-mail (docs/surveys.md, docs/api/people-and-surveys.md). */
  surveys: SurveysConfig;
}

/** Network exports (docs/api/import-export.md "Export limits"). */
export interface ExportsConfig {
  /** NETLOOM_EXPORT_MAX_CELLS: an export's cells (nodes × their columns + edges × theirs) at most (20,000,000); more → 413. */
  maxCells: number;
  /** NETLOOM_EXPORTS_PER_CALLER: exports one user (or one anonymous address) may have in progress at once (2); more → 429. */
  perCaller: number;
  /** NETLOOM_ANONYMOUS_EXPORTS: exports without a credential in progress at once in one instance, all addresses together (2); more → 429. */
  anonymous: number;
  /** NETLOOM_EXPORT_THREADS: worker threads that build export files (1); further exports wait for one. */
  threads: number;
  /** NETLOOM_EXPORT_WORKER_MEMORY_MB: heap limit of an export thread (768); an export that needs more fails with 413 instead of growing the process. */
  workerMemoryMb: number;
  /** NETLOOM_EXPORT_CACHE_BYTES: memory for cached exports of Public networks (64 MiB; 0 = no cache). */
  cacheBytes: number;
  /** NETLOOM_EXPORT_CACHE_MIN_BYTES: Public exports at least this big are cached (256 KiB). */
  cacheMinBytes: number;
}

/** Surveys (docs/api/people-and-surveys.md). */
export interface SurveysConfig {
  /** NETLOOM_SURVEY_LINK_KEY: HMAC key of respondent links; else one generated and kept in the database (docs/security.md, "Survey links"). */
  linkKey: string | null;
  /** SMTP_URL (e.g. `smtp://user:pass@mail.example.com:587`): e-mail on (launch e-mails, reminders, invitations, password resets); off when absent. */
  smtpUrl: string | null;
  /** NETLOOM_MAIL_FROM: the From of every message (default `Netloom <no-reply@<public host>>`). */
  mailFrom: string;
  /** NETLOOM_SURVEY_SAVES_PER_LINK_PER_HOUR: requests one respondent link may make per hour (600). */
  requestsPerLinkPerHour: number;
  /** NETLOOM_SURVEY_SCHEDULER_MS: how often the e-mail scheduler looks for launch e-mails and reminders due (60 s). */
  schedulerMs: number;
  /** NETLOOM_SURVEY_MAIL_LEASE_MS: how long a sending task stays with a worker that stopped renewing it (a killed one) before another takes it over (30 s). */
  mailLeaseMs: number;
}

/** Metric jobs (docs/jobs.md). */
export interface JobsConfig {
  /** NETLOOM_WORKERS: jobs the API process itself runs at once (0 = none: only `netloom worker` processes run jobs). Default 1. */
  apiWorkers: number;
  /** NETLOOM_JOB_TIMEOUT_MS: a job's compute limit (1 hour). */
  timeoutMs: number;
  /** NETLOOM_JOB_RETENTION_MS: how long a finished job and its result are kept (7 days). */
  retentionMs: number;
  /** NETLOOM_JOB_LEASE_MS: a worker that has not renewed its claim for this long is presumed dead and its job is taken again (15 s). */
  leaseMs: number;
  /** NETLOOM_JOB_HEARTBEAT_MS: how often a worker renews its claim, records progress and notices a cancel (500 ms). */
  heartbeatMs: number;
  /** NETLOOM_JOB_POLL_MS: how often an idle worker looks for work (500 ms; a job submitted to the same process wakes it at once). */
  pollMs: number;
  /** NETLOOM_JOB_SHARD_MIN_NODES: source-loop metrics on networks with at least this many nodes are split into shard jobs (20,000). */
  shardMinNodes: number;
  /** NETLOOM_JOB_SHARD_SOURCES: sources per shard (5,000; at most 64 shards, at least 2). */
  shardSources: number;
  /** NETLOOM_JOB_MAX_ACTIVE: queued or running jobs one user (or organization) may have (100); more → 429. */
  maxActivePerOwner: number;
}

/** How long a connection may take and how many there may be (docs/operations.md, "Timeouts and connections"). */
export interface ServerLimits {
  /** NETLOOM_HEADERS_TIMEOUT_MS: a request's headers must arrive within this (30 s); else 408 and the connection closes. */
  headersTimeoutMs: number;
  /** NETLOOM_REQUEST_TIMEOUT_MS: the whole request, body included, must arrive within this (300 s); else 408 and close. */
  requestTimeoutMs: number;
  /** NETLOOM_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this (72 s). */
  keepAliveTimeoutMs: number;
  /** NETLOOM_MAX_CONNECTIONS: open connections at most (4,096); more are refused until one closes. Keep it below the file limit. */
  maxConnections: number;
}

/** Web-app sessions and sign-in throttling (docs/web-app.md). */
export interface WebConfig {
  /** NETLOOM_WEB_SESSION_IDLE_MS: a session ends after this long without a request (12 h). */
  sessionIdleMs: number;
  /** NETLOOM_WEB_SESSION_MAX_MS: and at the latest this long after sign-in (7 days). */
  sessionMaxMs: number;
  /** NETLOOM_WEB_SIGNIN_WINDOW_MS: the window failed sign-ins are counted in (15 min). */
  signInWindowMs: number;
  /**
   * NETLOOM_WEB_SIGNIN_FAILURES_PER_ACCOUNT: attempts (failed or in flight) for one e-mail *from one
   * address* per window before 429 (10). Keyed by the address too, so nobody else can lock the owner out.
   */
  signInFailuresPerAccount: number;
  /** NETLOOM_WEB_SIGNIN_FAILURES_PER_IP: attempts (failed or in flight) from one address per window, across accounts (50). */
  signInFailuresPerIp: number;
  /**
   * NETLOOM_WEB_SIGNIN_ACCOUNT_SLOWDOWN_AFTER: attempts for one e-mail per window (all addresses) after
   * which addresses that never signed in to it get one evaluation per `signInAccountSlowdownMs` (30).
   */
  signInAccountSlowdownAfter: number;
  /** NETLOOM_WEB_SIGNIN_ACCOUNT_SLOWDOWN_MS: the slowed account's one evaluation per this long (3 s). */
  signInAccountSlowdownMs: number;
  /** NETLOOM_PASSWORD_HASH_CONCURRENCY: scrypt hashes at once per process (2). */
  passwordHashConcurrency: number;
  /** NETLOOM_PASSWORD_HASH_QUEUE: scrypt hashes waiting at most; beyond, 429 at once (16). */
  passwordHashQueue: number;
}

/** Hourly embedding limits of an organization (docs/spec/api.md Limits); the operator may override them per organization. */
export interface EmbedLimits {
  /** Provisioning, grants and session creation per organization per hour (600). */
  provisioningPerHour: number;
  /** Launch tokens issued per organization per hour (6,000). */
  launchTokensPerHour: number;
  /** Metric calculations in embedded sessions per organization per hour (3,000). */
  metricsPerHour: number;
  /** Launch-token redemptions per session per hour (60). */
  redemptionsPerSessionPerHour: number;
  /** AI chat questions per organization per calendar month (UTC), answered or in progress (1,000). */
  aiQuestionsPerMonth: number;
}

/** The AI chat's assistant: an OpenAI-compatible provider when a base URL is set, else the built-in offline one. */
export interface AiConfig {
  /** NETLOOM_AI_BASE_URL, e.g. `https://api.openai.com/v1` (`/chat/completions` is appended). */
  baseUrl: string | null;
  /** NETLOOM_AI_API_KEY (sent as a bearer token; never logged). */
  apiKey: string | null;
  /** NETLOOM_AI_MODEL. */
  model: string;
  /** NETLOOM_AI_TIMEOUT_MS: one answer's time limit (60 s). */
  timeoutMs: number;
}

export interface EmbedConfig {
  /** Operator credential for /api/v2/operator/... (NETLOOM_OPERATOR_TOKEN); operator API off when null. */
  operatorToken: string | null;
  /** HMAC key for signed data links (NETLOOM_EMBED_SIGNING_KEY); else one generated and kept in the database. */
  signingKey: string | null;
  /** Prefix of every Redis key of the embedding state (NETLOOM_REDIS_PREFIX). */
  redisPrefix: string;
  launchTokenTtlMs: number;
  accessTokenTtlMs: number;
  dataLinkTtlMs: number;
  inactivityMs: number;
  /** How often an open viewer checks that its session still lives (without counting as activity). */
  statusCheckMs: number;
  /** Launch-token redemptions per IP address per hour (the "fixed ceiling"; 600). */
  redemptionsPerIpPerHour: number;
  /** Defaults for every organization. */
  limits: EmbedLimits;
  /**
   * NETLOOM_VIEWER_IMAGE_ORIGINS: the origins (`https://images.example.com`, comma or space separated)
   * node images may come from besides the service itself and `data:`/`blob:` URLs; the viewer's CSP
   * `img-src` (routes/viewer/page.ts) and the viewer itself keep every other image URL from being
   * fetched (issue 19, Low; docs/security.md "The embedded viewer"). Empty by default.
   */
  imageOrigins: string[];
  /** Anonymous Discover viewers (public-mode Explore), in their own budget (issue 19 finding 7). */
  discover: DiscoverLimits;
}

export interface DiscoverLimits {
  /** NETLOOM_DISCOVER_SESSIONS_PER_IP_PER_HOUR: Discover viewer sessions opened per client address per hour (60). */
  sessionsPerIpPerHour: number;
  /** NETLOOM_DISCOVER_METRICS_PER_IP_PER_HOUR: metric runs of Discover viewers per client address per hour (60). */
  metricsPerIpPerHour: number;
  /** NETLOOM_DISCOVER_METRICS_PER_NETWORK_PER_HOUR: metric runs of all Discover viewers of one Public network per hour (600). */
  metricsPerNetworkPerHour: number;
}

/** NETLOOM_VIEWER_IMAGE_ORIGINS: a comma/space list of http(s) origins (scheme, host, optional port; no path). */
export function parseImageOrigins(v: string | undefined): string[] {
  const out: string[] = [];
  for (const e of (v ?? '').split(/[\s,]+/).filter((x) => x !== '')) {
    let u: URL | null = null;
    try {
      u = new URL(e);
    } catch {
      /* reported below */
    }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== e.replace(/\/+$/, '') || u.username || u.password) {
      throw new Error(`config: NETLOOM_VIEWER_IMAGE_ORIGINS: ${JSON.stringify(e)} is not an http(s) origin such as https://images.example.com`);
    }
    if (!out.includes(u.origin)) out.push(u.origin);
  }
  return out;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (raw === 'Infinity' || raw === 'unlimited') return Infinity;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min) throw new Error(`config: ${name} must be a number >= ${min}, got ${JSON.stringify(raw)}`);
  return Math.floor(v);
}

function planLimits(env: NodeJS.ProcessEnv, plan: Plan, pub: number, priv: number, views: number): PlanLimits {
  const P = plan.toUpperCase();
  return {
    maxPublicNetworks: int(env, `NETLOOM_PLAN_${P}_MAX_PUBLIC`, pub),
    maxPrivateNetworks: int(env, `NETLOOM_PLAN_${P}_MAX_PRIVATE`, priv),
    maxViews: int(env, `NETLOOM_PLAN_${P}_MAX_VIEWS`, views),
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** NETLOOM_TRUSTED_PROXIES: `false`/empty, `true`, a hop count, or a comma list of addresses, CIDRs and proxy-addr names. */
export function parseTrustedProxies(raw: string | undefined): boolean | number | string[] {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^[0-9]+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter((e) => e !== '');
  for (const e of entries) {
    const [addr, bits, ...rest] = e.split('/');
    const ok = PROXY_NAMES.has(e) || (rest.length === 0 && isIP(addr) !== 0 && (bits === undefined || /^[0-9]{1,3}$/.test(bits)));
    if (!ok) throw new Error(`config: NETLOOM_TRUSTED_PROXIES: ${JSON.stringify(e)} is not an address, CIDR, hop count, true/false, loopback, linklocal or uniquelocal`);
  }
  return entries;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env, 'PORT', 8080);
  const cfg: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.NETLOOM_DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    databaseSchema: env.NETLOOM_DB_SCHEMA || null,
    redisUrl: env.REDIS_URL || null,
    housekeepingMs: int(env, 'NETLOOM_HOUSEKEEPING_MS', 10 * 60_000, 10),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: (env.NETLOOM_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    trustedProxies: parseTrustedProxies(env.NETLOOM_TRUSTED_PROXIES),
    server: {
      headersTimeoutMs: int(env, 'NETLOOM_HEADERS_TIMEOUT_MS', 30_000, 100),
      requestTimeoutMs: int(env, 'NETLOOM_REQUEST_TIMEOUT_MS', 300_000, 100),
      keepAliveTimeoutMs: int(env, 'NETLOOM_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100),
      maxConnections: int(env, 'NETLOOM_MAX_CONNECTIONS', 4096, 1),
    },
    limits: {
      requestsPerHour: int(env, 'NETLOOM_RATE_LIMIT_PER_HOUR', 6000, 1),
      authFailuresPerIpPerHour: int(env, 'NETLOOM_AUTH_FAILURES_PER_IP_PER_HOUR', 300, 1),
      maxBodyBytes: int(env, 'NETLOOM_MAX_BODY_BYTES', 256 * 1024 * 1024, 1),
      maxInflatedBytes: int(env, 'NETLOOM_MAX_INFLATED_BYTES', 256 * 1024 * 1024, 1),
      importHeapMb: int(env, 'NETLOOM_IMPORT_HEAP_MB', 4096, 32),
      maxAnonymousBodyBytes: int(env, 'NETLOOM_MAX_ANONYMOUS_BODY_BYTES', 64 * 1024, 1),
      maxNodes: int(env, 'NETLOOM_MAX_NODES', 1_000_000, 1),
      maxEdges: int(env, 'NETLOOM_MAX_EDGES', 5_000_000, 0),
      maxCredentialsPerUser: int(env, 'NETLOOM_MAX_CREDENTIALS_PER_USER', 20, 1),
      metricTimeoutMs: int(env, 'NETLOOM_METRIC_TIMEOUT_MS', 60_000, 1),
      metricQueueSize: int(env, 'NETLOOM_METRIC_QUEUE_SIZE', 64, 0),
      metricWorkers: int(env, 'NETLOOM_METRIC_WORKERS', 0, 0), // 0 = one per core
    },
    plans: {
      free: planLimits(env, 'free', 3, 3, 5),
      pro: planLimits(env, 'pro', 100, 100, 50),
      enterprise: planLimits(env, 'enterprise', Infinity, Infinity, 500),
      partner: planLimits(env, 'partner', Infinity, Infinity, 500),
    },
    bootstrapOwner: env.NETLOOM_BOOTSTRAP_OWNER !== 'false',
    embed: {
      operatorToken: env.NETLOOM_OPERATOR_TOKEN || null,
      signingKey: env.NETLOOM_EMBED_SIGNING_KEY || null,
      redisPrefix: env.NETLOOM_REDIS_PREFIX || 'netloom:',
      launchTokenTtlMs: int(env, 'NETLOOM_EMBED_LAUNCH_TOKEN_TTL_MS', 60_000, 1),
      accessTokenTtlMs: int(env, 'NETLOOM_EMBED_ACCESS_TOKEN_TTL_MS', 15 * 60_000, 1),
      dataLinkTtlMs: int(env, 'NETLOOM_EMBED_DATA_LINK_TTL_MS', 5 * 60_000, 1),
      inactivityMs: int(env, 'NETLOOM_EMBED_INACTIVITY_MS', 30 * 60_000, 1),
      statusCheckMs: int(env, 'NETLOOM_EMBED_STATUS_CHECK_MS', 30_000, 1000),
      redemptionsPerIpPerHour: int(env, 'NETLOOM_EMBED_REDEMPTIONS_PER_IP_PER_HOUR', 600, 1),
      imageOrigins: parseImageOrigins(env.NETLOOM_VIEWER_IMAGE_ORIGINS),
      discover: {
        sessionsPerIpPerHour: int(env, 'NETLOOM_DISCOVER_SESSIONS_PER_IP_PER_HOUR', 60, 1),
        metricsPerIpPerHour: int(env, 'NETLOOM_DISCOVER_METRICS_PER_IP_PER_HOUR', 60, 1),
        metricsPerNetworkPerHour: int(env, 'NETLOOM_DISCOVER_METRICS_PER_NETWORK_PER_HOUR', 600, 1),
      },
      limits: {
        provisioningPerHour: int(env, 'NETLOOM_EMBED_PROVISIONING_PER_HOUR', 600, 1),
        launchTokensPerHour: int(env, 'NETLOOM_EMBED_LAUNCH_TOKENS_PER_HOUR', 6000, 1),
        metricsPerHour: int(env, 'NETLOOM_EMBED_METRICS_PER_HOUR', 3000, 1),
        redemptionsPerSessionPerHour: int(env, 'NETLOOM_EMBED_REDEMPTIONS_PER_SESSION_PER_HOUR', 60, 1),
        aiQuestionsPerMonth: int(env, 'NETLOOM_EMBED_AI_QUESTIONS_PER_MONTH', 1000, 0),
      },
    },
    ai: {
      baseUrl: env.NETLOOM_AI_BASE_URL ? env.NETLOOM_AI_BASE_URL.replace(/\/+$/, '') : null,
      apiKey: env.NETLOOM_AI_API_KEY || null,
      model: env.NETLOOM_AI_MODEL || 'gpt-4o-mini',
      timeoutMs: int(env, 'NETLOOM_AI_TIMEOUT_MS', 60_000, 1),
    },
    web: {
      sessionIdleMs: int(env, 'NETLOOM_WEB_SESSION_IDLE_MS', 12 * 3_600_000, 1000),
      sessionMaxMs: int(env, 'NETLOOM_WEB_SESSION_MAX_MS', 7 * 24 * 3_600_000, 1000),
      signInWindowMs: int(env, 'NETLOOM_WEB_SIGNIN_WINDOW_MS', 15 * 60_000, 1000),
      signInFailuresPerAccount: int(env, 'NETLOOM_WEB_SIGNIN_FAILURES_PER_ACCOUNT', 10, 1),
      signInFailuresPerIp: int(env, 'NETLOOM_WEB_SIGNIN_FAILURES_PER_IP', 50, 1),
      signInAccountSlowdownAfter: int(env, 'NETLOOM_WEB_SIGNIN_ACCOUNT_SLOWDOWN_AFTER', 30, 1),
      signInAccountSlowdownMs: int(env, 'NETLOOM_WEB_SIGNIN_ACCOUNT_SLOWDOWN_MS', 3_000, 1),
      passwordHashConcurrency: int(env, 'NETLOOM_PASSWORD_HASH_CONCURRENCY', 2, 1),
      passwordHashQueue: int(env, 'NETLOOM_PASSWORD_HASH_QUEUE', 16, 0),
    },
    jobs: {
      apiWorkers: int(env, 'NETLOOM_WORKERS', 1, 0),
      timeoutMs: int(env, 'NETLOOM_JOB_TIMEOUT_MS', 3_600_000, 1),
      retentionMs: int(env, 'NETLOOM_JOB_RETENTION_MS', 7 * 24 * 3_600_000, 1),
      leaseMs: int(env, 'NETLOOM_JOB_LEASE_MS', 15_000, 200),
      heartbeatMs: int(env, 'NETLOOM_JOB_HEARTBEAT_MS', 500, 50),
      pollMs: int(env, 'NETLOOM_JOB_POLL_MS', 500, 10),
      shardMinNodes: int(env, 'NETLOOM_JOB_SHARD_MIN_NODES', 20_000, 2),
      shardSources: int(env, 'NETLOOM_JOB_SHARD_SOURCES', 5_000, 1),
      maxActivePerOwner: int(env, 'NETLOOM_JOB_MAX_ACTIVE', 100, 1),
    },
    exports: {
      maxCells: int(env, 'NETLOOM_EXPORT_MAX_CELLS', 20_000_000, 1),
      perCaller: int(env, 'NETLOOM_EXPORTS_PER_CALLER', 2, 1),
      anonymous: int(env, 'NETLOOM_ANONYMOUS_EXPORTS', 2, 0),
      threads: int(env, 'NETLOOM_EXPORT_THREADS', 1, 1),
      workerMemoryMb: int(env, 'NETLOOM_EXPORT_WORKER_MEMORY_MB', 768, 64),
      cacheBytes: int(env, 'NETLOOM_EXPORT_CACHE_BYTES', 64 * 1024 * 1024, 0),
      cacheMinBytes: int(env, 'NETLOOM_EXPORT_CACHE_MIN_BYTES', 256 * 1024, 0),
    },
    surveys: {
      linkKey: env.NETLOOM_SURVEY_LINK_KEY || null,
      smtpUrl: env.SMTP_URL || null,
      mailFrom: env.NETLOOM_MAIL_FROM || `Netloom <no-reply@${hostOf(env.NETLOOM_PUBLIC_URL || `http://localhost:${port}`)}>`,
      requestsPerLinkPerHour: int(env, 'NETLOOM_SURVEY_SAVES_PER_LINK_PER_HOUR', 600, 1),
      schedulerMs: int(env, 'NETLOOM_SURVEY_SCHEDULER_MS', 60_000, 50),
      mailLeaseMs: int(env, 'NETLOOM_SURVEY_MAIL_LEASE_MS', 30_000, 300),
    },
    ...overrides,
  };
  return cfg;
}
