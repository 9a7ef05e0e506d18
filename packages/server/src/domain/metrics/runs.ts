/**
 * Running a registry metric: the ONE path every caller takes — the API metric routes (synchronous and
 * `Prefer: respond-async` jobs), the embedded viewer's metric calls, its AI chat and the job workers
 * (docs/spec/decisions.md §4, docs/jobs.md).
 *
 * - `checkMetricPlan`: Enterprise/Partner plans only; informal* need an organization (403 PLAN_REQUIRED).
 * - `loadStoredNetwork`: a stored network's metadata and JSON text of the same `version` (a write slipping
 *   in between is retried; 409 CONFLICT after three tries).
 * - `runStoredMetric` / `runPostedMetric`: the whole API flow on top of these; the pool call and the
 *   write-back are compute.ts's (the one compute path and write-back of every caller).
 */
import type { Kysely } from 'kysely';
import { getMetric, type AnyMetric } from '@netloom/engine';
import { MAX_JSON_DEPTH, findNul, nestsDeeperThan } from '@netloom/engine/graph/json-limits.ts';
import { ownedBytes, parseMetricRequest } from '@netloom/engine/pool/index.ts';
import type { Database } from '../../store/schema.ts';
import { getNetwork, getNetworkJSONGzip, inflateStoredJSON, isDirectedNetwork, type NetworkRecord } from '../../store/networks.ts';
import type { Principal } from '../identity/credentials/principal.ts';
import { surveyGroupFloor, withGroupFloor } from './survey-groups.ts';
import { DomainError, invalidArgs } from '../errors.ts';
import { METRIC_PLANS } from '../identity/users.ts';
import { effectivePlan } from '../networks/ownership.ts';
import { loadNetworkFor } from '../networks/access.ts';
import { audit, sessionActor, checkRate, HOUR_MS, limitsOf, RateLimitedError, type EmbedContext } from '../embedding/context.ts';
import type { LiveSession } from '../embedding/sessions.ts';
import type { ComputeFn } from '../embedding/chat.ts';
import { getOrganizationById } from '../../store/organizations.ts';
import { computeMetric, writeBack, type MetricAnswer, type MetricRunDeps, type NodeValues, type RunOptions } from './compute.ts';
/** The types of a run, for the flows built on these (compute.ts defines them). */
export type { MetricAnswer, MetricRunDeps, RunOptions };

/** Bodies up to this size are parsed on the event loop (≈ 1–3 ms); bigger ones in a worker. */
export const SMALL_BODY_BYTES = 1024 * 1024;

export function requireScopeOf(p: Principal, scope: string): void {
  if (!p.scopes.has(scope)) throw new DomainError('INSUFFICIENT_SCOPE', `this credential lacks the scope ${scope}`);
}

/** The metric of an id, or 404. */
export function metricById(id: string): AnyMetric {
  try {
    return getMetric(id);
  } catch {
    throw new DomainError('NOT_FOUND', `no metric ${JSON.stringify(id)}`);
  }
}

/** Plan gate of every metric call by a credential (403 PLAN_REQUIRED). */
export async function checkMetricPlan(db: Kysely<Database>, p: Principal, metric: AnyMetric): Promise<void> {
  const plan = p.org ? p.org.plan : await effectivePlan(db, p.user);
  if (!METRIC_PLANS.includes(plan)) {
    throw new DomainError('PLAN_REQUIRED', `metrics need an Enterprise or Partner plan; ${p.org ? `the organization ${p.org.name}` : 'this account'} is on the ${plan} plan`);
  }
  if (metric.requiresOrganization && !p.orgId && !p.membership) {
    throw new DomainError('PLAN_REQUIRED', `${metric.id} is available to organization accounts only; this user does not belong to an organization`);
  }
}

export interface StoredNetwork {
  net: NetworkRecord;
  version: number;
  /** The network JSON text (an owned buffer: it can be transferred to a worker). */
  text: Uint8Array;
  directed: boolean;
}

/**
 * Metadata and JSON of a stored network, of one `version`. With a principal, checks access first (404 /
 * 403, `need`); without one (embedded sessions, workers) the caller has authorised already.
 */
