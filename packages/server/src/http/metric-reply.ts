/**
 * Answers of metric runs (routes/metrics, the viewer, network comparison): the stored JSON bytes sent as
 * they are, the client's disconnect as the run's cancel signal (499 when nobody listens any more), and
 * `Prefer: respond-async` (RFC 7240) that turns a run into a job (docs/jobs.md).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricCancelled, type MetricAnswer } from '../domain/metrics/compute.ts';

/** An AbortSignal that fires when the client goes away before the answer is sent. */
function disconnectSignal(reply: FastifyReply): { signal: AbortSignal; done: () => void } {
  const ac = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) ac.abort();
  };
  reply.raw.on('close', onClose);
  return { signal: ac.signal, done: () => reply.raw.off('close', onClose) };
}

export function sendJSONBytes(reply: FastifyReply, bytes: Uint8Array | string, status = 200): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Runs `fn` with the client's disconnect as its cancel signal; a cancelled run answers 499 (nobody listens). */
export async function withDisconnect(reply: FastifyReply, fn: (signal: AbortSignal) => Promise<MetricAnswer>): Promise<FastifyReply> {
  const { signal, done } = disconnectSignal(reply);
  try {
    return sendJSONBytes(reply, (await fn(signal)).json);
  } catch (err) {
    if (err instanceof MetricCancelled) return reply.code(499).send();
    throw err;
  } finally {
    done();
  }
}

/** As `withDisconnect` for an answer built as an object (serialized by the route's schema). */
export async function withDisconnectValue<T>(reply: FastifyReply, fn: (signal: AbortSignal) => Promise<T>): Promise<FastifyReply> {
  const { signal, done } = disconnectSignal(reply);
  try {
    return reply.code(200).send(await fn(signal));
  } catch (err) {
    if (err instanceof MetricCancelled) return reply.code(499).send();
    throw err;
  } finally {
    done();
  }
}

/** `Prefer: respond-async` (RFC 7240; other preferences may come along): run as a job (docs/jobs.md). */
export function prefersAsync(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|[,\s])respond-async\s*(,|;|$)/i.test(text);
}
