/**
 * Request loggers made on first use (Fastify `childLoggerFactory`). Fastify makes a child logger per
 * request, and pino serialises and redacts the child's bindings when it is made; at LOG_LEVEL=warn and
 * above almost no request logs anything, so that was work for nothing on every request.
 */
import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogCall = (...args: unknown[]) => void;

/**
 * The request logger (`request.log`, bound to the request id as `reqId`). Calls at disabled levels are
 * dropped; the first enabled one makes the real child.
 */
class LazyRequestLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Record<string, unknown>;
  #child: FastifyBaseLogger | null = null;
  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>) {
    this.#parent = parent;
    this.#bindings = bindings;
  }
  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }
  #log(level: Level, args: unknown[]): void {
    if (this.#child === null && !levelEnabled(this.#parent, level)) return;
    const real = this.#real();
    (real[level] as LogCall).apply(real, args);
  }
  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(value: string) {
    this.#real().level = value;
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}
  child(...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger {
    return this.#real().child(...args);
  }
}

function levelEnabled(logger: FastifyBaseLogger, level: Level): boolean {
  const check = (logger as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
  return typeof check !== 'function' || check.call(logger, level);
}

/** Fastify `childLoggerFactory`: lazy request loggers (above) when requests are not logged at info. */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Parameters<FastifyBaseLogger['child']>[0],
  opts: NonNullable<Parameters<FastifyBaseLogger['child']>[1]>,
): FastifyBaseLogger {
  if (Object.keys(opts).length > 0 || levelEnabled(logger, 'info')) return logger.child(bindings, opts);
  return new LazyRequestLogger(logger, bindings) as unknown as FastifyBaseLogger;
}
