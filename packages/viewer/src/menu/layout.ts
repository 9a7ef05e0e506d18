/**
 * Force-directed layout (ForceAtlas2) in a Web Worker, so the page keeps answering while it runs. A
 * small supervisor modelled on graphology-layout-forceatlas2/worker: the node and edge matrices go to the
 * worker, each answer (one iteration) is written back onto the drawn graph's x/y (sigma redraws), and
 * the next iteration is requested. Positions live in the drawing for the session: EmbedView v1 has no
 * positions, so a saved view keeps its camera but not the layout.
 */
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { assignLayoutChanges, graphToByteArrays } from 'graphology-layout-forceatlas2/helpers.js';
import type { AbstractGraph } from 'graphology-types';

export class LayoutRunner {
  #graph: AbstractGraph;
  #workerUrl: string | URL;
  #worker: Worker | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  iterations = 0;
  running = false;
  /** Called after every iteration and when the run stops. */
  onProgress: (running: boolean, iterations: number) => void = () => undefined;

  constructor(graph: AbstractGraph, workerUrl: string | URL) {
    this.#graph = graph;
    this.#workerUrl = workerUrl;
  }

  /** Starts (or keeps running); stops by itself after `maxMs`. */
  start(maxMs = 20_000): void {
    if (this.running) return;
    const order = this.#graph.order;
    const settings = { ...forceAtlas2.inferSettings(this.#graph), barnesHutOptimize: order > 2000, adjustSizes: false };
    const matrices = graphToByteArrays(this.#graph, () => 1);
    this.#worker = new Worker(this.#workerUrl);
    this.#worker.addEventListener('message', (e: MessageEvent<{ nodes: ArrayBuffer }>) => {
      if (!this.running) return;
      const nodes = new Float32Array(e.data.nodes);
      assignLayoutChanges(this.#graph, nodes, null);
      this.iterations++;
      this.onProgress(true, this.iterations);
      this.#worker?.postMessage({ settings, nodes: nodes.buffer }, [nodes.buffer]);
    });
    this.#worker.addEventListener('error', () => this.stop());
    this.running = true;
    this.iterations = 0;
    this.#worker.postMessage({ settings, nodes: matrices.nodes.buffer, edges: matrices.edges.buffer }, [matrices.nodes.buffer, matrices.edges.buffer]);
    this.#timer = setTimeout(() => this.stop(), maxMs);
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#worker?.terminate();
    this.#worker = null;
    if (this.running) {
      this.running = false;
      this.onProgress(false, this.iterations);
    }
  }
}
