/**
 * A read-only window onto the drawing for browser tests and support (`window.netloomInspect` in the
 * viewer's frame): node discs and edges on the canvas in viewport pixels, the canvas size, the layout
 * state and the camera. It changes nothing and exposes nothing the viewer page does not already hold (the host page,
 * on another origin, cannot reach it).
 */
import type { SigmaDisplay } from './display.ts';
import type { LayoutRunner, LayoutState } from './layout/runner.ts';
import { visibleDiscs, type Disc } from './layout/runner.ts';
import type { NetworkModel } from './model.ts';

export interface Inspect {
  /** Visible nodes: id and disc on the canvas (viewport px). */
  nodes(): (Disc & { id: string })[];
  /** Drawn edges (not filtered, both ends visible) as pairs of node ids. */
  edges(): [string, string][];
  canvas(): { width: number; height: number };
  layout(): LayoutState;
  /** Sigma's camera state (x, y, ratio, angle). */
  camera(): { x: number; y: number; ratio: number; angle: number };
  /** Ids of the nodes whose label was drawn in the last frame. */
  labels(): string[];
}

export function installInspect(display: SigmaDisplay, model: NetworkModel, layout: LayoutRunner): void {
  const r = display.renderer;
  const inspect: Inspect = {
    nodes: () => {
      const ids = model.ids.filter((id) => !r.getNodeDisplayData(id)?.hidden);
      return visibleDiscs(r, ids).map((d, k) => ({ id: ids[k], ...d }));
    },
    edges: () => model.edges.filter((e, k) => !r.getEdgeDisplayData(String(k))?.hidden && !r.getNodeDisplayData(model.ids[e.source])?.hidden && !r.getNodeDisplayData(model.ids[e.target])?.hidden).map((e) => [model.ids[e.source], model.ids[e.target]]),
    canvas: () => r.getDimensions(),
    layout: () => ({ ...layout.state }),
    camera: () => ({ ...r.getCamera().getState() }),
    labels: () => [...((r as unknown as { displayedNodeLabels: Set<string> }).displayedNodeLabels ?? [])],
  };
  (window as unknown as { netloomInspect: Inspect }).netloomInspect = inspect;
}
