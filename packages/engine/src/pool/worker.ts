/**
 * Metric pool worker (piscina; TypeScript run directly by Node 24). Parses the network JSON text here,
 * never on the server's event loop, runs the registry metric with the task's deadline (the kernels'
 * `ctx.checkpoint()` throws METRIC_TIMEOUT cooperatively; the pool terminates this thread if a kernel
 * overruns without checking) and sends back the final response text in transferred buffers.
 */
import { getMetric, runMetric, type RunOutput } from '../metrics/run.ts';
import type { NetworkJSON } from '../graph/network-json.ts';
import { EngineError } from '../errors.ts';
import { MAX_JSON_DEPTH, elementsOverMessage, mayExceedElements, nestsDeeperThan, networkElementsOver } from '../graph/json-limits.ts';
import { parseMetricRequest, responseText, applyNodeValues } from './request.ts';
import { runFinish, runPartial } from './shard.ts';
import { moved, ownBuffer } from './transfer.ts';
import { fromWire, toWire, type CompareDiffTask, type CompareSideTask, type CompareTask, type RunReply, type RunStats, type RunTask } from './protocol.ts';
import { compareDigests, digestSide, firstFailure, type CompareParams } from '../compare/compare.ts';
import { ENGINE_VERSION } from '../version.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new EngineError('METRIC_TIMEOUT', 'metric compute time limit reached');
}

