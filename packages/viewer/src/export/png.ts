/**
 * PNG of the drawing at a chosen scale: a second, off-screen sigma renderer on the same graph with the
 * same settings and camera, its canvas `scale` times larger, node, edge and label sizes scaled alike (so
 * a 2× picture is the same drawing with twice the pixels). Its layers are composed onto the background
 * color in the order sigma stacks them. Scale 1 reads the visible canvases directly.
 */
import Sigma from 'sigma';

const LAYERS = ['edges', 'nodes', 'edgeLabels', 'labels', 'hovers', 'hoverNodes'];

function compose(canvases: Record<string, HTMLCanvasElement>, background: string, overlay?: (g: CanvasRenderingContext2D, size: { width: number; height: number }) => void): Promise<Blob | null> {
  const first = canvases.nodes ?? Object.values(canvases)[0];
  if (!first) return Promise.resolve(null);
  const out = document.createElement('canvas');
  out.width = first.width;
  out.height = first.height;
  const g = out.getContext('2d');
  if (!g) return Promise.resolve(null);
  g.fillStyle = background;
  g.fillRect(0, 0, out.width, out.height);
  for (const k of LAYERS) if (canvases[k]) g.drawImage(canvases[k], 0, 0, out.width, out.height);
  overlay?.(g, { width: out.width, height: out.height });
  return new Promise((res) => out.toBlob(res, 'image/png'));
}

/** `overlay` draws over the picture (the legend, export/legend.ts); it gets the picture's scale. */
export async function renderPng(renderer: Sigma, opts: { scale: number; background: string; overlay?: (g: CanvasRenderingContext2D, size: { width: number; height: number }, scale: number) => void }): Promise<Blob | null> {
  const scale = Math.max(1, Math.min(8, opts.scale));
  if (scale === 1) {
    // WebGL buffers are only readable in the task that drew them: draw now (an empty partial refresh
    // renders at once without re-processing), then copy.
    renderer.refresh({ partialGraph: { nodes: [] }, skipIndexation: true });
    // Canvases are in device pixels: the legend scales with the device pixel ratio.
    const first = renderer.getCanvases().nodes;
    const ratio = first ? first.width / renderer.getDimensions().width : 1;
    return compose(renderer.getCanvases(), opts.background, opts.overlay && ((g, size) => opts.overlay?.(g, size, ratio)));
  }
  const { width, height } = renderer.getDimensions();
  const box = document.createElement('div');
  box.style.cssText = `position:fixed;left:-${width * scale + 100}px;top:0;width:${width * scale}px;height:${height * scale}px;pointer-events:none`;
  document.body.append(box);
  const s = renderer.getSettings();
  const nodeReducer = s.nodeReducer;
  const edgeReducer = s.edgeReducer;
  const copy = new Sigma(renderer.getGraph(), box, {
    ...s,
    labelSize: s.labelSize * scale,
    labelRenderedSizeThreshold: s.labelRenderedSizeThreshold * scale,
    nodeReducer: (n, d) => {
      const r = nodeReducer ? nodeReducer(n, d) : d;
      return { ...r, size: (r.size ?? 1) * scale };
    },
    edgeReducer: (e, d) => {
      const r = edgeReducer ? edgeReducer(e, d) : d;
      return { ...r, size: (r.size ?? 1) * scale };
    },
  });
  try {
    copy.getCamera().setState(renderer.getCamera().getState());
    copy.refresh();
    const first = copy.getCanvases().nodes;
    const ratio = first ? first.width / (width * scale) : 1;
    return await compose(copy.getCanvases(), opts.background, opts.overlay && ((g, size) => opts.overlay?.(g, size, scale * ratio)));
  } finally {
    copy.kill();
    box.remove();
  }
}