export async function loadStoredNetwork(db: Kysely<Database>, principal: Principal | null, networkId: string, need: 'read' | 'edit' = 'read'): Promise<StoredNetwork> {
  for (let attempt = 0; ; attempt++) {
    const net = principal ? (await loadNetworkFor(db, principal, networkId, need)).net : await getNetwork(db, networkId);
    const stored = net ? await getNetworkJSONGzip(db, networkId) : null;
    if (!net || !stored) throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)}`);
    if (stored.version !== net.version) {
      if (attempt < 3) continue;
      throw new DomainError('CONFLICT', 'the network is being changed; retry');
    }
    const text = ownedBytes(await inflateStoredJSON(stored.gz, stored.bytes));
    return { net, version: stored.version, text, directed: isDirectedNetwork(net) };
  }
}

/** A metric on a stored network by a credential: node metrics write their attributes back (§4.3). */
export async function runStoredMetric(deps: MetricRunDeps, p: Principal, metric: AnyMetric, networkId: string, params: Record<string, unknown>, opts: RunOptions = {}): Promise<MetricAnswer> {
  requireScopeOf(p, 'networks:read');
  requireScopeOf(p, 'networks:write');
  const stored = await loadStoredNetwork(deps.db, p, networkId, metric.kind === 'node' ? 'edit' : 'read');
  if (metric.id === 'groups') params = withGroupFloor(params, await surveyGroupFloor(deps.db, networkId));
  const result = await computeMetric(deps, metric, { kind: 'stored', text: stored.text, networkDirected: stored.directed, params }, { ...opts, writeBack: metric.kind === 'node', nodeCount: stored.net.node_count });
  if (result.kind === 'deferred') throw new Error('unexpected deferred reply for a stored network');
  deps.log?.info({ metric: metric.id, networkId, nodes: result.stats.nodeCount, edges: result.stats.edgeCount, parseMs: result.stats.parseMs, computeMs: result.stats.computeMs }, 'metric computed');
  if (result.kind !== 'node') return { json: result.response as Uint8Array };
  return writeBack(deps.db, { id: networkId, version: stored.version }, { network: result.networkText as Uint8Array, attributes: result.attributes, tail: { meta: result.meta ?? {} } });
}

/** A parsed small request body: either names a stored network or carries the network. */
export type ParsedMetricBody = { networkId: string; params: Record<string, unknown> } | { networkId?: undefined; nodeCount: number | undefined; params?: Record<string, unknown> };

/**
 * Parses and validates a small body on the event loop (400 INVALID_ARGS naming every problem); bodies over
 * SMALL_BODY_BYTES are validated in a worker instead (returns `nodeCount: undefined`).
 */
export function parseMetricBody(deps: MetricRunDeps, metric: AnyMetric, raw: Uint8Array | undefined): ParsedMetricBody {
  if (!raw || raw.length === 0) throw new DomainError('INVALID_ARGS', 'body: a JSON object with `networkId` or `networkJSON` is required', [{ path: '', message: 'empty body' }]);
  if (raw.length > SMALL_BODY_BYTES) return { nodeCount: undefined };
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  // the limits every body has (the worker checks big bodies alike; docs/security.md "Input at the edge")
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    const message = `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`;
    throw invalidArgs([{ path: '', message }]);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new DomainError('INVALID_ARGS', `body is not valid JSON: ${(err as Error).message}`, [{ path: '', message: 'malformed JSON' }]);
  }
  const nulAt = text.includes('\\u0000') ? findNul(body) : null;
  if (nulAt !== null) {
    throw invalidArgs([{ path: nulAt, message: 'must not contain U+0000' }]);
  }
  const req = parseMetricRequest(metric, body, { maxNodes: deps.limits.maxNodes, maxEdges: deps.limits.maxEdges });
  if (req.networkId !== undefined) return { networkId: req.networkId, params: req.params };
  return { nodeCount: req.network?.nodes.length, params: req.params };
}

/** A metric call with a request body (`networkId` or `networkJSON`), as the API route answers it. */
export async function runPostedMetric(deps: MetricRunDeps, p: Principal, metric: AnyMetric, raw: Uint8Array | undefined, opts: RunOptions = {}): Promise<MetricAnswer> {
  const parsed = parseMetricBody(deps, metric, raw);
  if (parsed.networkId !== undefined) return runStoredMetric(deps, p, metric, parsed.networkId, parsed.params, opts);
  const started = performance.now();
  const result = await computeMetric(deps, metric, { kind: 'body', body: ownedBytes(raw as Uint8Array) }, { ...opts, nodeCount: parsed.nodeCount });
  if (result.kind === 'deferred') return runStoredMetric(deps, p, metric, result.networkId, result.params, opts);
  deps.log?.info(
    { metric: metric.id, nodes: result.stats.nodeCount, edges: result.stats.edgeCount, parseMs: result.stats.parseMs, computeMs: result.stats.computeMs, elapsedMs: Math.round(performance.now() - started) },
    'metric computed',
  );
  return { json: result.response as Uint8Array };
}

/**
 * A metric on a stored network whose access the caller has already checked (embedded sessions: the
 * viewer's metric calls and its AI chat). Never written back; the answer is what a `networkJSON` call
 * answers (a bare number or `{ values, meta }`). The pool gets a copy of `network.text`: it transfers a
 * task's buffer to the worker thread (detaching it here), and callers keep theirs — the chat's network
 * cache, the viewer's write-back (a view of the same memory answered 500 "Unexpected end of JSON input"
 * on networks over 64 KiB of JSON).
 */
export async function runReadOnlyMetric(deps: MetricRunDeps, metric: AnyMetric, network: { text: Uint8Array; directed: boolean; nodeCount: number }, params: Record<string, unknown>, opts: RunOptions = {}): Promise<Uint8Array> {
  const result = await computeMetric(deps, metric, { kind: 'stored', text: new Uint8Array(network.text), networkDirected: network.directed, params }, { ...opts, writeBack: false, nodeCount: network.nodeCount });
  if (result.kind === 'deferred' || !result.response) throw new Error('unexpected metric reply');
  return result.response;
}

/**
 * Discover viewers (public-mode Explore, anonymous or not) in their own budget, never the owning
 * organization's hourly allowance (issue 19 finding 7: strangers spent 3,000 in 5.7 s and the
 * organization's own viewer was refused for 51 min): per client address
 * (NETLOOM_DISCOVER_METRICS_PER_IP_PER_HOUR) and per Public network
 * (NETLOOM_DISCOVER_METRICS_PER_NETWORK_PER_HOUR), each reserved atomically (Redis INCR or one SQL
 * upsert … RETURNING). A run refused by the network's budget gives the address's slot back.
 */
async function checkDiscoverMetric(ctx: EmbedContext, networkId: string, clientIp: string): Promise<void> {
  const limits = ctx.config.embed.discover;
  await checkRate(ctx, `discover:ip:${clientIp}:metrics`, limits.metricsPerIpPerHour, 'metric calculations of Discover viewers from one address');
  try {
    await checkRate(ctx, `discover:net:${networkId}:metrics`, limits.metricsPerNetworkPerHour, 'metric calculations of Discover viewers of this network');
  } catch (err) {
    await ctx.state.unhit(`discover:ip:${clientIp}:metrics`, Math.floor(ctx.now() / HOUR_MS) * HOUR_MS);
    throw err;
  }
}

/**
 * What every viewer metric run checks before any work (the synchronous call and the viewer's jobs alike):
 * the metric and its kind, the body (the metric's parameters only), the plan (owner-mode Explore: the
 * web user's; otherwise the session's organization's), then the hourly allowance (per user in owner
 * mode, else per organization; Discover viewers: their own budget, checkDiscoverMetric). `owner` is the
 * web user's principal in owner-mode Explore; `clientIp` the caller's address.
 */
export async function checkSessionMetric(deps: MetricRunDeps, ctx: EmbedContext, live: LiveSession, kind: 'network' | 'nodes', metricId: string, rawBody: unknown, clientIp: string): Promise<{ metric: AnyMetric; owner: Principal | null; params: Record<string, unknown> }> {
  const metric = metricById(metricId);
  if ((metric.kind === 'node') !== (kind === 'nodes')) throw new DomainError('NOT_FOUND', `no metric ${kind}/${metricId}`);
  const body = (rawBody ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new DomainError('INVALID_ARGS', 'body must be an object of metric parameters');
  for (const k of ['networkId', 'networkJSON', 'isDirected']) {
    if (k in body) throw new DomainError('INVALID_ARGS', `${k}: the viewer computes on the session's network only`, [{ path: `/${k}`, message: 'is not accepted here' }]);
  }
  // Explore of the web app in owner mode (domain/embedding/explore.ts): the signed-in user's plan, counted per user.
  const owner = live.explore?.mode === 'owner' ? live.explore.principal : null;
  if (owner) await checkMetricPlan(deps.db, owner, metric);
  else {
    const org = await getOrganizationById(deps.db, live.session.org_id);
    if (!org || !METRIC_PLANS.includes(org.plan)) throw new DomainError('PLAN_REQUIRED', 'metrics need an Enterprise or Partner plan for the organization');
  }
  const req = parseMetricRequest(metric, { ...body, networkId: live.session.network_id }, { maxNodes: deps.limits.maxNodes, maxEdges: deps.limits.maxEdges });
  if (live.explore?.mode === 'public') await checkDiscoverMetric(ctx, live.session.network_id, clientIp);
  else await checkRate(ctx, owner ? `user:${owner.userId}:metrics` : `org:${live.session.org_id}:metrics`, limitsOf(ctx, live.settings).metricsPerHour, 'embedded metric calculations');
  return { metric, owner, params: req.params };
}

