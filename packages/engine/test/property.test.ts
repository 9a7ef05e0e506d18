// Property tests against the live NetworkX oracle: fast-check generates random small networks
// (directed/undirected, numeric or string ids, weights `weight` and `cost`, parallel and reciprocal edges,
// self-loops, isolates, node attributes for partitions, an edge attribute `tie` for formal/informal
// ties) and parameters; the engine runs every case and ONE `python3 oracle/live.py` call answers the
// whole batch (JSON in, JSON out). live.py takes each metric's semantics from the fixture generators'
// helpers (fx_*.py), so the fixtures and these tests share one encoding of the reference.
//
// A failing metric is shrunk: fast-check replays the same seed (cached answers) and shrinks the first
// counterexample, asking a persistent `live.py --serve` for the new candidates (bounded by SHRINK_CALLS
// and SHRINK_MS); the failure message ends with the minimal counterexample as JSON.
//
// Runs per metric: env PROPERTY_RUNS (default 100, ~8 s on 2 cores; 400 runs ~25 s); env PROPERTY_SEED
// changes the networks drawn. Add a metric: an entry in ENTRIES below and a
// function in METRICS of live.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import fc from 'fast-check';
import { runMetric, type RunOutput } from '../src/metrics/run.ts';
import { EngineError } from '../src/errors.ts';
import { buildGraph, weightAttribute } from '../src/graph/build.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';
import { betweennessSources, closenessPivots } from '../src/metrics/paths.ts';

interface Case {
  metric: string;
  network: NetworkJSON;
  isDirected: boolean;
  params: Record<string, unknown>;
  sources?: string[];
  pivots?: string[];
}
type NodeExpected = Record<string, Record<string, number | string>>;
type Expected = NodeExpected | number | { error: string } | { expectError: string } | { skip: string };

const ORACLE = join(import.meta.dirname, 'oracle', 'live.py');
const RUNS_PER_METRIC = Number(process.env.PROPERTY_RUNS ?? 100);
/** Base seed (entry i uses BASE_SEED + i); vary it with env PROPERTY_SEED to explore other networks. */
const BASE_SEED = Number(process.env.PROPERTY_SEED ?? 20240611);
const SHRINK_CALLS = 400;
const SHRINK_MS = 30_000;

// ------------------------------------------------------------------ networks

/** Weights are exact binary fractions, so float sums are exact and ties are real ties (as in NetworkX). */
const WEIGHTS = [0.5, 1, 1.5, 2, 3, 4];
/** Node attribute values: strings, numbers, a number-like string ("1" equals 1 as a string), empty = no value. */
const groupArb = fc.option(fc.constantFrom<string | number>('a', 'b', 'c', 1, 2, '1', ''), { nil: undefined });
const teamArb = fc.option(fc.constantFrom('x', 'y'), { nil: undefined });
/** Values of the edge attribute `tie` (formal / informal structure). */
const TIE_VALUES: (string | number)[] = ['formal', 'informal', 'both', 1, '2'];

interface NetOptions {
  /** Weights may be 0 (brokerage: no tie with metricEdgeWeights). */
  zeroWeights?: boolean;
  maxNodes?: number;
  maxEdges?: number;
}

interface RawNetwork {
  directed: boolean;
  stringIds: boolean;
  nodes: { group?: string | number; team?: string }[];
  edges: { s: number; t: number; weight?: number; cost?: number; tie?: string | number }[];
}

function rawNetworkArb(opts: NetOptions = {}): fc.Arbitrary<RawNetwork> {
  const weightArb = fc.constantFrom(...(opts.zeroWeights ? [0, 0, ...WEIGHTS] : WEIGHTS));
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  return fc.record({
    directed: fc.boolean(),
    stringIds: fc.boolean(),
    nodes: fc.array(fc.record({ group: groupArb, team: teamArb }), { minLength: 1, maxLength: opts.maxNodes ?? 11 }),
    edges: fc.array(
      fc.record({ s: fc.nat(), t: fc.nat(), weight: opt(weightArb), cost: opt(weightArb), tie: opt(fc.constantFrom(...TIE_VALUES)) }),
      { maxLength: opts.maxEdges ?? 30 },
    ),
  });
}

