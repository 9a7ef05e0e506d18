/**
 * netloom worker [--concurrency n] [--threads n]
 *
 * Runs metric jobs (docs/jobs.md) until SIGTERM/SIGINT: takes job and shard rows from the queue — BullMQ
 * on Redis when REDIS_URL is set, else the table in the database the configuration names (DATABASE_URL or
 * the SQLite file under NETLOOM_DATA_DIR) — computes
 * them on this process's worker threads and records the results. Start any number, on any machines that
 * share the database. Logs are JSON lines (pino) on stdout; on a stop signal the rows in progress are
 * given back to the queue at once for another worker to take. With SMTP_URL it also sends survey e-mail
 * (domain/surveys/mailer.ts).
 */
import { pino } from 'pino';
import { MetricPool } from '@netloom/engine/pool/index.ts';
import { openDatabase } from '../../store/db.ts';
import { migrate } from '../../store/migrations/index.ts';
import { JobRunner } from '../../domain/metrics/job-runner.ts';
import { openJobQueue } from '../../domain/metrics/job-queue.ts';
import { DomainError } from '../../domain/errors.ts';
import { startSurveyMailer } from '../../domain/surveys/mailer.ts';
import type { CliCommand } from '../context.ts';

function positive(name: string, raw: string | undefined, def: number): number {
  if (raw === undefined) return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < 1) throw new DomainError('INVALID_ARGS', `--${name} must be a whole number ≥ 1`);
  return v;
}

export const workerCommand: CliCommand = {
  name: 'worker',
  register(program, ctx) {
    program
      .command('worker')
      .description('run metric jobs from the queue until stopped (SIGTERM/SIGINT); any number, on any machines sharing the database')
      .option('--threads <n>', 'worker threads computing metrics (default NETLOOM_METRIC_WORKERS, else one per core)')
      .option('--concurrency <n>', 'job or shard rows run at once (default: the number of threads)')
      .action(async (opts: { threads?: string; concurrency?: string }) => {
        const config = ctx.config;
        const threads = positive('threads', opts.threads, config.limits.metricWorkers || 0) || undefined;
        const log = pino({ level: config.logLevel, base: { role: 'worker', pid: process.pid } });
        const handle = await openDatabase(config);
        await migrate(handle.db);
        const pool = new MetricPool({ workers: threads, queueSize: 0, timeoutMs: config.jobs.timeoutMs, limits: { maxNodes: config.limits.maxNodes, maxEdges: config.limits.maxEdges } });
        const concurrency = positive('concurrency', opts.concurrency, pool.workers);
        const queue = openJobQueue(config, log);
        await queue?.ready(5_000);
        const runner = new JobRunner({ db: handle.db, pool, config, concurrency, log, queue });
        runner.start();
        // survey e-mail (SMTP_URL): tasks on the job queue (BullMQ or the table); each message claimed before it is sent, so any number of workers send it once
        const mailer = startSurveyMailer({ db: handle.db, config, now: Date.now }, log);
        log.info({ workerId: runner.workerId, threads: pool.workers, concurrency, queue: queue ? 'redis' : 'table', mailQueue: mailer?.queue ?? null }, 'worker started');
        await new Promise<void>((resolve) => {
          const stop = (signal: string) => {
            log.info({ signal }, 'worker stopping: giving rows in progress back to the queue');
            resolve();
          };
          process.once('SIGTERM', () => stop('SIGTERM'));
          process.once('SIGINT', () => stop('SIGINT'));
        });
        await runner.stop();
        await mailer?.stop();
        await queue?.close();
        await pool.close();
        await handle.close();
        log.info({ workerId: runner.workerId }, 'worker stopped');
      });
  },
};
