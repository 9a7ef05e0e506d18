import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { clientErrorHandler } from './client-errors.ts';

class FakeSocket {
  destroyed = false;
  writable = true;
  written = '';
  destroyedWith: unknown = 'not destroyed';
  _httpMessage: { headersSent: boolean } | null = null;
  write(s: string): boolean {
    this.written += s;
    return true;
  }
  destroy(err?: unknown): this {
    this.destroyed = true;
    this.writable = false;
    this.destroyedWith = err;
    return this;
  }
}
const socket = () => new FakeSocket();
const asSocket = (s: FakeSocket) => s as unknown as Socket;
const err = (code: string) => Object.assign(new Error(code), { code });
const turn = () => new Promise((r) => setImmediate(r));

test('timed-out connections are answered 408 and closed a batch per event-loop turn, not all in one', async () => {
  const handler = clientErrorHandler(25);
  const sockets = Array.from({ length: 100 }, socket);
  // Node reports every expired connection in one pass
  for (const s of sockets) handler(err('ERR_HTTP_REQUEST_TIMEOUT'), asSocket(s));
  assert.equal(sockets.filter((s) => s.destroyed).length, 0, 'nothing is closed inside the pass that found them');
  assert.equal(handler.pending, 100);
  const closedPerTurn: number[] = [];
  while (sockets.some((s) => !s.destroyed)) {
    const before = sockets.filter((s) => s.destroyed).length;
    await turn();
    closedPerTurn.push(sockets.filter((s) => s.destroyed).length - before);
    assert.ok(closedPerTurn.length < 10, 'every connection is closed within a few turns');
  }
  assert.deepEqual(closedPerTurn, [25, 25, 25, 25]);
  assert.equal(handler.pending, 0);
  for (const s of sockets) {
    assert.match(s.written, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(s.written, /\r\nConnection: close\r\n/);
    assert.ok(s.written.endsWith('{"error":"Request Timeout","message":"Client Timeout","statusCode":408}'));
    // closed without the error object (no stack trace formatted, no second error event)
    assert.equal(s.destroyedWith, undefined);
  }
  // the queue starts again for the next expiry
  const later = socket();
  handler(err('ERR_HTTP_REQUEST_TIMEOUT'), asSocket(later));
  await turn();
  assert.equal(later.destroyed, true);
});

test('other client errors are answered at once; reset or closed connections and started responses get no status line', async () => {
  const handler = clientErrorHandler();
  const overflow = socket();
  handler(err('HPE_HEADER_OVERFLOW'), asSocket(overflow));
  assert.match(overflow.written, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  assert.equal(overflow.destroyed, true);
  const garbage = socket();
  handler(err('HPE_INVALID_METHOD'), asSocket(garbage));
  assert.match(garbage.written, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.equal(garbage.destroyed, true);
  const reset = socket();
  handler(err('ECONNRESET'), asSocket(reset));
  assert.equal(reset.written, '');
  assert.equal(reset.destroyed, false, 'Node closes a reset connection itself');
  const gone = socket();
  gone.destroyed = true;
  handler(err('ERR_HTTP_REQUEST_TIMEOUT'), asSocket(gone));
  await turn();
  assert.equal(gone.written, '');
  const answering = socket();
  answering._httpMessage = { headersSent: true };
  handler(err('ERR_HTTP_REQUEST_TIMEOUT'), asSocket(answering));
  await turn();
  assert.equal(answering.written, '', 'no 408 in the middle of a response');
  assert.equal(answering.destroyed, true);
});
