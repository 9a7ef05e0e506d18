/**
 * The metric worker pool (docs/architecture.md "Composition"): one per app, created once in app.ts and
 * closed with the app. Routes and the job worker reach it through `app.metricPool` (and the domain
 * through `app.metricRunDeps`, plugins/services.ts); no route creates it.
 */
import type { FastifyInstance } from 'fastify';
import { MetricPool } from '@netloom/engine/pool/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metricPool: MetricPool;
  }
}

export function registerMetricPool(app: FastifyInstance): MetricPool {
  const l = app.config.limits;
  const pool = new MetricPool({
    workers: l.metricWorkers,
    queueSize: l.metricQueueSize,
    timeoutMs: l.metricTimeoutMs,
    limits: { maxNodes: l.maxNodes, maxEdges: l.maxEdges },
  });
  app.decorate('metricPool', pool);
  app.addHook('onClose', async () => pool.close());
  return pool;
}
