/**
 * The queue of survey e-mail tasks (docs/surveys.md "E-mail"): "send step S of survey X to whoever still
 * needs it". Two carriers, as for metric jobs (docs/jobs.md "Which queue"): BullMQ on Redis when
 * `REDIS_URL` is set (`RedisMailQueue`), else the `survey_mail_tasks` table (`TableMailQueue`, 0015).
 * Either way a task's id is `<surveyId>:<step>`, so queueing what is already queued or running is a no-op,
 * and a worker that dies holding a task gives it up when its lease (the table's `lease_until`, BullMQ's
 * lock) lapses — another worker runs it again. Running a task twice is harmless: each message is claimed
 * in `survey_deliveries` before it is sent (store/surveys.ts `claimDelivery`), which is the once-guarantee.
 */
import type { Kysely } from 'kysely';
import { Redis } from 'ioredis';
import { Queue, Worker, type Job } from 'bullmq';
import type { Database } from './schema.ts';
import { FAIL_FAST, redisReady } from './redis.ts';

export interface MailTask {
  surveyId: string;
  step: string;
}

export const mailTaskId = (t: MailTask): string => `${t.surveyId}:${t.step}`;

/** A running task's handle: `stillOurs()` is false once the task was taken over (the pass should stop). */
export interface MailTaskRun {
  stillOurs(): boolean;
}

export interface MailQueue {
  readonly kind: 'redis' | 'table';
  /** Resolves when the queue can take tasks (Redis connected), or after `timeoutMs`. */
  ready(timeoutMs: number): Promise<boolean>;
  /** Queues a task (no-op when it is queued or running). */
  add(task: MailTask): Promise<void>;
  /** Runs tasks one at a time as they come until the returned `close` (which waits for the one running). */
  consume(workerId: string, handler: (task: MailTask, run: MailTaskRun) => Promise<void>): { close(): Promise<void> };
  close(): Promise<void>;
}

export interface MailQueueTiming {
  /** How long a task stays with a worker that stops renewing it (it renews at a third of that). */
  leaseMs: number;
  /** How often the table queue looks for a task (Redis: BullMQ blocks on the queue). */
  pollMs: number;
  now: () => number;
}

/* ------------------------------------------------------------------------------------- table */

export class TableMailQueue implements MailQueue {
  readonly kind = 'table' as const;
  private readonly db: Kysely<Database>;
  private readonly timing: MailQueueTiming;
  constructor(db: Kysely<Database>, timing: MailQueueTiming) {
    this.db = db;
    this.timing = timing;
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async add(task: MailTask): Promise<void> {
    await this.db
      .insertInto('survey_mail_tasks')
      .values({ id: mailTaskId(task), survey_id: task.surveyId, step: task.step, queued_at: this.timing.now(), worker_id: null, lease_until: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Takes the oldest task whose lease is free or lapsed; the conditional update makes the take atomic. */
  private async claim(workerId: string): Promise<{ id: string; task: MailTask } | null> {
    const now = this.timing.now();
    const free = await this.db
      .selectFrom('survey_mail_tasks')
      .select(['id', 'survey_id', 'step'])
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('queued_at')
      .limit(5)
      .execute();
    for (const row of free) {
      const r = await this.db
        .updateTable('survey_mail_tasks')
        .set((eb) => ({ worker_id: workerId, lease_until: now + this.timing.leaseMs, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return { id: row.id, task: { surveyId: row.survey_id, step: row.step } };
    }
    return null;
  }

  private async renew(id: string, workerId: string): Promise<boolean> {
    const r = await this.db.updateTable('survey_mail_tasks').set({ lease_until: this.timing.now() + this.timing.leaseMs }).where('id', '=', id).where('worker_id', '=', workerId).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  consume(workerId: string, handler: (task: MailTask, run: MailTaskRun) => Promise<void>): { close(): Promise<void> } {
    let stopped = false;
    let wake: (() => void) | null = null;
    const loop = async () => {
      while (!stopped) {
        // the database not answering is like finding nothing: look again after the pause
        const taken = await this.claim(workerId).catch(() => null);
        if (!taken) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, this.timing.pollMs);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
          continue;
        }
        const { id, task } = taken;
        let ours = true;
        const heartbeat = setInterval(() => {
          this.renew(id, workerId).then(
            (ok) => (ours &&= ok),
            () => undefined,
          );
        }, Math.max(50, Math.floor(this.timing.leaseMs / 3)));
        try {
          await handler(task, { stillOurs: () => ours && !stopped });
        } catch {
          // what was sent is in the delivery table; the task is queued again by the next scheduler pass
        } finally {
          clearInterval(heartbeat);
        }
        await this.db.deleteFrom('survey_mail_tasks').where('id', '=', id).where('worker_id', '=', workerId).execute().catch(() => undefined);
      }
    };
    const done = loop();
    return {
      close: async () => {
        stopped = true;
        wake?.();
        await done;
      },
    };
  }

  async close(): Promise<void> {}
}

/* ------------------------------------------------------------------------------------- Redis */

const QUEUE = 'survey-mail';

export class RedisMailQueue implements MailQueue {
  readonly kind = 'redis' as const;
  private readonly producer: Redis;
  private queue: Queue | null = null;
  private readonly prefix: string;
  private readonly url: string;
  private readonly timing: MailQueueTiming;
  private readonly onError: (err: Error) => void;

  constructor(url: string, keyPrefix: string, timing: MailQueueTiming, onError: (err: Error) => void) {
    this.url = url;
    this.timing = timing;
    this.onError = onError;
    this.prefix = `${keyPrefix}bull`;
    this.producer = new Redis(url, { ...FAIL_FAST, lazyConnect: false });
    this.producer.on('error', onError);
  }

  ready(timeoutMs: number): Promise<boolean> {
    return redisReady(this.producer, timeoutMs);
  }

  async add(task: MailTask): Promise<void> {
    if (this.producer.status !== 'ready') throw new Error(`Redis connection is ${this.producer.status}`);
    this.queue ??= new Queue(QUEUE, { connection: this.producer, prefix: this.prefix, skipWaitingForReady: true, defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
    // the job id makes a second add of a queued or running task a no-op
    await this.queue.add('send', task, { jobId: mailTaskId(task).replaceAll(':', '-') });
  }

  consume(workerId: string, handler: (task: MailTask, run: MailTaskRun) => Promise<void>): { close(): Promise<void> } {
    void workerId;
    const connection = new Redis(this.url, { maxRetriesPerRequest: null, connectTimeout: 2_000 });
    connection.on('error', this.onError);
    let stopped = false;
    const worker = new Worker(
      QUEUE,
      async (job: Job<MailTask>) => {
        // the lock is this worker's lease: BullMQ renews it while the handler runs; a killed worker's task
        // goes back to the queue at the next stalled check and another worker runs it
        try {
          await handler(job.data, { stillOurs: () => !stopped });
        } catch (err) {
          this.onError(err instanceof Error ? err : new Error(String(err)));
        }
      },
      { connection, prefix: this.prefix, concurrency: 1, lockDuration: this.timing.leaseMs, stalledInterval: Math.max(100, Math.floor(this.timing.leaseMs / 2)), maxStalledCount: 5, removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } },
    );
    worker.on('error', this.onError);
    return {
      close: async () => {
        stopped = true;
        await Promise.race([worker.close(connection.status !== 'ready').catch(this.onError), new Promise((r) => setTimeout(r, 5_000).unref())]);
        connection.disconnect();
      },
    };
  }

  async close(): Promise<void> {
    await this.queue?.close().catch(this.onError);
    this.producer.disconnect();
  }
}
