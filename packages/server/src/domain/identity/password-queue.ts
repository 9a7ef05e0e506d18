/**
 * A small bounded queue for password work (scrypt, docs/security.md "Sign-in"): at most `concurrency`
 * hashes run at once (each takes ~32 MiB and a libuv thread for 50–100 ms), at most `queue` more wait,
 * and anything beyond is refused at once with 429 RATE_LIMITED (`Retry-After: 1`) instead of waiting.
 * So a burst of sign-ins can neither hold the thread pool nor make someone else's sign-in wait longer
 * than `queue / concurrency` hashes. One queue per process.
 */
import { RateLimitedError } from '../embedding/context.ts';

export interface PasswordQueue {
  /** Runs `work` when a slot is free; refuses with 429 when `queue` callers are already waiting. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Running and waiting now (for tests and metrics). */
  readonly load: { running: number; waiting: number };
}

export function passwordQueue(concurrency: number, queue: number): PasswordQueue {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running--;
    const wake = waiting.shift();
    if (wake) {
      running++;
      wake();
    }
  };
  return {
    get load() {
      return { running, waiting: waiting.length };
    },
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= concurrency) {
        if (waiting.length >= queue) throw new RateLimitedError('the server is busy checking passwords; retry in a second', 1);
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await work();
      } finally {
        next();
      }
    },
  };
}