function handle(task: RunTask): RunReply {
  const t0 = performance.now();
  const metric = getMetric(task.metric);
  let network: NetworkJSON;
  let networkDirected: boolean;
  let params: Record<string, unknown>;
  if (task.network.kind === 'body') {
    // the node and edge limits before the body becomes a string and objects (issue 19, Low)
    const max = { maxNodes: task.limits.maxNodes ?? Infinity, maxEdges: task.limits.maxEdges ?? Infinity };
    const over = mayExceedElements(task.network.body.length, max) ? networkElementsOver(task.network.body, max) : null;
    if (over) throw new EngineError('PAYLOAD_TOO_LARGE', `networkJSON: ${elementsOverMessage(over)}`, [{ path: `/networkJSON/${over.what}`, message: elementsOverMessage(over) }]);
    const text = decoder.decode(task.network.body);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new EngineError('INVALID_ARGS', `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted`, [{ path: '', message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels is not accepted` }]);
    }
    const body: unknown = JSON.parse(text);
    const req = parseMetricRequest(metric, body, task.limits);
    if (req.networkId !== undefined) return { ok: true, kind: 'deferred', networkId: req.networkId, params: req.params };
    network = req.network as NetworkJSON;
    networkDirected = req.isDirected;
    params = req.params;
  } else {
    const t = task.network.text;
    network = JSON.parse(typeof t === 'string' ? t : decoder.decode(t)) as NetworkJSON;
    networkDirected = task.network.networkDirected;
    params = task.network.params;
  }
  const parseMs = performance.now() - t0;
  checkDeadline(task.deadline);
  // When computing began, on this thread's clock: after parsing, or for the finish of a split run when
  // its first shard began (meta.elapsedMs and computeMs then cover the whole run, not only the finish).
  const shard = task.shard;
  const computeStart = shard?.phase === 'finish' && shard.computeStartedAt !== undefined ? shard.computeStartedAt - performance.timeOrigin : t0 + parseMs;
  const stats = (): RunStats => ({
    nodeCount: network.nodes.length,
    edgeCount: network.edges?.length ?? 0,
    parseMs: Math.round(parseMs),
    computeMs: Math.round(performance.now() - computeStart),
  });

  const slot = task.progress;
  const progress = slot
    ? (done: number, total: number) => {
        slot.buffer[2 * slot.slot] = done;
        slot.buffer[2 * slot.slot + 1] = total;
      }
    : undefined;
  let out: RunOutput;
  if (shard?.phase === 'partial') {
    const partials = runPartial(task.metric, network, networkDirected, params, task.deadline, shard.index, shard.count, progress);
    return { ok: true, kind: 'partial', partials, stats: stats(), computeStartedAt: performance.timeOrigin + computeStart };
  } else if (shard?.phase === 'finish') {
    out = runFinish(task.metric, network, networkDirected, params, task.deadline, shard.partials, computeStart);
  } else {
    out = runMetric({ metric: task.metric, network, networkDirected, params, deadline: task.deadline, progress });
  }

  if (task.writeBack && out.kind === 'node') {
    applyNodeValues(network, metric, out.values);
    const networkText = encoder.encode(JSON.stringify(network));
    return { ok: true, kind: 'node', networkText, attributes: Object.keys(out.values), meta: out.meta, stats: stats() };
  }
  return { ok: true, kind: out.kind, response: encoder.encode(responseText(out)), stats: stats() };
}

/** One side of a compare: the stored network parsed and prepared here (compare/compare.ts digestSide). */
function handleCompareSide(task: CompareSideTask): RunReply {
  const t0 = performance.now();
  const network = JSON.parse(decoder.decode(task.text)) as NetworkJSON;
  const parseMs = performance.now() - t0;
  checkDeadline(task.deadline);
  const digest = digestSide({ network, directed: task.networkDirected }, task.directed, task.params as CompareParams, () => checkDeadline(task.deadline));
  const failure = digest.failure ? { stage: digest.failure.stage, error: toWire(digest.failure.error) } : null;
  const stats: RunStats = { nodeCount: digest.nodeCount, edgeCount: digest.edgeCount, parseMs: Math.round(parseMs), computeMs: performance.now() - t0 - parseMs };
  return { ok: true, kind: 'compareSide', digest: { ...digest, failure }, stats };
}

/** The compare of two prepared sides: the answer's text (compare/compare.ts compareDigests). */
function handleCompareDiff(task: CompareDiffTask): RunReply {
  const t0 = performance.now();
  const failure = firstFailure(task.a, task.b);
  if (failure) throw fromWire(failure);
  const result = compareDigests(task.a, task.b, task.directed, task.params as CompareParams, () => checkDeadline(task.deadline));
  const computeMs = task.sidesComputeMs + performance.now() - t0;
  const meta = { nodeCount: { a: task.a.nodeCount, b: task.b.nodeCount }, edgeCount: { a: task.a.edgeCount, b: task.b.edgeCount }, elapsedMs: Math.round(computeMs * 1000) / 1000, engineVersion: ENGINE_VERSION };
  const stats: RunStats = { nodeCount: task.a.nodeCount + task.b.nodeCount, edgeCount: task.a.edgeCount + task.b.edgeCount, parseMs: 0, computeMs: Math.round(computeMs) };
  return { ok: true, kind: 'report', response: encoder.encode(JSON.stringify({ ...result, meta })), stats };
}

export default function metricTask(task: RunTask | CompareTask): RunReply {
  let reply: RunReply;
  try {
    reply = !('op' in task) ? handle(task) : task.op === 'compareSide' ? handleCompareSide(task) : handleCompareDiff(task);
  } catch (err) {
    return { ok: false, error: toWire(err) };
  }
  const buffers: ArrayBuffer[] = [];
  const add = (a: Uint8Array | Int32Array | Float64Array | undefined) => {
    const b = a ? ownBuffer(a) : null;
    if (b && !buffers.includes(b)) buffers.push(b);
  };
  if (reply.ok && reply.kind === 'partial') reply.partials.forEach(add);
  else if (reply.ok && reply.kind === 'compareSide') [reply.digest.off, reply.digest.adj, reply.digest.w].forEach(add);
  else if (reply.ok && reply.kind !== 'deferred') {
    add(reply.response);
    add(reply.networkText);
  }
  return buffers.length > 0 ? moved(reply, buffers) : reply;
}
