/**
 * The shape of one metric endpoint in the registry. The server generates routes, request validation,
 * OpenAPI and docs/metrics.md from these entries; the worker pool and the CLI run them.
 */
import type { TObject, TSchema } from 'typebox';
import type { NetworkJSON } from '../graph/network-json.ts';
import type { Progress } from '../kernels/progress.ts';

/**
 * `network`: one number; `node`: values per node; `report`: a structured answer about the whole network
 * (e.g. the group report, docs/spec/decisions.md §11), never written to the network.
 */
export type MetricKind = 'network' | 'node' | 'report';

/** What a run gets. `params` are validated and have their defaults filled in. */
export interface MetricContext<P = Record<string, unknown>> {
  network: NetworkJSON;
  /** Whether the network itself is directed (stored `isDirected`, or body `isDirected`, default true). */
  networkDirected: boolean;
  params: P;
  /** Seed for randomised metrics (derived from content + params unless `params.seed` is given). */
  seed: number;
  /** Throws EngineError METRIC_TIMEOUT when the deadline has passed; call between outer iterations. */
  checkpoint: () => void;
  /**
   * Optional progress sink (kernels/progress.ts): metrics whose time goes into a source loop or an
   * iteration forward it to their kernels — sources done / total (a shard: its own sources),
   * iterations / maxIter, or nodes done for current-flow closeness. Absent = nobody listens.
   */
  progress?: Progress;
}

/** Per-node values for one output attribute, indexed by node index; `undefined`/non-finite = not scored. */
export type NodeValues = ArrayLike<number | string | undefined | null>;

export interface NodeMetricResult {
  /** attribute name -> values by node index. Order of keys = order of attributes written. */
  values: Record<string, NodeValues>;
  /** Metric-specific figures for `meta` (docs/spec/metrics-extra.md), e.g. modularity, communityCount. */
  meta?: Record<string, unknown>;
}

interface MetricBase<P> {
  /** Endpoint id exactly as docs/spec/api.md spells it (`betweennessCentrality`, `HITS`). */
  id: string;
  kind: MetricKind;
  /** One-line description for OpenAPI and docs. */
  summary: string;
  /**
   * Parameter schema of the metric's own parameters (not networkId/networkJSON/isDirected, which the
   * server adds). Must be an object schema with `additionalProperties: false`, defaults on optional
   * parameters, ranges and enums. Include `metricEdgeWeights` when the endpoint accepts it.
   */
  params: TObject;
  /** Randomised metric: accepts an optional `seed` and reports `meta.seed`. */
  randomized?: boolean;
  /** Needs the caller to belong to an organization (informal*). */
  requiresOrganization?: boolean;
  /** Has `kPercent`: the timeout message suggests lowering it. */
  sampling?: boolean;
  /** Cross-parameter checks beyond the schema (throw EngineError INVALID_ARGS with the path). */
  validate?: (params: P, network: NetworkJSON) => void;
}

export interface NodeMetric<P = Record<string, unknown>> extends MetricBase<P> {
  kind: 'node';
  /** Attribute names written, for docs (dynamic names such as `K-Clique Community 1..K` described in text). */
  attributes: string[];
  run: (ctx: MetricContext<P>) => NodeMetricResult;
  /** Optional: lets the worker pool split the metric's source loop across cores (see SourceParallel). */
  parallel?: SourceParallel<P>;
}

/**
 * Extension point for source-loop metrics (betweenness, closeness, harmonic, load): their time goes into
 * a loop over source nodes whose per-source contributions add up, so the pool can split that loop across
 * workers (packages/engine/src/pool/README.md):
 * 1. each of `count` workers parses the network and calls `partial(ctx, { index, count })`, which picks
 *    the sources exactly as `run` would (e.g. the seeded sample for `kPercent` < 100, so every shard
 *    agrees), runs the kernel on its shard of them (`shardSources` in pool/shard.ts: strided, for
 *    balance) and returns the raw accumulator arrays (length n each, before any scaling);
 * 2. the pool sums the shards' arrays element-wise;
 * 3. one worker calls `finish(ctx, summed)` for scaling/normalisation and returns the result.
 * Invariant (tested per metric): `finish(ctx, Σ_i partial(ctx, {i, count}))` equals `run(ctx)` within
 * floating-point error, for every `count` ≥ 1.
 */
export interface SourceParallel<P = Record<string, unknown>> {
  /** Smallest node count worth splitting (each shard pays parse + graph build); default 1,000. */
  minNodes?: number;
  partial: (ctx: MetricContext<P>, shard: { index: number; count: number }) => Float64Array[];
  finish: (ctx: MetricContext<P>, summed: Float64Array[]) => NodeMetricResult;
}

export interface NetworkMetric<P = Record<string, unknown>> extends MetricBase<P> {
  kind: 'network';
  run: (ctx: MetricContext<P>) => number;
}

/** A network report: a JSON object answered as is (with `meta` added); routed as `network/<id>`. */
export interface ReportMetric<P = Record<string, unknown>> extends MetricBase<P> {
  kind: 'report';
  /** The answer's wire schema (named: `$id`), for OpenAPI and the response serializer. */
  response: TSchema;
  /** The exact definition (Markdown) for docs/metrics.md: the answer's fields are more than a summary can say. */
  definition: string;
  run: (ctx: MetricContext<P>) => Record<string, unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMetric = NodeMetric<any> | NetworkMetric<any> | ReportMetric<any>;
