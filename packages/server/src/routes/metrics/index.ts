/**
 * Metric endpoints, generated from the engine registry: `POST /api/v2/metrics/network/<id>` and
 * `POST /api/v2/metrics/nodes/<id>` (API.md Metrics; DECISIONS.md §2, §4.3).
 *
 * Order of checks: credential and `metrics:write` (auth hook) → plan (enterprise/partner: the
 * organization's for organization credentials, `effectivePlan` of the user for user credentials) and
 * organization membership for `requiresOrganization` metrics (403 PLAN_REQUIRED) → body (400
 * INVALID_ARGS, every problem) → with `networkId`: `networks:read` + `networks:write` (403
 * INSUFFICIENT_SCOPE), visibility (404) and edit access (403) → compute in the worker pool.
 *
 * Bodies are kept as bytes (this plugin's JSON parser does not parse): a small body (≤ 1 MiB) is parsed
 * and validated here so bad requests and `networkId` calls never wait for a worker; a bigger one goes to
 * a worker as is, which parses and validates it there (never on the event loop). Stored networks travel
 * to the worker as bytes (gunzip on the libuv pool), and the worker returns the response text, or for
 * `networkId` node metrics the new network JSON text, which is written only if the stored `version`
 * is still the one read (else 409 CONFLICT, nothing written).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { EngineError, metrics, type AnyMetric } from '@netloom/engine';
import { MetricPool, ownedBytes, parseMetricRequest, type JobResult, type TaskNetwork } from '@netloom/engine/pool/index.ts';
import type { Config } from '../../config.ts';
import type { Principal } from '../../domain/credentials.ts';
import { METRIC_PLANS } from '../../domain/identity.ts';
import { effectivePlan } from '../../domain/network-ownership.ts';
import { loadNetworkFor } from '../../domain/network-access.ts';
import { DomainError } from '../../domain/errors.ts';
import { HttpProblem } from '../../http/error-codes.ts';
import { requireScope } from '../../http/auth.ts';
import { getNetworkJSONGzip, updateNetworkIf } from '../../store/networks.ts';
import { metricBodySchema, metricDescription, metricResponseSchemas } from './schema.ts';

const gunzipAsync = promisify(gunzip);

/** Bodies up to this size are parsed on the event loop (≈ 1–3 ms); bigger ones in a worker. */
export const SMALL_BODY_BYTES = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    metricPool: MetricPool;
  }
}

/** Creates the metric worker pool of an app (one per app; closed with it). */
export function registerMetricPool(app: FastifyInstance, config: Config): MetricPool {
  const pool = new MetricPool({
    workers: config.limits.metricWorkers,
    queueSize: config.limits.metricQueueSize,
    timeoutMs: config.limits.metricTimeoutMs,
    limits: { maxNodes: config.limits.maxNodes, maxEdges: config.limits.maxEdges },
  });
  app.decorate('metricPool', pool);
  app.addHook('onClose', async () => pool.close());
  return pool;
}

function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('UNAUTHENTICATED', 'a credential is required');
  return request.principal;
}

async function checkPlan(app: FastifyInstance, p: Principal, metric: AnyMetric): Promise<void> {
  const plan = p.org ? p.org.plan : await effectivePlan(app.database.db, p.user);
  if (!METRIC_PLANS.includes(plan)) {
    throw new DomainError('PLAN_REQUIRED', `metrics need an Enterprise or Partner plan; ${p.org ? `the organization ${p.org.name}` : 'this account'} is on the ${plan} plan`);
  }
  if (metric.requiresOrganization && !p.orgId && !p.membership) {
    throw new DomainError('PLAN_REQUIRED', `${metric.id} is available to organization accounts only; this user does not belong to an organization`);
  }
}

function timeoutProblem(metric: AnyMetric, limitMs: number): HttpProblem {
  const hint = metric.sampling
    ? ` Lower \`kPercent\` (e.g. 30, or less on very large networks) to estimate ${metric.id} from a sample of sources.`
    : ' Try a smaller network.';
  return new HttpProblem('METRIC_TIMEOUT', `${metric.id} did not finish within the compute limit of ${limitMs / 1000} s.${hint}`);
}

/** An AbortSignal that fires when the client goes away before the answer is sent. */
function disconnectSignal(reply: FastifyReply): { signal: AbortSignal; done: () => void } {
  const ac = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) ac.abort();
  };
  reply.raw.on('close', onClose);
  return { signal: ac.signal, done: () => reply.raw.off('close', onClose) };
}

