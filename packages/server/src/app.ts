/**
 * buildApp(config) → a ready Fastify instance (not listening). Wires the database, the HTTP plugins
 * (request ids, problem errors, body decoding, auth, rate limits, compression, OpenAPI) and the routes.
 * main.ts listens and shuts down gracefully; tests use `app.inject` or `app.listen({ port: 0 })`.
 */
import { setMeta } from './store/meta.ts';
import { PUBLIC_URL_META } from './domain/identity/user-links.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import { FAIL_FAST, redisReady } from './store/redis.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './store/db.ts';
import { migrate } from './store/migrations/index.ts';
import { registerProblemHandler } from './http/problem-handler.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { registerRouteContract } from './http/route-contract.ts';
import { registerNamedSchemas } from './schemas/index.ts';
import { buildCachedSerializer } from './http/serializers.ts';
import { registerDecompression } from './http/decompress.ts';
import { registerJsonBody, registerNetworkBodyCount } from './http/json-body.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import { withOperationId } from './http/operation-ids.ts';
import { documentFor, isWebAppPath } from './http/openapi-documents.ts';
import { requestLoggerFactory } from './http/request-logger.ts';
import { loggableUrl } from './http/log-redact.ts';
import { registerAuth } from './http/auth.ts';
import { authFailureLimiter } from './http/auth-failures.ts';
import { databaseCounters, redisCounters } from './store/rate-limits.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerWebSessions } from './http/web-session.ts';
import { registerMetricPool } from './plugins/metric-pool.ts';
import { registerJobWorker } from './plugins/job-worker.ts';
import { registerServices } from './plugins/services.ts';
import { registerRoutes } from './plugins/routes.ts';
import { startSurveyMailer, type SurveyMailScheduler } from './domain/surveys/mailer.ts';
import { smtpMailer, type Mailer } from './domain/mail.ts';
import { startHousekeeping } from './domain/housekeeping.ts';
import { NetworkExports } from './domain/networks/export.ts';
import { ENGINE_VERSION } from '@netloom/engine';

export interface AppDeps {
  /** An already opened database (tests share one); otherwise opened from config and closed with the app. */
  database?: DatabaseHandle;
  /** Clock (ms since epoch); injectable for tests. */
  now?: () => number;
  /** Logger override (tests pass false). */
  logger?: boolean | Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** The Redis connection when REDIS_URL is set, else null. */
    redis: Redis | null;
    now: () => number;
    /** Export limits and the cache of Public exports (domain/networks/export.ts). */
    networkExports: NetworkExports;
    /** Runs a survey e-mail pass soon (after a launch); a no-op without SMTP_URL. */
    surveyMailer: { poke(): void };
    /** The SMTP sender (SMTP_URL) of invitations and password resets; null when e-mail is off. */
    mail: Mailer | null;
  }
}

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'password',
  'token',
  'privateKey',
  'launchToken',
  'accessToken',
  '*.password',
  '*.token',
  '*.privateKey',
  '*.launchToken',
  '*.accessToken',
  'networkJSON',
  '*.networkJSON',
];

export function loggerOptions(config: Config): Record<string, unknown> {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: loggableUrl(req.url), id: req.id }),
    },
  };
}

