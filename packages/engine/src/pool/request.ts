/**
 * The body of a metric request (docs/spec/api.md "Metrics", docs/spec/decisions.md §4.3), parsed and validated the same way
 * wherever it happens: on the server's event loop for small bodies, inside a pool worker for big ones
 * (so a big `networkJSON` is never parsed on the event loop), and in the CLI.
 *
 * Body = common parameters (`networkId` String | `networkJSON` Object — exactly one; `isDirected`
 * Boolean or "true"/"false" for `networkJSON`, default true) + the metric's own parameters (its TypeBox
 * schema, closed: unknown keys are 400). Every problem is reported with a JSON pointer.
 *
 * Also here: the response text of a run (`responseText`, the exact API answer the CLI prints too) and
 * the write-back of node values onto a stored network (`applyNodeValues`).
 */
import type { AnyMetric } from '../metrics/types.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { validateNetworkJSON } from '../graph/network-json.ts';
import { resolveParams, type RunOutput } from '../metrics/run.ts';
import { EngineError, invalidArgsOf, type ProblemItem } from '../errors.ts';

/** Body keys common to every metric endpoint (the server adds them to each metric's schema). */
export const COMMON_KEYS = ['networkId', 'networkJSON', 'isDirected'] as const;

export interface RequestLimits {
  maxNodes?: number;
  maxEdges?: number;
}

