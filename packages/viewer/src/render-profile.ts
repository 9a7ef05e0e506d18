/**
 * How sigma draws a network of a given size on a given WebGL implementation (the thresholds are
 * documented in docs/embedding.md, "Large networks"). Measured in headless Chromium with software WebGL
 * (SwiftShader through ANGLE, 800 × 600, 2 loaded cores; bench/viewer.ts): sigma's instanced programs
 * (the antialiased `circle` node and the rectangle / arrow edge programs) cost about 30–40 µs per node or
 * edge per frame there, whatever the size on screen — 2 s a frame at 10k nodes / 50k edges — while the
 * non-instanced point and line programs cost 1–4 µs. On a real GPU instancing is cheap and the prettier
 * programs stay.
 */

/** Nodes + edges from which software WebGL draws nodes as points and edges as 1-pixel lines (no arrowheads). */
export const SOFTWARE_FAST_PROGRAMS_FROM = 2_000;
/** Edges from which edges are left out of frames while the camera moves: software WebGL / a GPU. */
export const HIDE_EDGES_ON_MOVE_FROM = { software: 20_000, gpu: 300_000 } as const;
/** Nodes from which labels are left out of frames while the camera moves: software WebGL / a GPU. */
export const HIDE_LABELS_ON_MOVE_FROM = { software: 50_000, gpu: 500_000 } as const;

export interface RenderProfile {
  /** Nodes as sigma's `NodePointProgram` (gl.POINTS), edges as `EdgeLineProgram` (gl.LINES, no arrowheads). */
  fastPrograms: boolean;
  hideEdgesOnMove: boolean;
  hideLabelsOnMove: boolean;
}

export function renderProfile(nodes: number, edges: number, software: boolean): RenderProfile {
  const t = software ? 'software' : 'gpu';
  return {
    fastPrograms: software && nodes + edges >= SOFTWARE_FAST_PROGRAMS_FROM,
    hideEdgesOnMove: edges >= HIDE_EDGES_ON_MOVE_FROM[t],
    hideLabelsOnMove: nodes >= HIDE_LABELS_ON_MOVE_FROM[t],
  };
}

/** The WebGL renderer's name says it rasterizes on the CPU (SwiftShader, llvmpipe, softpipe, WARP). */
export function isSoftwareRenderer(name: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(name);
}

/** Asks a throwaway WebGL context for the renderer's name (browser only; false when unknown). */
export function detectSoftwareWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return isSoftwareRenderer(name);
  } catch {
    return false;
  }
}