/** NETLOOM_TRUSTED_PROXIES as a hop count: the nearest `hops` peers are proxies. */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger === undefined ? loggerOptions(config) : deps.logger,
    genReqId: () => randomUUID(),
    // Every per-IP limit keys on request.ip, which this decides (docs/operations.md, "Behind a load balancer").
    trustProxy: typeof config.trustedProxies === 'number' ? trustHops(config.trustedProxies) : config.trustedProxies,
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: config.limits.maxInflatedBytes,
    forceCloseConnections: 'idle',
    // Slow or idle clients cannot hold connections (docs/operations.md, "Timeouts and connections").
    requestTimeout: config.server.requestTimeoutMs,
    keepAliveTimeout: config.server.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(config.server.headersTimeoutMs, config.server.requestTimeoutMs),
      // Node enforces the two timeouts above when it checks its connections (30 s by default).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(Math.min(config.server.headersTimeoutMs, config.server.requestTimeoutMs) / 2))),
    },
    // 408/431/400 for what Node's HTTP layer refuses; timed-out connections closed a batch per turn
    clientErrorHandler: clientErrorHandler(),
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: true } },
    // one compiled serializer per distinct response schema, not per route × status (http/serializers.ts)
    schemaController: { compilersFactory: { buildSerializer: buildCachedSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (Number.isFinite(config.server.maxConnections)) app.server.maxConnections = config.server.maxConnections;
  const database = deps.database ?? (await openDatabase(config));
  if (!deps.database) await migrate(database.db);
  // The public URL the service runs with, for the CLI's links (cli/public-url.ts) when its own
  // environment has no NETLOOM_PUBLIC_URL.
  await setMeta(database.db, PUBLIC_URL_META, config.publicUrl);
  // One Redis connection (when REDIS_URL is set) for everything that shares state through Redis: request
  // rate limits and the embedding state; every key starts with NETLOOM_REDIS_PREFIX (docs/operations.md).
  // It fails fast (no offline queue, 2 s command timeout): while Redis is down requests that need it
  // answer 503 with Retry-After at once instead of waiting for a reconnect (the problem handler), and it
  // reconnects by itself when Redis is back.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { ...FAIL_FAST, lazyConnect: false }) : null;
  let redisErrorLogged = 0;
  redis?.on('error', (err) => {
    // a reconnect loop repeats its error every attempt: one line per 10 s
    if (Date.now() - redisErrorLogged < 10_000) return;
    redisErrorLogged = Date.now();
    app.log.warn({ err: { message: err.message } }, 'redis connection error');
  });
  // the first requests find it connected (if Redis answers within 2 s; /readyz says when it does not)
  if (redis) await redisReady(redis, 2_000);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('redis', redis);
  app.decorate('now', deps.now ?? Date.now);
  app.decorate('networkExports', new NetworkExports(config.exports));
  const housekeeping = startHousekeeping(database.db, { intervalMs: config.housekeepingMs, now: () => app.now(), windowMs: Math.max(3_600_000, config.web.signInWindowMs), log: app.log });
  app.addHook('onClose', async () => {
    await housekeeping.stop();
    if (redis) await redis.quit().catch(() => redis.disconnect());
    if (!deps.database) await database.close();
  });

  // Per-request hooks are callback style: an async hook costs a promise and a microtask per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // During a graceful shutdown, answers to in-flight requests close their keep-alive connection so the
  // server can stop as soon as the last one is written.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A refused request whose body was not read to the end (no credential, or over a limit) is not drained
  // either: its connection closes after the answer (docs/security.md, "Request bodies").
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing || (reply.statusCode >= 400 && !request.raw.complete && !request.authenticated)) reply.header('connection', 'close');
    done(null, payload);
  });

  registerProblemHandler(app);
  registerNamedSchemas(app);
  registerRouteContract(app);
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  registerNulGuard(app);
  registerDecompression(app, { maxBodyBytes: config.limits.maxBodyBytes, maxInflatedBytes: config.limits.maxInflatedBytes, maxAnonymousBytes: config.limits.maxAnonymousBodyBytes });
  // after decompression: the nodes and edges of a JSON body are counted as it arrives
  registerNetworkBodyCount(app, { maxNodes: config.limits.maxNodes, maxEdges: config.limits.maxEdges });
  const counters = redis ? redisCounters(redis, `${config.embed.redisPrefix}rl:`) : databaseCounters(database.db, 'rl:');
  app.decorate('authFailures', authFailureLimiter(counters, config.limits.authFailuresPerIpPerHour, () => app.now()));
  registerAuth(app, database.db, config.publicUrl, app.authFailures);
  await registerWebSessions(app);
  await registerRateLimit(app, { perHour: config.limits.requestsPerHour, redis, redisPrefix: config.embed.redisPrefix });
  await app.register(compress, { globalCompression: true, globalDecompression: false, encodings: ['br', 'gzip', 'deflate'], threshold: 1024, brotliOptions: { params: { 1: 4 } }, zlibOptions: { level: 5 } });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Netloom API', version: '2', description: `Networks, metrics and embedding. Engine ${ENGINE_VERSION}.` },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API token `nl_…`' },
          basic: { type: 'http', scheme: 'basic', description: 'Legacy public key / private key (deprecated)' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'nl_session', description: 'Web-app session (`/app/api` only); non-GET requests also need `X-CSRF-Token` and a same-origin `Origin`' },
          viewerToken: { type: 'http', scheme: 'bearer', description: 'Access token `nla_…` of an embedded viewer (from `POST /api/v2/embed/sessions/{sessionId}/access-tokens`)' },
          operator: { type: 'http', scheme: 'bearer', description: 'The service operator token (`NETLOOM_OPERATOR_TOKEN`)' },
        },
      },
      security: [{ bearer: [] }, { basic: [] }],
    },
    transform: withOperationId,
    // named schemas (schemas/index.ts) keep their $id as their name in components.schemas
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  // Swagger UI: a CSP (its own inline code by hash, nothing from elsewhere) and no framing by anyone
  // (issue 19, Low: clickjacking of the "Try it out" forms; docs/security.md "Pages").
  await app.register(swaggerUi, {
    routePrefix: '/api/v2/docs',
    uiConfig: { docExpansion: 'list' },
    staticCSP: true,
    transformStaticCSP: (header: string) => `${header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/;+\s*$/, '')}; form-action 'self'`,
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('x-frame-options', 'DENY');
        reply.header('x-content-type-options', 'nosniff');
        done();
      },
    },
  });
  // Two documents from one description (http/openapi-documents.ts): the public API, and apart from it the
  // web application's session endpoints. Made once, on first request (every route is registered by then).
  let publicDoc: object | undefined;
  let webAppDoc: object | undefined;
  const full = () => app.swagger() as unknown as Record<string, unknown>;
  app.get('/api/v2/openapi.json', { schema: { hide: true }, config: { auth: { skip: true } } }, async () => {
    publicDoc ??= documentFor(full(), (path) => !isWebAppPath(path), {});
    return publicDoc;
  });
  app.get('/app/api/openapi.json', { schema: { hide: true }, config: { auth: { skip: true } } }, async () => {
    webAppDoc ??= documentFor(full(), isWebAppPath, {
      title: 'Netloom web application API',
      description: "The web application's own endpoints (cookie session + CSRF token; docs/web-app.md). Not an API for integrations: use the Netloom API (/api/v2/openapi.json).",
    });
    return webAppDoc;
  });

  // Composition (docs/architecture.md): the pool, the job worker and the domain services are decorators
  // made once here; the routes only declare and call them.
  registerMetricPool(app);
  registerJobWorker(app);
  registerServices(app);
  const mail = smtpMailer(config);
  app.decorate('mail', mail);
  app.addHook('onClose', async () => mail?.close());
  // Survey e-mail (SMTP_URL): launch messages and reminders, each sent once (domain/surveys/mailer.ts).
  let mailer: SurveyMailScheduler | null = null;
  app.decorate('surveyMailer', { poke: () => mailer?.poke() });
  app.addHook('onReady', async () => {
    mailer = startSurveyMailer({ db: database.db, config, now: () => app.now() }, app.log);
  });
  app.addHook('preClose', async () => {
    await mailer?.stop();
  });
  await registerRoutes(app);
  return app;
}