const idOf = (raw: RawNetwork) => (i: number): string | number => (raw.stringIds ? `v${i}` : i * 3 + 1);

function toNetwork(raw: RawNetwork): NetworkJSON {
  const n = raw.nodes.length;
  const id = idOf(raw);
  const nodes = raw.nodes.map((a, i) => {
    const attributes: Record<string, string | number> = {};
    if (a.group !== undefined) attributes.group = a.group;
    if (a.team !== undefined) attributes.team = a.team;
    return Object.keys(attributes).length > 0 ? { id: id(i), attributes } : { id: id(i) };
  });
  const edges = raw.edges.map((e, k) => {
    const attributes: Record<string, string | number> = {};
    if (e.weight !== undefined) attributes.weight = e.weight;
    if (e.cost !== undefined) attributes.cost = e.cost;
    if (e.tie !== undefined) attributes.tie = e.tie;
    return { id: k, source: id(e.s % n), target: id(e.t % n), attributes };
  });
  return { nodes, edges };
}

// ------------------------------------------------------------------ metrics

type Params = Record<string, unknown>;

interface Entry {
  /** Label (metric id, or metric id / variant). */
  name: string;
  metric: string;
  tol: number;
  params: fc.Arbitrary<Params>;
  /** Final parameters from the generated ones and the network (e.g. a partition of its node ids). */
  build?: (p: Params, raw: RawNetwork) => Params;
  net?: NetOptions;
  /** Fail unless at least this share of the runs is checked (not skipped by the oracle). */
  minCheckedShare?: number;
  /** Fail unless at least this share of the runs expects NOT_CONVERGED. */
  minErrorShare?: number;
}

const weightsArb = fc.constantFrom<boolean | string | undefined>(undefined, true, 'cost');
const bool = fc.boolean();
const inOut = fc.constantFrom('in', 'out');
const optRecord = (r: Record<string, fc.Arbitrary<unknown>>, requiredKeys: string[] = []) =>
  fc.record(r, { requiredKeys }) as fc.Arbitrary<Params>;
const informalValues = fc.subarray<string | number>([...TIE_VALUES, 0.5, 1.5, 2, 3, 4], { minLength: 1 });
const informal: Pick<Entry, 'params'> = {
  params: optRecord(
    { fiFormalAttribute: fc.constantFrom('tie', 'weight'), fiFormalValues: informalValues, fiInformalAttribute: fc.constantFrom('tie', 'weight', 'cost'), fiInformalValues: informalValues },
    ['fiFormalAttribute', 'fiFormalValues', 'fiInformalAttribute', 'fiInformalValues'],
  ),
};