/**
 * An embedded viewer's metric run (`POST /api/v2/embed/viewer/metrics/:kind/:metricId`): on the session's
 * stored network, never written back (the viewer may have View only; results go to the viewer's own
 * display, like a `networkJSON` call). Checks: organization plan, then the per-organization hourly
 * allowance, then one run at a time per session.
 */
export async function runSessionMetric(deps: MetricRunDeps, ctx: EmbedContext, live: LiveSession, kind: 'network' | 'nodes', metricId: string, rawBody: unknown, clientIp: string, opts: RunOptions = {}): Promise<Uint8Array> {
  const checked = await checkSessionMetric(deps, ctx, live, kind, metricId, rawBody, clientIp);
  const { metric, owner } = checked;
  const params = metric.id === 'groups' ? withGroupFloor(checked.params, await surveyGroupFloor(deps.db, live.session.network_id)) : checked.params;
  const lockKey = `session:${live.session.id}:metric`;
  if (!(await ctx.state.acquire(lockKey, deps.limits.metricTimeoutMs + 10_000, ctx.now()))) {
    throw new RateLimitedError('one metric calculation at a time per session; another one is running', 1);
  }
  try {
    const stored = await loadStoredNetwork(deps.db, null, live.session.network_id);
    // runReadOnlyMetric hands the pool a copy, so stored.text is still whole for the write-back
    const text = owner && live.explore?.access !== 'read' && metric.kind === 'node' ? stored.text : null;
    const answer = await runReadOnlyMetric(deps, metric, { text: stored.text, directed: stored.directed, nodeCount: stored.net.node_count }, params, opts);
    // Owner mode with edit access: the node values are written to the stored network, as by the API.
    if (text) {
      const { values, meta } = JSON.parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength).toString('utf8')) as { values?: NodeValues; meta?: Record<string, unknown> };
      if (values) await writeBack(deps.db, { id: stored.net.id, version: stored.version }, { network: { text, values: [{ metric, values }] }, tail: { meta: meta ?? {} } });
    }
    await audit(ctx, live.session.org_id, sessionActor(live.session), 'metric.run', live.user.external_id, {
      sessionId: live.session.id,
      networkId: live.session.network_id,
      metric: metric.id,
    });
    return answer;
  } finally {
    await ctx.state.release(lockKey);
  }
}

/** The AI chat's metric runs (domain/embedding/chat.ts ComputeFn): read-only, values by attribute. */
export function chatCompute(deps: MetricRunDeps): ComputeFn {
  return async (metricId, params, network, signal) => {
    const r = await runReadOnlyMetric(deps, metricById(metricId), network, params, { signal });
    const body = JSON.parse(Buffer.from(r.buffer, r.byteOffset, r.byteLength).toString('utf8')) as { values?: Record<string, Record<string, number | string>> };
    return body.values ?? {};
  };
}
