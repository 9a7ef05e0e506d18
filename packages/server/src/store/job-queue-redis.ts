/**
 * The job queue on Redis (BullMQ) when `REDIS_URL` is set (docs/jobs.md, "Which queue"). It only carries
 * *which row to run next*: the rows of `metric_jobs` stay the truth for statuses, progress, claims and
 * results, so the API reads and cancels jobs the same way with either queue.
 *
 * - One BullMQ queue (`metric-jobs`, keys under `<NETLOOM_REDIS_PREFIX>bull:`). A message names a row and a
 *   phase; its BullMQ id is `<rowId>-<phase>`, so adding a message that is already queued or running is a
 *   no-op (the reconciler may add again whatever the database says is runnable).
 * - A split job is a BullMQ flow: a `merge` parent whose children are the shards; BullMQ hands the merge
 *   to a worker when the last shard has completed.
 * - Fairness (docs/jobs.md "Fairness"; issue 19 finding 6): BullMQ takes prioritized messages lowest
 *   priority first, FIFO within one priority. A message's priority is its row's place in its tenant's
 *   line when it was queued (the tenant's active jobs before it, + 1; the reconciler re-adds rows with
 *   their place now), so the k-th waiting job of every tenant comes before the (k+1)-th of any: one
 *   tenant's 150 queued jobs do not keep another tenant's first job waiting behind them.
 * - Producers fail fast: their connection has no offline queue and one retry, so with Redis down an
 *   `add` rejects at once (the API answers 503) instead of waiting for a reconnect.
 * - Consumers: a BullMQ worker's lock is the row's lease (`lockMs`); a worker that dies (SIGKILL) stops
 *   renewing it, BullMQ's stalled-job check moves the message back to the queue and another worker takes
 *   it. Handlers never fail a message: what happened is in the database; `againInMs` puts it back.
 */
import { Redis } from 'ioredis';
import { FAIL_FAST, redisReady } from './redis.ts';
import { DelayedError, FlowProducer, Queue, Worker, type Job } from 'bullmq';

export type QueuePhase = 'run' | 'merge';

export interface QueueMessage {
  rowId: string;
  phase: QueuePhase;
}

/** What a handler did with a message: `done` (the row is finished or no longer runnable here) or `{ againInMs }` (back to the queue, for any worker, after that delay). */
export type HandlerOutcome = 'done' | { againInMs: number };

const QUEUE = 'metric-jobs';
/** A message that comes back this many times is failed by BullMQ (the row's own claim count decides first). */
const MAX_STALLS = 5;

/** How long closing waits for BullMQ before dropping the connections. */
const CLOSE_MS = 3_000;

async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** BullMQ's largest priority (2^21 − 1). */
const MAX_PRIORITY = 2_097_151;

/**
 * A message's BullMQ priority from its row's place in its tenant's line: every message has one (≥ 1) —
 * BullMQ hands out messages without a priority before all prioritized ones, which would undo the order.
 */
function priorityOf(place: number): number {
  return Math.min(MAX_PRIORITY, Math.max(1, Math.floor(place)));
}

function messageId(m: QueueMessage): string {
  return `${m.rowId}-${m.phase}`;
}

export class RedisJobQueue {
  private readonly producer: Redis;
  private producerParts: { queue: Queue; flows: FlowProducer } | null = null;
  private readonly prefix: string;
  private readonly url: string;
  private readonly onError: (err: Error) => void;

  constructor(url: string, keyPrefix: string, onError: (err: Error) => void) {
    this.url = url;
    this.onError = onError;
    this.prefix = `${keyPrefix}bull`;
    this.producer = new Redis(url, { ...FAIL_FAST, lazyConnect: false });
    this.producer.on('error', onError);
  }

