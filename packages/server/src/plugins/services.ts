/**
 * The domain services an app's routes call, built once in app.ts from the store, the configuration, the
 * metric pool and the job queue (docs/architecture.md "Composition"):
 * - `app.metricRunDeps`: what domain/metrics/runs.ts needs (database, pool, limits, log);
 * - `app.jobDeps`: the same plus the job settings, the queue and the worker's wake-up (domain/metrics/jobs.ts);
 * - `app.embedContext`: the one embedding context (shared ephemeral state: Redis or the database) of
 *   embedding, the viewer and the web app (domain/embedding/context.ts);
 * - `app.signInDeps`: web sign-in and password changes, with the bounded password-hashing queue.
 * Routes only read these; none builds its own.
 */
import type { FastifyInstance } from 'fastify';
import type { MetricRunDeps } from '../domain/metrics/compute.ts';
import type { JobDeps } from '../domain/metrics/jobs.ts';
import { createEmbedContext, type EmbedContext } from '../domain/embedding/context.ts';
import type { SignInDeps } from '../domain/identity/sign-in.ts';
import { passwordQueue } from '../domain/identity/password-queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metricRunDeps: MetricRunDeps;
    jobDeps: JobDeps;
    embedContext: EmbedContext;
    signInDeps: SignInDeps;
  }
}

/** After the store, the metric pool and the job worker (plugins/metric-pool.ts, plugins/job-worker.ts). */
export function registerServices(app: FastifyInstance): void {
  const l = app.config.limits;
  const metricRunDeps: MetricRunDeps = { db: app.database.db, pool: app.metricPool, limits: { maxNodes: l.maxNodes, maxEdges: l.maxEdges, metricTimeoutMs: l.metricTimeoutMs }, log: app.log };
  app.decorate('metricRunDeps', metricRunDeps);
  app.decorate('jobDeps', { ...metricRunDeps, jobs: app.config.jobs, wake: () => app.jobRunner?.wake(), queue: app.jobQueue, now: app.now });
  const embedContext = createEmbedContext({ db: app.database.db, config: app.config, redis: app.redis, now: () => app.now() });
  app.decorate('embedContext', embedContext);
  const web = app.config.web;
  app.decorate('signInDeps', { db: app.database.db, config: web, state: embedContext.state, now: () => app.now(), passwords: passwordQueue(web.passwordHashConcurrency, web.passwordHashQueue) });
}
