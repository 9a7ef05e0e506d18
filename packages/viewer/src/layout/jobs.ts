/**
 * The iterative layouts as resumable jobs (DOM-free; driven by the layout worker in batches, unit-tested
 * in layout.test.ts): ForceAtlas2 (graphology-layout-forceatlas2's own iteration) and noverlap
 * (graphology-layout-noverlap's). Each batch runs iterations for a time budget and reports how far the
 * nodes moved, so the job can stop by itself once the drawing has settled (docs/embedding.md, "Layouts").
 */
import forceAtlas2 from 'graphology-layout-forceatlas2';
import fa2Iterate from 'graphology-layout-forceatlas2/iterate.js';
import noverlapIterate from 'graphology-layout-noverlap/iterate.js';
import { FA2_CONVERGED_BELOW } from './protocol.ts';

export interface Fa2Settings {
  linLogMode: boolean;
  outboundAttractionDistribution: boolean;
  adjustSizes: boolean;
  edgeWeightInfluence: number;
  scalingRatio: number;
  strongGravityMode: boolean;
  gravity: number;
  slowDown: number;
  barnesHutOptimize: boolean;
  barnesHutTheta: number;
}

/** The library's defaults (graphology-layout-forceatlas2/defaults.js). */
export const FA2_DEFAULTS: Fa2Settings = {
  linLogMode: false,
  outboundAttractionDistribution: false,
  adjustSizes: false,
  edgeWeightInfluence: 1,
  scalingRatio: 1,
  strongGravityMode: false,
  gravity: 1,
  slowDown: 1,
  barnesHutOptimize: false,
  barnesHutTheta: 0.5,
};

/** Nodes from which ForceAtlas2 uses the Barnes–Hut approximation (O(n log n) repulsion instead of O(n²)). */
export const BARNES_HUT_FROM = 2000;

/**
 * The settings of a run: the library's defaults, then what it infers from the network's size (strong
 * gravity, scaling, slow-down), then Barnes–Hut above BARNES_HUT_FROM nodes. `inferSettings` alone leaves
 * e.g. `edgeWeightInfluence` undefined, which makes every position NaN.
 */
export function fa2Settings(order: number): Fa2Settings {
  return { ...FA2_DEFAULTS, ...forceAtlas2.inferSettings(order), barnesHutOptimize: order > BARNES_HUT_FROM };
}

const FA2_PPN = 10;
const FA2_PPE = 3;

export interface LayoutInput {
  /** x, y of node i at 2i, 2i + 1. */
  positions: Float32Array;
  /** Edge endpoints as node indices: source of edge k at 2k, target at 2k + 1. */
  edges: Uint32Array;
  /** Edge weights (positive, finite), or null for 1. */
  weights: Float32Array | null;
  /** Node display sizes (noverlap: radii in graph units). */
  sizes?: Float32Array;
}

export interface BatchResult {
  positions: Float32Array;
  iterations: number;
  /** Mean distance a node moved per iteration in this batch, relative to the drawing's extent. */
  movement: number;
  done: false | 'converged' | 'limit';
}

function extent(p: Float32Array): number {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    if (p[i] < minX) minX = p[i];
    if (p[i] > maxX) maxX = p[i];
    if (p[i + 1] < minY) minY = p[i + 1];
    if (p[i + 1] > maxY) maxY = p[i + 1];
  }
  return Math.max(maxX - minX, maxY - minY, 1e-9);
}

export { FA2_CONVERGED_BELOW } from './protocol.ts';

/**
 * A layout run over its library's node matrix: `stride` numbers a node, its x and y first (the matrix
 * the library iterates on in place; positions are read back from it).
 */
abstract class Job {
  iterations = 0;
  maxIterations: number;
  #calm = 0;
  protected readonly nodes: Float32Array;
  readonly #stride: number;
  protected readonly order: number;
  constructor(maxIterations: number, nodes: Float32Array, stride: number) {
    this.maxIterations = maxIterations;
    this.nodes = nodes;
    this.#stride = stride;
    this.order = nodes.length / stride;
  }
  protected abstract iterate(): boolean;
  protected convergedBelow = FA2_CONVERGED_BELOW;

