/**
 * Which queue carries metric jobs (docs/jobs.md, "Which queue"): BullMQ on Redis when `REDIS_URL` is set,
 * else the `metric_jobs` table itself. Either way the table's rows are what the API reads and cancels.
 */
import type { Config } from '../../config.ts';
import { RedisJobQueue } from '../../store/job-queue-redis.ts';

export type { RedisJobQueue } from '../../store/job-queue-redis.ts';

/** The Redis queue (keys under `<NETLOOM_REDIS_PREFIX>bull:`), or null without REDIS_URL (the table queue). */
export function openJobQueue(config: Pick<Config, 'redisUrl' | 'embed'>, log: { warn(obj: Record<string, unknown>, msg: string): void }): RedisJobQueue | null {
  if (!config.redisUrl) return null;
  let last = 0;
  return new RedisJobQueue(config.redisUrl, config.embed.redisPrefix, (err) => {
    // a Redis outage repeats the same error on every reconnect attempt: one line per 10 s is enough
    if (Date.now() - last < 10_000) return;
    last = Date.now();
    log.warn({ err: { message: err.message } }, 'job queue: Redis error');
  });
}