const ENTRIES: Entry[] = [
  // --- paths and degree
  {
    name: 'betweennessCentrality',
    metric: 'betweennessCentrality',
    tol: 1e-9,
    params: optRecord(
      { directed: bool, normalized: bool, metricEdgeWeights: weightsArb, kPercent: fc.constantFrom(100, 100, 30, 50, 80), seed: fc.nat() },
      ['directed', 'normalized', 'kPercent', 'seed'],
    ),
  },
  {
    name: 'closenessCentrality',
    metric: 'closenessCentrality',
    tol: 1e-9,
    params: optRecord(
      { directed: bool, normalized: bool, metricEdgeWeights: weightsArb, kPercent: fc.constantFrom(100, 100, 40, 70), seed: fc.nat() },
      ['directed', 'normalized', 'kPercent', 'seed'],
    ),
  },
  { name: 'harmonicCentrality', metric: 'harmonicCentrality', tol: 1e-9, params: fc.constant({}) },
  { name: 'loadCentrality', metric: 'loadCentrality', tol: 1e-9, params: optRecord({ normalized: bool, metricEdgeWeights: weightsArb }, ['normalized']) },
  { name: 'currentFlowClosenessCentrality', metric: 'currentFlowClosenessCentrality', tol: 1e-9, params: optRecord({ metricEdgeWeights: weightsArb }) },
  { name: 'diameter', metric: 'diameter', tol: 1e-9, params: fc.constant({}) },
  { name: 'avgShortestPathLength', metric: 'avgShortestPathLength', tol: 1e-9, params: fc.constant({}) },
  ...(['inDegree', 'outDegree', 'totalDegree'] as const).map((metric) => ({
    name: metric,
    metric,
    tol: 1e-9,
    params: optRecord({ metricEdgeWeights: weightsArb, type: fc.constantFrom('sum', 'average') }, ['type']),
  })),
  // --- spectral (iterative: 1e-6)
  { name: 'eigenvectorCentrality', metric: 'eigenvectorCentrality', tol: 1e-6, params: optRecord({ metricEdgeWeights: weightsArb }), minCheckedShare: 0.8 },
  {
    name: 'katzCentrality',
    metric: 'katzCentrality',
    tol: 1e-6,
    params: optRecord({ katzCentralityAlpha: fc.constantFrom(0.01, 0.02, 0.03, 0.05), normalized: bool, metricEdgeWeights: weightsArb }, ['katzCentralityAlpha']),
    minCheckedShare: 0.8,
  },
  {
    // alpha ≥ 1/λmax: the engine answers NOT_CONVERGED at once, NetworkX fails after 1000 steps
    name: 'katzCentrality/too-large alpha',
    metric: 'katzCentrality',
    tol: 1e-6,
    params: optRecord({ katzCentralityAlpha: fc.constantFrom(0.6, 1, 2, 10), normalized: bool, metricEdgeWeights: weightsArb }, ['katzCentralityAlpha']),
    net: { maxNodes: 8 },
    minCheckedShare: 0.6,
    minErrorShare: 0.3,
  },
  {
    name: 'HITS',
    metric: 'HITS',
    tol: 1e-6,
    params: optRecord({ normalized: bool }),
    minCheckedShare: 0.3,
  },
  { name: 'pageRank', metric: 'pageRank', tol: 1e-6, params: optRecord({ alpha: fc.constantFrom(0.85, 0.5, 0.95, 0.2), metricEdgeWeights: weightsArb }), minCheckedShare: 0.8 },
  // --- local and structural
  { name: 'clustering', metric: 'clustering', tol: 1e-9, params: optRecord({ directed: bool, metricEdgeWeights: weightsArb }) },
  ...(['constraint', 'effectiveSize', 'efficiency'] as const).map((metric) => ({ name: metric, metric, tol: 1e-9, params: optRecord({ metricEdgeWeights: weightsArb }) })),
  {
    name: 'averageNeighborDegree',
    metric: 'averageNeighborDegree',
    tol: 1e-9,
    params: optRecord({ averageNeighborDegreeSource: inOut, averageNeighborDegreeTarget: inOut, directed: bool, metricEdgeWeights: weightsArb }),
  },
  { name: 'coreNumber', metric: 'coreNumber', tol: 0, params: fc.constant({}) },
  { name: 'connectedComponents', metric: 'connectedComponents', tol: 0, params: fc.constant({}) },
  {
    name: 'modularity',
    metric: 'modularity',
    tol: 1e-9,
    params: optRecord({ attribute: fc.constantFrom('group', 'team', 'missing'), metricEdgeWeights: weightsArb }, ['attribute']),
  },
  { name: 'kCliqueCommunities', metric: 'kCliqueCommunities', tol: 0, params: optRecord({ kCliqueCommunities: fc.integer({ min: 2, max: 4 }) }) },
  // --- docs/spec/metrics-extra.md
  {
    name: 'brokerage',
    metric: 'brokerage',
    tol: 0,
    net: { zeroWeights: true },
    params: optRecord({ groups: fc.array(fc.constantFrom<string | number>('x', 'y', 'z', 0, 1, '1'), { minLength: 1, maxLength: 11 }), metricEdgeWeights: weightsArb }, ['groups']),
    build: ({ groups, ...rest }, raw) => {
      const g = groups as (string | number)[];
      const id = idOf(raw);
      return { ...rest, partition: Object.fromEntries(raw.nodes.map((_, i) => [String(id(i)), g[i % g.length]])) };
    },
  },
  {
    name: 'externalVsInternal',
    metric: 'externalVsInternal',
    tol: 1e-9,
    params: optRecord({ attribute: fc.constantFrom('group', 'team'), type: fc.constantFrom('total', 'in', 'out') }, ['attribute']),
  },
  {
    name: 'identifyInfluencers',
    metric: 'identifyInfluencers',
    tol: 0,
    params: optRecord(
      {
        direction: fc.constantFrom('total', 'in', 'out'),
        identifyInfluencersMethod: fc.constantFrom('coverage', 'count'),
        influencersCount: fc.integer({ min: 1, max: 6 }),
        targetCoveragePercent: fc.constantFrom(0, 30, 50, 90, 100),
        identifyInfluencersAttribute: fc.constantFrom('group', 'team'),
        identifyInfluencersAttributeValues: fc.subarray<string | number>(['a', 'b', 1, '2', 'x']),
      },
      ['identifyInfluencersMethod', 'influencersCount'],
    ),
    build: (p) => {
      const out = { ...p };
      if (out.identifyInfluencersMethod !== 'count') delete out.influencersCount;
      if (out.identifyInfluencersAttribute === undefined) delete out.identifyInfluencersAttributeValues;
      return out;
    },
  },
  { name: 'informalAlignment', metric: 'informalAlignment', tol: 1e-9, ...informal },
  { name: 'informalDistance', metric: 'informalDistance', tol: 1e-9, ...informal },
  {
    // threshold 1 (absolute, or a fraction that rounds to at most 1 here): deterministic, PL(s) = Σ d(s,j)/n
    name: 'complexCentrality',
    metric: 'complexCentrality',
    tol: 1e-9,
    params: optRecord({ fractional: fc.constantFrom(0.01, 0.04), normalized: bool }),
    build: ({ fractional, ...rest }) =>
      fractional === undefined
        ? { ...rest, complexCentralityThreshold: 1 }
        : { ...rest, complexCentralityThreshold: fractional, complexCentralityThresholdType: 'fractional' },
  },
];