  protected read(out: Float32Array): void {
    for (let i = 0; i < this.order; i++) {
      out[2 * i] = this.nodes[i * this.#stride];
      out[2 * i + 1] = this.nodes[i * this.#stride + 1];
    }
  }

  /** Runs iterations for about `budgetMs` (at least one). */
  batch(budgetMs: number, now: () => number = () => performance.now()): BatchResult {
    const before = new Float32Array(2 * this.order);
    this.read(before);
    const t0 = now();
    let k = 0;
    let selfConverged: boolean;
    do {
      selfConverged = this.iterate();
      k++;
      this.iterations++;
    } while (!selfConverged && this.iterations < this.maxIterations && now() - t0 < budgetMs);
    const after = new Float32Array(2 * this.order);
    this.read(after);
    let moved = 0;
    for (let i = 0; i < after.length; i += 2) moved += Math.hypot(after[i] - before[i], after[i + 1] - before[i + 1]);
    const movement = this.order ? moved / this.order / k / extent(after) : 0;
    let finite = true;
    for (let i = 0; i < after.length && finite; i++) finite = Number.isFinite(after[i]);
    if (!finite) throw new Error('the layout produced a non-finite position');
    this.#calm = movement < this.convergedBelow ? this.#calm + 1 : 0;
    const done = selfConverged || this.#calm >= 3 || this.order < 2 ? 'converged' : this.iterations >= this.maxIterations ? 'limit' : false;
    return { positions: after, iterations: this.iterations, movement, done };
  }
}

/** ForceAtlas2's node and edge matrices for `input` (mass = 1 + degree, as graphToByteArrays). */
function fa2Matrices(input: LayoutInput): { nodes: Float32Array; edges: Float32Array } {
  const n = input.positions.length / 2;
  const nodes = new Float32Array(n * FA2_PPN);
  const m = input.edges.length / 2;
  const edges = new Float32Array(m * FA2_PPE);
  for (let i = 0; i < n; i++) {
    nodes[i * FA2_PPN] = input.positions[2 * i];
    nodes[i * FA2_PPN + 1] = input.positions[2 * i + 1];
    nodes[i * FA2_PPN + 6] = 1; // mass, + degree below
    nodes[i * FA2_PPN + 7] = 1; // convergence
    nodes[i * FA2_PPN + 8] = input.sizes ? input.sizes[i] : 1;
  }
  for (let k = 0; k < m; k++) {
    const s = input.edges[2 * k];
    const t = input.edges[2 * k + 1];
    nodes[s * FA2_PPN + 6]++;
    nodes[t * FA2_PPN + 6]++;
    edges[k * FA2_PPE] = s * FA2_PPN;
    edges[k * FA2_PPE + 1] = t * FA2_PPN;
    edges[k * FA2_PPE + 2] = input.weights ? input.weights[k] : 1;
  }
  return { nodes, edges };
}

/** ForceAtlas2 on the library's node/edge matrices. */
export class Fa2Job extends Job {
  readonly settings: Fa2Settings;
  #edges: Float32Array;

  constructor(input: LayoutInput, opts: { settings?: Partial<Fa2Settings>; maxIterations?: number } = {}) {
    const { nodes, edges } = fa2Matrices(input);
    super(opts.maxIterations ?? 5000, nodes, FA2_PPN);
    this.settings = { ...fa2Settings(this.order), ...opts.settings };
    this.#edges = edges;
  }

  protected iterate(): boolean {
    fa2Iterate(this.settings, this.nodes, this.#edges);
    return false;
  }
}

export interface NoverlapSettings {
  gridSize: number;
  margin: number;
  expansion: number;
  ratio: number;
  speed: number;
}

/** noverlap's node matrix for `input`: x, y, radius. */
function noverlapNodes(input: LayoutInput): Float32Array {
  const n = input.positions.length / 2;
  const nodes = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    nodes[3 * i] = input.positions[2 * i];
    nodes[3 * i + 1] = input.positions[2 * i + 1];
    nodes[3 * i + 2] = input.sizes ? input.sizes[i] : 1;
  }
  return nodes;
}

/** noverlap: pushes apart nodes whose discs (radius `sizes[i]` + margin) overlap, until none do. */
export class NoverlapJob extends Job {
  readonly settings: NoverlapSettings;

  constructor(input: LayoutInput, opts: { settings?: Partial<NoverlapSettings>; maxIterations?: number } = {}) {
    super(opts.maxIterations ?? 500, noverlapNodes(input), 3);
    this.settings = { gridSize: 20, margin: 5, expansion: 1.1, ratio: 1, speed: 3, ...opts.settings };
    this.convergedBelow = 0; // noverlap says itself when no discs overlap any more
  }

  protected iterate(): boolean {
    return noverlapIterate(this.settings, this.nodes).converged;
  }
}
