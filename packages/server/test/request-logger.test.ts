/**
 * Request loggers (http/request-logger.ts requestLoggerFactory): at LOG_LEVEL=warn the per-request child logger is made
 * only when something is logged, and what is logged still carries the request id and is redacted; at
 * info the factory returns pino's own child.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { loggerOptions } from '../src/app.ts';
import { requestLoggerFactory } from '../src/http/request-logger.ts';
import { loadConfig } from '../src/config.ts';

function capture(level: string): { logger: FastifyBaseLogger; lines: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out.push(String(chunk));
      cb();
    },
  });
  const options = loggerOptions(loadConfig({ LOG_LEVEL: level, NETLOOM_DATA_DIR: '/nonexistent' }));
  const logger = pino({ ...(options as pino.LoggerOptions), level }, pino.multistream([{ stream: sink, level: 'trace' }])) as unknown as FastifyBaseLogger;
  return { logger, lines: () => out.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

test('LOG_LEVEL=warn: nothing is made or written for info; warn/error carry reqId and are redacted', () => {
  const { logger, lines } = capture('warn');
  let made = 0;
  const counting = new Proxy(logger, {
    get(target, prop, receiver) {
      if (prop === 'child') return (...args: Parameters<FastifyBaseLogger['child']>) => (made++, target.child(...args));
      return Reflect.get(target, prop, receiver);
    },
  });
  const log = requestLoggerFactory(counting, { reqId: 'req-1' }, {});
  log.info({ a: 1 }, 'ignored');
  log.debug('ignored');
  assert.equal(made, 0, 'no child logger for a request that logs nothing');
  assert.equal(lines().length, 0);
  assert.equal(log.level, 'warn');
  log.warn({ token: 'nl_secret', detail: 'x' }, 'something odd');
  log.error(new Error('boom'));
  assert.equal(made, 1, 'one child, made on first use');
  const [w, e] = lines();
  assert.equal(w.reqId, 'req-1');
  assert.equal(w.msg, 'something odd');
  assert.equal(w.token, '[redacted]');
  assert.ok(!JSON.stringify(lines()).includes('nl_secret'));
  assert.equal(e.reqId, 'req-1');
  assert.equal((e.err as { message: string }).message, 'boom');
  const sub = log.child({ networkId: 'n1' });
  sub.warn('from a child');
  assert.deepEqual([lines()[2].reqId, lines()[2].networkId], ['req-1', 'n1']);
});

test('LOG_LEVEL=info (or a route log level): pino child loggers as usual', () => {
  const { logger, lines } = capture('info');
  const log = requestLoggerFactory(logger, { reqId: 'req-2' }, {});
  assert.equal(typeof (log as unknown as { bindings: () => object }).bindings, 'function', 'a pino child');
  log.info('hello');
  assert.equal(lines()[0].reqId, 'req-2');
  const quiet = capture('warn');
  const routeLevel = requestLoggerFactory(quiet.logger, { reqId: 'req-3' }, { level: 'debug' });
  routeLevel.debug('route-level debug');
  assert.equal(quiet.lines()[0].reqId, 'req-3');
});
