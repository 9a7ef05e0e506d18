/**
 * The layout worker, built to /embed/assets/layout-worker.js (a same-origin classic worker: the embed
 * page's CSP `default-src 'self'` forbids blob: workers). One request per worker: the iterative layouts
 * run in batches of about `batchMs`, posting positions after each (progress) and `done` once converged
 * or at the iteration limit; the page stops a run by terminating the worker. One-pass arrangements post
 * `done` at once.
 */
import { circle, circleByGroups, hierarchy, plot } from './arrange.ts';
import { Fa2Job, NoverlapJob } from './jobs.ts';
import type { LayoutReply, LayoutRequest } from './protocol.ts';

const scope = self as unknown as { postMessage(m: LayoutReply, transfer?: Transferable[]): void; addEventListener(t: 'message', f: (e: MessageEvent<LayoutRequest>) => void): void };

function send(m: LayoutReply): void {
  scope.postMessage(m, 'positions' in m ? [m.positions.buffer] : []);
}

scope.addEventListener('message', (e) => {
  const req = e.data;
  try {
    if (req.kind === 'forceAtlas2' || req.kind === 'noverlap') {
      const job = req.kind === 'forceAtlas2'
        ? new Fa2Job({ positions: req.positions, edges: req.edges, weights: req.weights }, { settings: req.settings, maxIterations: req.maxIterations })
        : new NoverlapJob({ positions: req.positions, edges: new Uint32Array(0), weights: null, sizes: req.sizes }, { settings: req.settings, maxIterations: req.maxIterations });
      const step = (): void => {
        try {
          const r = job.batch(req.batchMs ?? 50);
          send({ type: r.done ? 'done' : 'progress', positions: r.positions, iterations: r.iterations, movement: r.movement, reason: r.done || undefined });
          if (!r.done) setTimeout(step, 0);
        } catch (err) {
          send({ type: 'error', message: (err as Error).message });
        }
      };
      step();
      return;
    }
    const positions = req.kind === 'circle' ? circle(req.order)
      : req.kind === 'circleByAttribute' ? circleByGroups(req.groups)
      : req.kind === 'hierarchy' ? hierarchy(req.order, req.edges).positions
      : plot(req.x, req.y);
    send({ type: 'done', positions, iterations: 1, movement: 0, reason: 'converged' });
  } catch (err) {
    send({ type: 'error', message: (err as Error).message });
  }
});