function cleanParams(p: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(p)) if (v !== undefined) out[k] = v;
  return out;
}

/** Test-only extras: the sources / pivots the engine samples, so the oracle can use the same ones. */
function withSamples(c: Case): Case {
  const kPercent = c.params.kPercent as number | undefined;
  if (kPercent === undefined || kPercent >= 100) return c;
  const directed = c.isDirected && c.params.directed !== false;
  const g = buildGraph(c.network, { directed, weight: weightAttribute(c.params.metricEdgeWeights), selfLoops: false });
  const seed = c.params.seed as number;
  if (c.metric === 'betweennessCentrality') return { ...c, sources: Array.from(betweennessSources(g.n, kPercent, seed), (i) => g.ids[i]) };
  return { ...c, pivots: Array.from(closenessPivots(g, kPercent, seed).pivots, (i) => g.ids[i]) };
}

type Sample = [RawNetwork, Params];

function makeCase(e: Entry, [raw, p]: Sample): Case {
  const params = cleanParams(e.build ? e.build(p, raw) : p);
  return withSamples({ metric: e.metric, network: toNetwork(raw), isDirected: raw.directed, params });
}

// ------------------------------------------------------------------ oracle

function oracleBatch(cases: Case[]): Expected[] {
  const stdout = execFileSync('python3', [ORACLE], { input: JSON.stringify({ cases }), maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(stdout.toString()) as { results: Expected[] }).results;
}

/** A persistent `live.py --serve` (one case per line), for the few cases shrinking asks about. */
class OracleServer {
  private child = spawn('python3', [ORACLE, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  private waiting: ((e: Expected) => void)[] = [];
  constructor() {
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(JSON.parse(line) as Expected));
  }
  ask(c: Case): Promise<Expected> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(JSON.stringify(c) + '\n');
    });
  }
  close(): void {
    this.child.stdin.end();
  }
}