  /**
   * The BullMQ producers, made once the connection is up: they ask Redis for its version when made, and
   * one made while Redis is down stays broken. While the connection is down this throws at once; a
   * producer whose command failed is made anew next time.
   */
  private parts(): { queue: Queue; flows: FlowProducer } {
    if (this.producer.status !== 'ready') throw new Error(`Redis connection is ${this.producer.status}`);
    if (!this.producerParts) {
      const queue = new Queue(QUEUE, { connection: this.producer, prefix: this.prefix, skipWaitingForReady: true, defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
      queue.on('error', this.onError);
      const flows = new FlowProducer({ connection: this.producer, prefix: this.prefix, skipWaitingForReady: true });
      flows.on('error', this.onError);
      this.producerParts = { queue, flows };
    }
    return this.producerParts;
  }

  private async produce(fn: (p: { queue: Queue; flows: FlowProducer }) => Promise<unknown>): Promise<void> {
    const p = this.parts();
    try {
      await fn(p);
    } catch (err) {
      if (this.producerParts === p) {
        this.producerParts = null;
        void p.queue.close().catch(() => undefined);
        void p.flows.close().catch(() => undefined);
      }
      throw err;
    }
  }

  /** Resolves when the producer's connection is up, or after `timeoutMs` (then adds answer 503 until it is). */
  ready(timeoutMs: number): Promise<boolean> {
    return redisReady(this.producer, timeoutMs);
  }

  /**
   * Queues one row (a no-op if its message is already queued or running). Rejects at once while Redis is
   * down. `place`: the row's place in its tenant's line (1 = next), the message's BullMQ priority — see
   * the header's "Fairness".
   */
  async add(m: QueueMessage, place: number): Promise<void> {
    await this.produce((p) => p.queue.add(m.phase, m, { jobId: messageId(m), priority: priorityOf(place) }));
  }

  /**
   * Queues the shards of a split job (shard i at place i + 1 of its tenant's line, so one tenant's big job
   * shares the workers with other tenants' next jobs) and, behind them, its merge (run when every shard
   * has completed; place 1: it finishes work already done).
   */
  async addSplit(parentId: string, shardIds: string[]): Promise<void> {
    const merge: QueueMessage = { rowId: parentId, phase: 'merge' };
    await this.produce((p) =>
      p.flows.add({
      name: 'merge',
      queueName: QUEUE,
      data: merge,
      opts: { jobId: messageId(merge), removeOnComplete: true, removeOnFail: true, priority: priorityOf(1) },
      children: shardIds.map((rowId, i) => {
        const m: QueueMessage = { rowId, phase: 'run' };
        return { name: 'shard', queueName: QUEUE, data: m, opts: { jobId: messageId(m), removeOnComplete: true, removeOnFail: true, ignoreDependencyOnFailure: true, priority: priorityOf(i + 1) } };
      }),
      }),
    );
  }

  /**
   * Takes messages, `concurrency` at once, until the returned `close` (which waits for the running
   * handlers). `lockMs` is how long a taken message stays with this worker without a renewal (BullMQ
   * renews it at half that while the handler runs).
   */
  consume(concurrency: number, lockMs: number, handler: (m: QueueMessage) => Promise<HandlerOutcome>): { close(): Promise<void> } {
    // BullMQ's workers block on Redis and must retry for ever (maxRetriesPerRequest: null).
    const connection = new Redis(this.url, { maxRetriesPerRequest: null, connectTimeout: 2_000 });
    connection.on('error', this.onError);
    const worker = new Worker(
      QUEUE,
      async (job: Job<QueueMessage>, token?: string) => {
        let outcome: HandlerOutcome;
        try {
          outcome = await handler(job.data);
        } catch (err) {
          // the database did not answer, say: try the message again soon (a failed shard message would strand its merge)
          this.onError(err instanceof Error ? err : new Error(String(err)));
          outcome = { againInMs: 1_000 };
        }
        if (outcome !== 'done') {
          await job.moveToDelayed(Date.now() + outcome.againInMs, token);
          throw new DelayedError();
        }
      },
      {
        connection,
        prefix: this.prefix,
        concurrency,
        lockDuration: lockMs,
        stalledInterval: Math.max(100, Math.floor(lockMs / 2)),
        maxStalledCount: MAX_STALLS,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      },
    );
    worker.on('error', this.onError);
    return {
      close: async () => {
        // with Redis down BullMQ's close would wait for a connection that never comes: bounded
        await within(worker.close(connection.status !== 'ready').catch(this.onError), CLOSE_MS);
        connection.disconnect();
      },
    };
  }

  /** Closes the producer's connections (consumers are closed by their own `close`). */
  async close(): Promise<void> {
    const p = this.producerParts;
    this.producerParts = null;
    if (p) await within(Promise.all([p.flows.close().catch(this.onError), p.queue.close().catch(this.onError)]), CLOSE_MS);
    this.producer.disconnect();
  }
}
