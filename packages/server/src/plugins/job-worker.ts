/**
 * The job queue and this process's job worker (docs/jobs.md), created once in app.ts: the queue is Redis
 * (BullMQ) when REDIS_URL is set, else the `metric_jobs` table; the worker runs on the app's metric pool
 * unless NETLOOM_WORKERS=0 and stops, giving its rows back to the queue, when the app closes.
 */
import type { FastifyInstance } from 'fastify';
import { JobRunner } from '../domain/metrics/job-runner.ts';
import { openJobQueue, type RedisJobQueue } from '../domain/metrics/job-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's job worker (null with NETLOOM_WORKERS=0). */
    jobRunner: JobRunner | null;
    /** The Redis job queue (BullMQ) when REDIS_URL is set, else null (the table queue). */
    jobQueue: RedisJobQueue | null;
  }
}

export function registerJobWorker(app: FastifyInstance): void {
  const queue = openJobQueue(app.config, app.log);
  app.decorate('jobQueue', queue);
  if (queue) {
    // jobs submitted right after start find the queue connected (or get 503 if Redis is not there)
    app.addHook('onReady', async () => void (await queue.ready(2_000)));
    app.addHook('onClose', async () => queue.close());
  }
  const slots = app.config.jobs.apiWorkers;
  const runner = slots > 0 ? new JobRunner({ db: app.database.db, pool: app.metricPool, config: app.config, concurrency: slots, log: app.log, queue }) : null;
  app.decorate('jobRunner', runner);
  if (!runner) return;
  app.addHook('onReady', async () => runner.start());
  app.addHook('preClose', async () => runner.stop());
}