// ------------------------------------------------------------------ comparison

function close(a: number, e: number, tol: number): boolean {
  return a === e || Math.abs(a - e) <= tol * Math.max(1, Math.abs(e));
}

type Verdict = 'pass' | 'skip' | 'error-pass' | string;

/** 'pass' | 'skip' | 'error-pass' (both refused), or the mismatch description. */
function verdict(c: Case, exp: Expected, tol: number): Verdict {
  if (typeof exp === 'object' && 'skip' in exp) return 'skip';
  if (typeof exp === 'object' && 'error' in exp) return `oracle error ${JSON.stringify(exp)}`;
  let out: RunOutput;
  try {
    out = runMetric({ metric: c.metric, network: c.network, networkDirected: c.isDirected, params: c.params });
  } catch (err) {
    const code = err instanceof EngineError ? err.code : String(err);
    if (typeof exp === 'object' && 'expectError' in exp && code === exp.expectError) return 'error-pass';
    return `engine threw ${code}: ${(err as Error).message}; expected ${JSON.stringify(exp)}`;
  }
  if (typeof exp === 'object' && 'expectError' in exp) return `engine answered, NetworkX: ${exp.expectError}`;
  if (typeof exp === 'number') {
    if (out.kind !== 'network') return `expected a network value, got ${out.kind}`;
    return close(out.value, exp, tol) ? 'pass' : `got ${out.value}, expected ${exp}`;
  }
  if (out.kind !== 'node') return `expected node values, got ${out.kind}`;
  for (const [attr, values] of Object.entries(exp as NodeExpected)) {
    const got: Record<string, number | string> | undefined = out.values[attr];
    if (!got) return `attribute ${attr} missing (got ${Object.keys(out.values).join(', ')})`;
    const gk = Object.keys(got).sort();
    const ek = Object.keys(values).sort();
    if (JSON.stringify(gk) !== JSON.stringify(ek)) return `${attr}: scored nodes ${JSON.stringify(gk)}, expected ${JSON.stringify(ek)}`;
    for (const [id, v] of Object.entries(values)) {
      const a = got[id];
      const ok = typeof v === 'number' && typeof a === 'number' ? close(a, v, tol) : a === v;
      if (!ok) return `${attr}[${id}] = ${a}, expected ${v}`;
    }
  }
  const extra = Object.keys(out.values).filter((k) => !(k in (exp as NodeExpected)) && Object.keys(out.values[k]).length > 0);
  if (extra.length > 0) return `unexpected attributes ${extra.join(', ')}`;
  return 'pass';
}

const failed = (v: Verdict) => v !== 'pass' && v !== 'skip' && v !== 'error-pass';

function describe(c: Case): string {
  const { metric, isDirected, params, network, sources, pivots } = c;
  return JSON.stringify({ metric, isDirected, params, ...(sources ? { sources } : {}), ...(pivots ? { pivots } : {}), network });
}

// ------------------------------------------------------------------ the test

const arbOf = (e: Entry) => fc.tuple(rawNetworkArb(e.net), e.params);
const seedOf = (i: number) => BASE_SEED + i;

