/**
 * Messages between the viewer page and the layout worker (layout/worker.ts ⇄ layout/runner.ts).
 * Positions travel as Float32Array (x, y of node i at 2i, 2i + 1), transferred, never copied.
 */
import type { PlotAxis } from './arrange.ts';
import type { Fa2Settings, NoverlapSettings } from './jobs.ts';

/** Movement below which a ForceAtlas2 run has converged (per iteration, share of the extent), held for 3 batches (jobs.ts). */
export const FA2_CONVERGED_BELOW = 0.0005;

/**
 * Time budget of one batch in the worker, by network size: each batch's positions are drawn, and a drawing
 * update re-processes every node and edge on the page (about a second at 100k nodes in software WebGL), so
 * large networks get fewer, longer batches and the page stays responsive.
 */
export function batchMsFor(order: number, size: number): number {
  return Math.min(2000, Math.max(50, Math.round((order + size) / 200)));
}

export type LayoutKind = 'forceAtlas2' | 'noverlap' | 'circle' | 'circleByAttribute' | 'plot' | 'hierarchy';

export type LayoutRequest =
  | { kind: 'forceAtlas2'; positions: Float32Array; edges: Uint32Array; weights: Float32Array | null; settings?: Partial<Fa2Settings>; maxIterations?: number; batchMs?: number }
  | { kind: 'noverlap'; positions: Float32Array; sizes: Float32Array; settings?: Partial<NoverlapSettings>; maxIterations?: number; batchMs?: number }
  | { kind: 'circle'; order: number }
  | { kind: 'circleByAttribute'; groups: Int32Array }
  | { kind: 'plot'; x: PlotAxis; y: PlotAxis }
  /** `edges`: (parent, child) node index pairs, the reporting lines. */
  | { kind: 'hierarchy'; order: number; edges: Uint32Array };

export interface LayoutProgress {
  type: 'progress' | 'done';
  positions: Float32Array;
  iterations: number;
  movement: number;
  /** On `done`: why the run ended by itself. */
  reason?: 'converged' | 'limit';
}

export interface LayoutFailure {
  type: 'error';
  message: string;
}

export type LayoutReply = LayoutProgress | LayoutFailure;
