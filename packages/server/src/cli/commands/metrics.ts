/**
 * netloom metrics run <metric> <network.json> [--param k=v …] [--directed true|false]
 * <metric> is a registry id (`diameter`) or the API's path for it (`network/diameter`,
 * `nodes/betweennessCentrality`, also with the `/api/v2/metrics/` prefix; domain/metrics/paths.ts).
 *
 * Computes a registry metric locally with the same engine, the same validation (parseMetricRequest) and
 * the same output as the API with `networkJSON`: a bare number for network metrics, `{ values, meta }`
 * for node metrics, printed compactly on stdout exactly as the API sends it. `--param` values are parsed
 * as JSON when they can be (numbers, booleans, arrays, objects), else taken as strings. The file holds a
 * network JSON (`{ nodes, edges }`) or a network resource (`{ …, isDirected, networkJSON }`, e.g. saved
 * from `GET /networks/:id`, whose `isDirected` is then the default). Errors: `{ "error": { code, status,
 * detail, errors } }` on stderr, exit code 1. No database is needed.
 * On a terminal, a progress bar with the ETA is drawn on standard error while it runs (nothing when piped).
 */
import { readFile } from 'node:fs/promises';
import { EngineError, metrics, runMetric, type NetworkJSON } from '@netloom/engine';
import { parseMetricRequest, responseText } from '@netloom/engine/pool/index.ts';
import type { CliCommand } from '../context.ts';
import { metricFromArgument, metricPath } from '../../domain/metrics/paths.ts';
import { progressBar } from '../progress-bar.ts';

/** `k=v` → [k, value]; the value is JSON when it parses, else the raw string. */
export function parseParam(kv: string): [string, unknown] {
  const eq = kv.indexOf('=');
  if (eq <= 0) throw new EngineError('INVALID_ARGS', `--param ${JSON.stringify(kv)}: expected key=value`, [{ path: '', message: 'expected key=value' }]);
  const key = kv.slice(0, eq);
  const raw = kv.slice(eq + 1);
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

/** The API answer for `metric` (a registry id or its API path) on the network file's content (what the command prints). */
export function computeMetricText(metricId: string, file: unknown, params: Record<string, unknown>, directed: boolean | undefined, deadline?: number, progress?: (done: number, total: number) => void): string {
  const metric = metricFromArgument(metricId);
  let networkJSON: unknown = file;
  let isDirected: unknown = directed;
  if (file && typeof file === 'object' && !Array.isArray(file) && 'networkJSON' in file) {
    const f = file as { networkJSON: unknown; isDirected?: unknown };
    networkJSON = f.networkJSON;
    if (isDirected === undefined) isDirected = f.isDirected;
  }
  const req = parseMetricRequest(metric, { ...params, networkJSON, ...(isDirected === undefined ? {} : { isDirected }) });
  const out = runMetric({ metric: metric.id, network: req.network as NetworkJSON, networkDirected: req.isDirected, params: req.params, deadline, progress });
  return responseText(out);
}

export const metricsCommand: CliCommand = {
  name: 'metrics',
  register(program) {
    const group = program.command('metrics').description('compute network metrics locally (same engine and output as the API)');
    group
      .command('list')
      .description('list the metric ids')
      .action(() => {
        process.stdout.write(JSON.stringify([...metrics.values()].map((m) => ({ id: m.id, kind: m.kind, path: metricPath(m), summary: m.summary })), null, 2) + '\n');
      });
    group
      .command('run')
      .description('run <metric> on <network.json> and print the API answer (a number, or { values, meta })')
      .argument('<metric>', 'metric id or API path, e.g. betweennessCentrality, diameter, nodes/betweennessCentrality, network/diameter')
      .argument('<network>', 'file with network JSON ({ nodes, edges }) or a network resource with networkJSON')
      .option('-p, --param <key=value>', 'metric parameter (repeatable); the value is parsed as JSON when possible', (v: string, acc: string[]) => [...acc, v], [] as string[])
      .option('--directed <bool>', 'whether the network is directed (default: the file’s isDirected, else true)')
      .option('--timeout-ms <ms>', 'compute time limit (default: none)')
      .action(async (metricId: string, path: string, opts: { param: string[]; directed?: string; timeoutMs?: string }) => {
        try {
          const params = Object.fromEntries(opts.param.map(parseParam));
          let directed: boolean | undefined;
          if (opts.directed !== undefined) {
            if (opts.directed !== 'true' && opts.directed !== 'false') throw new EngineError('INVALID_ARGS', '--directed must be true or false', [{ path: '/isDirected', message: 'must be true or false' }]);
            directed = opts.directed === 'true';
          }
          let file: unknown;
          try {
            file = JSON.parse(await readFile(path, 'utf8'));
          } catch (err) {
            throw new EngineError('INVALID_ARGS', `${path}: ${(err as Error).message}`, [{ path: '', message: 'cannot read the network file as JSON' }]);
          }
          const deadline = opts.timeoutMs ? Date.now() + Number(opts.timeoutMs) : undefined;
          // a progress bar on a terminal's standard error; nothing extra when piped (docs/jobs.md)
          const bar = progressBar(metricId);
          let text: string;
          try {
            text = computeMetricText(metricId, file, params, directed, deadline, bar ? (d, t) => bar.update(d, t) : undefined);
          } finally {
            bar?.done();
          }
          process.stdout.write(text + '\n');
        } catch (err) {
          if (!(err instanceof EngineError)) throw err;
          process.stderr.write(JSON.stringify({ error: { code: err.code, status: err.status, detail: err.message, ...(err.errors.length ? { errors: err.errors } : {}) } }) + '\n');
          process.exitCode = 1;
        }
      });
  },
};