/** The samples fc.check draws for this seed (collected with a property that always holds). */
function samplesOf(e: Entry, seed: number): Sample[] {
  const out: Sample[] = [];
  fc.check(fc.property(arbOf(e), (s) => void out.push(s)), { seed, numRuns: RUNS_PER_METRIC });
  return out;
}

/** Replays the seed with cached answers and shrinks the first failure; returns the minimal case. */
async function shrink(e: Entry, seed: number, cache: Map<string, Expected>, server: OracleServer) {
  const started = Date.now();
  let calls = 0;
  let last = '';
  const details = await fc.check(
    fc.asyncProperty(arbOf(e), async (s) => {
      const c = makeCase(e, s);
      const key = JSON.stringify(c);
      let exp = cache.get(key);
      if (exp === undefined) {
        if (calls >= SHRINK_CALLS || Date.now() - started > SHRINK_MS) return true; // budget spent: keep the best so far
        calls++;
        exp = await server.ask(c);
        cache.set(key, exp);
      }
      const v = verdict(c, exp, e.tol);
      if (failed(v)) last = v;
      return !failed(v);
    }),
    { seed, numRuns: RUNS_PER_METRIC },
  );
  const ce = details.counterexample as [Sample] | null;
  return { c: ce ? makeCase(e, ce[0]) : null, message: last, shrinks: details.numShrinks, calls };
}

test(`live NetworkX oracle: ${ENTRIES.length} metric entries × ${RUNS_PER_METRIC} random networks (seed ${BASE_SEED})`, async (t) => {
  const t0 = performance.now();
  const batches = ENTRIES.map((e, i) => samplesOf(e, seedOf(i)).map((s) => makeCase(e, s)));
  const all = batches.flat();
  const expected = oracleBatch(all);
  assert.equal(expected.length, all.length);
  const cache = new Map<string, Expected>(all.map((c, i) => [JSON.stringify(c), expected[i]]));
  t.diagnostic(`${all.length} cases; generation + oracle ${Math.round(performance.now() - t0)} ms`);
  let server: OracleServer | undefined;
  try {
    let offset = 0;
    for (const [i, e] of ENTRIES.entries()) {
      const cases = batches[i];
      const exps = expected.slice(offset, offset + cases.length);
      offset += cases.length;
      await t.test(e.name, async (st) => {
        const verdicts = cases.map((c, k) => verdict(c, exps[k], e.tol));
        const firstBad = verdicts.findIndex(failed);
        const skipped = verdicts.filter((v) => v === 'skip').length;
        const errors = verdicts.filter((v) => v === 'error-pass').length;
        st.diagnostic(`${cases.length} runs: ${cases.length - skipped} checked (${errors} both NOT_CONVERGED), ${skipped} skipped by the oracle`);
        if (firstBad >= 0) {
          server ??= new OracleServer();
          const bad = verdicts.filter(failed).length;
          const s = await shrink(e, seedOf(i), cache, server);
          assert.fail(
            `${e.name}: ${bad}/${cases.length} runs differ from NetworkX. First: ${verdicts[firstBad]}\n` +
              `first counterexample: ${describe(cases[firstBad])}\n` +
              (s.c
                ? `minimal counterexample (${s.shrinks} shrinks, ${s.calls} oracle calls): ${s.message}\n${describe(s.c)}`
                : 'shrinking did not reproduce the failure'),
          );
        }
        const checked = cases.length - skipped;
        if (e.minCheckedShare !== undefined && cases.length >= 20) {
          assert.ok(checked >= e.minCheckedShare * cases.length, `${e.name}: only ${checked}/${cases.length} runs checked`);
        }
        if (e.minErrorShare !== undefined && cases.length >= 20) {
          assert.ok(errors >= e.minErrorShare * cases.length, `${e.name}: only ${errors}/${cases.length} runs NOT_CONVERGED`);
        }
      });
    }
  } finally {
    server?.close();
  }
});
