/**
 * Node's `clientError` answers (Fastify `clientErrorHandler`): 408 for a request cut by the headers or
 * request timeout, 431 for oversized headers, 400 for anything the HTTP parser refuses — the same answers
 * as Fastify's default handler, with two differences that matter when many connections time out at once
 * (docs/operations.md, "Timeouts and connections"):
 *
 * - Node checks every connection's deadline in one pass (`connectionsCheckingInterval`) and reports each
 *   expired one in that same pass, so connections that arrived together expire together. Answering 400 of
 *   them (the 408, closing the socket, the aborted body's error path) in that one event-loop turn held
 *   every other request — /healthz included — for 80–95 ms of CPU (bench/slow-bodies.ts). Timed-out
 *   connections are queued here and closed `batch` per turn (setImmediate), so other requests are served
 *   in between.
 * - The socket is closed without the error object: `destroy(err)` makes Node format the error's stack
 *   trace and emit it again on the socket, work nobody reads.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

const TIMEOUT_BODY = '{"error":"Request Timeout","message":"Client Timeout","statusCode":408}';
const OVERFLOW_BODY = '{"error":"Request Header Fields Too Large","message":"Exceeded maximum allowed HTTP header size","statusCode":431}';
const BAD_REQUEST_BODY = '{"error":"Bad Request","message":"Client Error","statusCode":400}';

type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

function answer(socket: HttpSocket, status: number, body: string): void {
  if (socket.destroyed) return;
  // as Node's own handler: no status line into the middle of a response already being written
  if (socket.writable && socket._httpMessage?.headersSent !== true) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

export interface ClientErrorHandler {
  (err: Error & { code?: string }, socket: Socket): void;
  /** Timed-out connections waiting for their turn (tests). */
  readonly pending: number;
}

/** A `clientErrorHandler` that closes at most `batch` timed-out connections per event-loop turn. */
export function clientErrorHandler(batch = 25): ClientErrorHandler {
  const queue: Socket[] = [];
  let scheduled = false;
  const drain = (): void => {
    const now = queue.splice(0, batch);
    if (queue.length > 0) setImmediate(drain);
    else scheduled = false;
    for (const socket of now) answer(socket, 408, TIMEOUT_BODY);
  };
  const handler = (err: Error & { code?: string }, socket: Socket): void => {
    // A reset connection is already gone (https://nodejs.org/api/http.html#event-clienterror).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      queue.push(socket);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') answer(socket, 431, OVERFLOW_BODY);
    else answer(socket, 400, BAD_REQUEST_BODY);
  };
  Object.defineProperty(handler, 'pending', { get: () => queue.length });
  return handler as ClientErrorHandler;
}
