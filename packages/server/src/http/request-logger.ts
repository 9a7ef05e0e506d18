/**
 * Request loggers made on first use (Fastify `childLoggerFactory`). Fastify makes a child logger per
 * request, and pino serialises and redacts the child's bindings when it is made; at LOG_LEVEL=warn and
 * above almost no request logs anything, so that was work for nothing on every request.
 */
import type { FastifyBaseLogger } from 'fastify';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];
type LogCall = (...args: unknown[]) => void;

/**
 * The request logger (`request.log`, bound to the request id as `reqId`). Calls at disabled levels are
 * dropped; the first enabled one makes the real child.
 */
function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Record<string, unknown>): FastifyBaseLogger {
  let child: FastifyBaseLogger | null = null;
  const real = (): FastifyBaseLogger => (child ??= parent.child(bindings));
  const at =
    (level: Level): LogCall =>
    (...args) => {
      if (child === null && !levelEnabled(parent, level)) return;
      const logger = real();
      (logger[level] as LogCall).apply(logger, args);
    };
  const logger = {
    get level(): string {
      return (child ?? parent).level;
    },
    set level(value: string) {
      real().level = value;
    },
    ...(Object.fromEntries(LEVELS.map((level) => [level, at(level)])) as Record<Level, LogCall>),
    silent(): void {},
    child: (...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger => real().child(...args),
  };
  return logger as unknown as FastifyBaseLogger;
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
  return lazyRequestLogger(logger, bindings);
}