export interface MetricRequest {
  /** Set for a stored network: the caller loads it (access checks) and runs the metric on it. */
  networkId?: string;
  /** Set (validated, cleaned) when the body carries `networkJSON`. */
  network?: NetworkJSON;
  /** Body `isDirected` (networkJSON only; default true). */
  isDirected: boolean;
  /** The metric's own parameters, validated, defaults filled in. */
  params: Record<string, unknown>;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseBooleanish(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/**
 * A body's `isDirected` — metric bodies here, `POST/PUT /networks` bodies in the server (docs/spec/api.md):
 * true when absent or null, else a Boolean or the String "true" or "false"; anything else adds a problem
 * at `/isDirected` to `problems` (and gives the default).
 */
export function isDirectedOf(body: Record<string, unknown>, problems: ProblemItem[]): boolean {
  if (body.isDirected === undefined || body.isDirected === null) return true;
  const v = parseBooleanish(body.isDirected);
  if (v === undefined) problems.push({ path: '/isDirected', message: 'must be a Boolean (or the String "true" or "false")' });
  return v ?? true;
}

function invalid(problems: ProblemItem[]): EngineError {
  return invalidArgsOf(problems, '');
}

type Schema = Record<string, unknown>;

/** What a parameter schema accepts, in words ("a Number from 0 to 100", "one of \"sum\", \"average\""). */
export function describeSchema(schema: Schema): string {
  const alts = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alts)) {
    if (alts.every((a) => 'const' in a)) return `one of ${alts.map((a) => JSON.stringify(a.const)).join(', ')}`;
    return alts.map(describeSchema).join(' or ');
  }
  if (Array.isArray(schema.enum)) return `one of ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if ('const' in schema) return JSON.stringify(schema.const);
  const range = (lo: unknown, hi: unknown, xlo: unknown, xhi: unknown) => {
    if (typeof lo === 'number' && typeof hi === 'number') return ` from ${lo} to ${hi}`;
    const parts: string[] = [];
    if (typeof lo === 'number') parts.push(`at least ${lo}`);
    if (typeof xlo === 'number') parts.push(`greater than ${xlo}`);
    if (typeof hi === 'number') parts.push(`at most ${hi}`);
    if (typeof xhi === 'number') parts.push(`less than ${xhi}`);
    return parts.length ? ` ${parts.join(' and ')}` : '';
  };
  switch (schema.type) {
    case 'number':
      return `a Number${range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum)}`;
    case 'integer':
      return `a whole Number${range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum)}`;
    case 'boolean':
      return 'a Boolean';
    case 'string':
      return typeof schema.minLength === 'number' && schema.minLength > 0 ? 'a non-empty String' : 'a String';
    case 'array':
      return `an Array${typeof schema.minItems === 'number' && schema.minItems > 0 ? ` of at least ${schema.minItems} item${schema.minItems > 1 ? 's' : ''}` : ''}`;
    case 'object':
      return 'an Object';
    default:
      return 'a valid value';
  }
}

/**
 * Turns the schema checker's raw problems into one readable problem per parameter: an unknown key is
 * "not a known parameter", a top-level type/range/enum violation says what the parameter accepts; deeper
 * problems (inside an object or array parameter) keep their own message. Paths are JSON pointers.
 */
export function readableParamProblems(metric: AnyMetric, raw: ProblemItem[]): ProblemItem[] {
  const props = ((metric.params as unknown as Schema).properties ?? {}) as Record<string, Schema>;
  const known = Object.keys(props);
  const out = new Map<string, ProblemItem>();
  for (const p of raw) {
    const segs = p.path.split('/').slice(1);
    const key = segs[0] ?? '';
    if (key === '') {
      if (!out.has(p.path)) out.set(p.path, p);
      continue;
    }
    if (!Object.hasOwn(props, key)) {
      out.set(`/${key}`, { path: `/${key}`, message: `is not a known parameter of ${metric.id}${known.length ? ` (known: ${[...COMMON_KEYS, ...known].join(', ')})` : ` (it takes only ${COMMON_KEYS.join(', ')})`}` });
      continue;
    }
    if (segs.length === 1) {
      const required = p.message.includes('required') || p.message.includes('must have');
      out.set(p.path, { path: p.path, message: required ? `is required (${describeSchema(props[key])})` : `must be ${describeSchema(props[key])}` });
    } else if (!out.has(p.path)) out.set(p.path, p);
  }
  return [...out.values()];
}

/**
 * Validates a parsed body for `metric`; throws EngineError INVALID_ARGS listing every problem, or
 * PAYLOAD_TOO_LARGE when networkJSON is over the node/edge limits. Cleans `networkJSON` in place.
 */
export function parseMetricRequest(metric: AnyMetric, body: unknown, limits: RequestLimits = {}): MetricRequest {
  if (!isObj(body)) throw invalid([{ path: '', message: 'body must be a JSON object with `networkId` or `networkJSON`' }]);
  const problems: ProblemItem[] = [];
  const hasId = body.networkId !== undefined && body.networkId !== null;
  const hasJSON = body.networkJSON !== undefined && body.networkJSON !== null;
  if (hasId && hasJSON) {
    problems.push({ path: '/networkId', message: 'give either networkId or networkJSON, not both' });
  } else if (!hasId && !hasJSON) {
    problems.push({ path: '/networkJSON', message: 'networkId or networkJSON is required (exactly one of them)' });
  }
  if (hasId && (typeof body.networkId !== 'string' || body.networkId.length === 0 || body.networkId.length > 200)) {
    problems.push({ path: '/networkId', message: 'must be a non-empty String (a network id)' });
  }
  const isDirected = isDirectedOf(body, problems);
  const own: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!(COMMON_KEYS as readonly string[]).includes(k)) own[k] = v;
  let params: Record<string, unknown> = {};
  try {
    params = resolveParams(metric, own);
  } catch (err) {
    if (err instanceof EngineError) problems.push(...readableParamProblems(metric, err.errors));
    else throw err;
  }
  let network: NetworkJSON | undefined;
  if (hasJSON && !hasId) {
    if (!isObj(body.networkJSON)) {
      problems.push({ path: '/networkJSON', message: 'must be an object with a `nodes` array' });
    } else {
      const res = validateNetworkJSON(body.networkJSON, { maxNodes: limits.maxNodes, maxEdges: limits.maxEdges, maxProblems: 100 });
      if (res.tooLarge) throw new EngineError('PAYLOAD_TOO_LARGE', res.tooLarge);
      for (const p of res.problems) problems.push({ path: `/networkJSON${p.path}`, message: p.message });
      if (res.ok) network = body.networkJSON as NetworkJSON;
    }
  }
  if (problems.length > 0) throw invalid(problems);
  // Cross-parameter checks that need the network (e.g. brokerage `partition` naming every node).
  if (network && metric.validate) metric.validate(params, network);
  return { networkId: hasId ? (body.networkId as string) : undefined, network, isDirected, params };
}

/** The exact API answer for a run on `networkJSON` (and what the CLI prints): a bare number, `{ values, meta }`, or a report with `meta`. */
export function responseText(out: RunOutput): string {
  if (out.kind === 'network') return JSON.stringify(Number.isFinite(out.value) ? out.value : 0);
  if (out.kind === 'report') return JSON.stringify({ ...out.value, meta: out.meta });
  return JSON.stringify({ values: out.values, meta: out.meta });
}

/**
 * Attribute names a run of `metric` owns on stored nodes: the names it wrote plus its documented ones.
 * Documented dynamic names (`Community - Level 1..L`, `K-Clique Community 1..K`) own every attribute
 * `<prefix> <number>`, so a rerun that finds fewer levels/communities leaves none of the old ones behind.
 */
export function ownedAttributes(metric: AnyMetric, written: string[]): { exact: Set<string>; prefixes: string[] } {
  const exact = new Set(written);
  const prefixes: string[] = [];
  if (metric.kind === 'node') {
    for (const a of metric.attributes) {
      const m = /^(.*?)\s+1\.\.[A-Z]\b/.exec(a);
      if (m) prefixes.push(m[1] + ' ');
      else exact.add(a);
    }
  }
  return { exact, prefixes };
}

/**
 * Writes node-metric values onto a stored network in place (docs/spec/decisions.md §4.3): each scored node gets the
 * value (Number or String); a node that is not scored loses that attribute; owned dynamic attributes
 * that were not written this time are removed. Returns the network.
 */
export function applyNodeValues(network: NetworkJSON, metric: AnyMetric, values: Record<string, Record<string, number | string>>): NetworkJSON {
  const written = Object.keys(values);
  const { exact, prefixes } = ownedAttributes(metric, written);
  const isOwnedDynamic = (k: string) => prefixes.some((p) => k.startsWith(p) && /^\d+$/.test(k.slice(p.length)));
  for (const node of network.nodes) {
    const id = String(node.id);
    let attrs = node.attributes;
    if (attrs) {
      for (const k of Object.keys(attrs)) if (exact.has(k) || isOwnedDynamic(k)) delete attrs[k];
    }
    for (const a of written) {
      const v = values[a][id];
      if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) continue;
      if (!attrs) {
        attrs = {};
        node.attributes = attrs;
      }
      attrs[a] = v;
    }
  }
  return network;
}
