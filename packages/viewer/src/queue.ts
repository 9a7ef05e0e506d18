/**
 * The one command queue (docs/spec/api.md Rules 2): host commands and the viewer's own clicks run one at a time
 * in arrival order. At most 20 host commands may be pending (queued or running); one more fails with
 * RATE_LIMITED at once. Each task has a deadline counted from arrival: past it, a queued task is
 * dropped and a running one aborted, with TIMEOUT. cancel(id) rejects a queued or running task with
 * CANCELLED. `ifRevision` is checked when the task starts (STALE_STATE). No DOM.
 */
import { LIMITS } from '@netloom/protocol';
import { CommandError } from './errors.ts';

export interface TaskContext {
  signal: AbortSignal;
  id: string;
}

export interface TaskInput<T> {
  id: string;
  source: 'host' | 'viewer';
  /** Deadline in ms from now; none for viewer tasks. */
  timeoutMs?: number;
  ifRevision?: number;
  run(ctx: TaskContext): Promise<T> | T;
}

interface Task {
  input: TaskInput<unknown>;
  controller: AbortController;
  timer: ReturnType<typeof setTimeout> | null;
  settled: boolean;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export interface QueueOptions {
  maxPending?: number;
  revision(): number;
  onBusy?(on: boolean): void;
}

export class CommandQueue {
  #queue: Task[] = [];
  #running: Task | null = null;
  #byId = new Map<string, Task>();
  #opts: QueueOptions;
  #busy = false;

  constructor(opts: QueueOptions) {
    this.#opts = opts;
  }

  /** Host tasks queued or running. */
  get pendingHost(): number {
    let n = 0;
    for (const t of this.#byId.values()) if (t.input.source === 'host') n++;
    return n;
  }

  get runningId(): string | null {
    return this.#running?.input.id ?? null;
  }

  enqueue<T>(input: TaskInput<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (input.source === 'host' && this.pendingHost >= (this.#opts.maxPending ?? LIMITS.maxPending)) {
        return reject(new CommandError('RATE_LIMITED', `more than ${this.#opts.maxPending ?? LIMITS.maxPending} commands pending; wait for some to finish`));
      }
      if (this.#byId.has(input.id)) return reject(new CommandError('INVALID_ARGS', `request id ${input.id} is already pending`));
      const task: Task = { input: input as TaskInput<unknown>, controller: new AbortController(), timer: null, settled: false, resolve: resolve as (v: unknown) => void, reject };
      if (input.timeoutMs !== undefined) {
        task.timer = setTimeout(() => this.#fail(task, new CommandError('TIMEOUT', `did not finish within ${input.timeoutMs} ms`)), input.timeoutMs);
      }
      this.#byId.set(input.id, task);
      this.#queue.push(task);
      this.#pump();
    });
  }

  /** Cancels a queued or running task; false when no such task is pending. */
  cancel(id: string): boolean {
    const task = this.#byId.get(id);
    if (!task) return false;
    this.#fail(task, new CommandError('CANCELLED', 'cancelled'));
    return true;
  }

  /** Fails every pending task (e.g. SESSION_EXPIRED). */
  failAll(err: CommandError): void {
    for (const t of [...this.#byId.values()]) this.#fail(t, err);
  }

  #fail(task: Task, err: CommandError): void {
    if (task.settled) return;
    this.#settle(task);
    const i = this.#queue.indexOf(task);
    if (i >= 0) this.#queue.splice(i, 1);
    task.controller.abort(err);
    task.reject(err);
    // A running task keeps the queue until its handler returns (handlers honour the abort signal).
    this.#updateBusy();
  }

  #settle(task: Task): void {
    task.settled = true;
    if (task.timer) clearTimeout(task.timer);
    this.#byId.delete(task.input.id);
  }

  #updateBusy(): void {
    const busy = this.#running !== null || this.#queue.length > 0;
    if (busy !== this.#busy) {
      this.#busy = busy;
      this.#opts.onBusy?.(busy);
    }
  }

  #pump(): void {
    this.#updateBusy();
    if (this.#running) return;
    const task = this.#queue.shift();
    if (!task) return;
    this.#running = task;
    this.#updateBusy();
    void this.#run(task).finally(() => {
      this.#running = null;
      this.#pump();
    });
  }

  async #run(task: Task): Promise<void> {
    const { ifRevision } = task.input;
    const revision = this.#opts.revision();
    if (ifRevision !== undefined && ifRevision !== revision) {
      this.#settle(task);
      task.reject(new CommandError('STALE_STATE', `the viewer is at revision ${revision}, not ${ifRevision}`, { revision }));
      return;
    }
    try {
      const value = await task.input.run({ signal: task.controller.signal, id: task.input.id });
      if (task.settled) return;
      this.#settle(task);
      task.resolve(value);
    } catch (err) {
      if (task.settled) return;
      this.#settle(task);
      task.reject(err);
    }
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