function sendJSONBytes(reply: FastifyReply, bytes: Uint8Array | string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

export async function metricRoutes(app: FastifyInstance): Promise<void> {
  const cfg = app.config;
  const db = app.database.db;
  const limits = { maxNodes: cfg.limits.maxNodes, maxEdges: cfg.limits.maxEdges };

  // Keep metric bodies as bytes: parsed here when small, in a worker when big (see the header).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  /** Runs a job; null when the client went away (the job was cancelled and its worker freed). */
  async function compute(request: FastifyRequest, reply: FastifyReply, metric: AnyMetric, network: TaskNetwork, extra: { writeBack?: boolean; nodeCount?: number }): Promise<JobResult | null> {
    const { signal, done } = disconnectSignal(reply);
    try {
      return await app.metricPool.run({ metric: metric.id, network, signal, startedAt: Date.now() - reply.elapsedTime, ...extra });
    } catch (err) {
      if (err instanceof EngineError && err.code === 'METRIC_TIMEOUT') {
        request.log.info({ metric: metric.id, limitMs: cfg.limits.metricTimeoutMs }, 'metric timed out');
        throw timeoutProblem(metric, cfg.limits.metricTimeoutMs);
      }
      if (err instanceof EngineError && err.code === 'CANCELLED') {
        request.log.info({ metric: metric.id }, 'metric cancelled: the client disconnected');
        return null;
      }
      throw err;
    } finally {
      done();
    }
  }

  async function runStored(request: FastifyRequest, reply: FastifyReply, p: Principal, metric: AnyMetric, networkId: string, params: Record<string, unknown>) {
    requireScope(p, 'networks:read');
    requireScope(p, 'networks:write');
    // Metadata and JSON must be of the same version; retry the read if a write slipped in between.
    for (let attempt = 0; ; attempt++) {
      const { net } = await loadNetworkFor(db, p, networkId, metric.kind === 'node' ? 'edit' : 'read');
      const stored = await getNetworkJSONGzip(db, networkId);
      if (!stored) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)}`);
      if (stored.version !== net.version) {
        if (attempt < 3) continue;
        throw new DomainError('CONFLICT', 'the network is being changed; retry');
      }
      const text = ownedBytes(await gunzipAsync(stored.gz));
      const result = await compute(request, reply, metric, { kind: 'stored', text, networkDirected: net.is_directed === 1 || (net.is_directed as unknown) === true, params }, {
        writeBack: metric.kind === 'node',
        nodeCount: net.node_count,
      });
      if (!result) return reply.code(499).send();
      if (result.kind === 'deferred') throw new Error('unexpected deferred reply for a stored network');
      request.log.info({ metric: metric.id, networkId, nodes: result.stats.nodeCount, edges: result.stats.edgeCount, parseMs: result.stats.parseMs, computeMs: result.stats.computeMs }, 'metric computed');
      if (result.kind === 'network') return sendJSONBytes(reply, result.response as Uint8Array);
      const networkUUID = randomUUID();
      const written = await updateNetworkIf(db, networkId, stored.version, { json: result.networkText as Uint8Array, network_uuid: networkUUID });
      if (!written) {
        throw new DomainError('CONFLICT', 'the network changed while the metric was being computed; nothing was written — retry');
      }
      return sendJSONBytes(reply, JSON.stringify({ _id: networkId, networkUUID, attributes: result.attributes ?? [], meta: result.meta ?? {} }));
    }
  }

  for (const metric of metrics.values()) {
    const url = `/metrics/${metric.kind === 'network' ? 'network' : 'nodes'}/${metric.id}`;
    app.post(
      url,
      {
        config: { auth: { resource: 'metrics' } },
        validatorCompiler: () => () => true,
        schema: {
          summary: metric.summary,
          description: metricDescription(metric),
          tags: [metric.kind === 'network' ? 'network metrics' : 'node metrics'],
          body: metricBodySchema(metric),
          response: metricResponseSchemas(metric),
        },
      },
      async (request, reply) => {
        const p = principalOf(request);
        await checkPlan(app, p, metric);
        const raw = request.body as Buffer | undefined;
        if (!raw || raw.length === 0) throw new HttpProblem('INVALID_ARGS', 'body: a JSON object with `networkId` or `networkJSON` is required', { errors: [{ path: '', message: 'empty body' }] });
        const started = performance.now();
        let nodeCount: number | undefined; // known for small bodies: small networks are not split across workers
        if (raw.length <= SMALL_BODY_BYTES) {
          let body: unknown;
          try {
            body = JSON.parse(raw.toString('utf8'));
          } catch (err) {
            throw new HttpProblem('INVALID_ARGS', `body is not valid JSON: ${(err as Error).message}`, { errors: [{ path: '', message: 'malformed JSON' }] });
          }
          const req = parseMetricRequest(metric, body, limits);
          if (req.networkId !== undefined) return runStored(request, reply, p, metric, req.networkId, req.params);
          nodeCount = req.network?.nodes.length;
        }
        const result = await compute(request, reply, metric, { kind: 'body', body: ownedBytes(raw) }, { nodeCount });
        if (!result) return reply.code(499).send();
        if (result.kind === 'deferred') return runStored(request, reply, p, metric, result.networkId, result.params);
        request.log.info(
          { metric: metric.id, nodes: result.stats.nodeCount, edges: result.stats.edgeCount, parseMs: result.stats.parseMs, computeMs: result.stats.computeMs, elapsedMs: Math.round(performance.now() - started) },
          'metric computed',
        );
        return sendJSONBytes(reply, result.response as Uint8Array);
      },
    );
  }
}
