// Issue 9 (hardening), the HTTP twin of packages/engine/test/extreme-numbers.test.ts: every metric of the
// registry, called through the real HTTP stack, gets finite doubles from the whole range (5e-324 …
// 1.7976931348623157e308, negatives, anything fast-check draws) in every numeric parameter and — where
// the metric takes `metricEdgeWeights` — in every edge weight. Every answer must be 200 with finite values
// (no null where a number was computed) or a 4xx problem (docs/errors.md) with a `code` and a `message`
// naming what was refused; never a 5xx. docs/security.md lists this test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { metrics } from '@netloom/engine';
import { orgApp, bearer } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';

const RUNS = Number(process.env.EXTREME_HTTP_RUNS ?? 12);
const SEED = Number(process.env.EXTREME_HTTP_SEED ?? 4242);

const EXTREMES = [5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1e-16, 0.5, 1, 3, 1e16, 1e200, 9e307, 1e308, 1.7976931348623157e308];
const finite = fc.oneof(
  fc.constantFrom(...EXTREMES, ...EXTREMES.map((x) => -x), 0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -10, max: 1000 }),
);
const weight = fc.oneof(fc.constantFrom(...EXTREMES, 0), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }));

type Schema = { type?: string; anyOf?: Schema[]; default?: unknown; minimum?: number; maximum?: number };
const isNumeric = (s: Schema): boolean => s.type === 'number' || s.type === 'integer' || (s.anyOf ?? []).some(isNumeric);
type Net = { nodes: { id: number; attributes: Record<string, unknown> }[]; edges: { id: number; source: number; target: number; attributes: Record<string, unknown> }[] };

/** A path, a ring or random edges over ≤ 7 nodes, each edge with a weight (or none) and a formal/informal kind. */
function networkArb(weighted: boolean): fc.Arbitrary<{ net: Net; directed: boolean }> {
  const shape = fc.oneof(
    fc.integer({ min: 2, max: 6 }).map((n) => Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as [number, number])),
    fc.integer({ min: 3, max: 6 }).map((n) => Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number])),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 1, maxLength: 14 }),
  );
  const w = weighted ? fc.option(weight, { nil: undefined, freq: 8 }) : fc.constant(undefined);
  return fc.record({ edges: shape, directed: fc.boolean() }).chain(({ edges, directed }) =>
    fc.array(w, { minLength: edges.length, maxLength: edges.length }).map((ws) => {
      const n = Math.max(...edges.flat()) + 1;
      const net: Net = {
        nodes: Array.from({ length: n }, (_, i) => ({ id: i, attributes: { team: i % 2 === 0 ? 'A' : 'B' } })),
        edges: edges.map(([s, tg], i) => ({ id: i, source: s, target: tg, attributes: { kind: i % 2 === 0 ? 'formal' : 'informal', ...(ws[i] === undefined ? {} : { weight: ws[i] }) } })),
      };
      return { net, directed };
    }),
  );
}

/** Required non-numeric parameters (partition, attribute names and values) for the metrics that need them. */
function requiredParams(id: string, net: Net): Record<string, unknown> {
  const schema = metrics.get(id)!.params as unknown as { properties: Record<string, Schema>; required?: string[] };
  const out: Record<string, unknown> = {};
  for (const k of schema.required ?? []) {
    const p = schema.properties[k];
    if ('default' in p || isNumeric(p)) continue;
    if (k === 'partition') out[k] = Object.fromEntries(net.nodes.map((nd) => [String(nd.id), nd.attributes.team]));
    else if (/^fi(Formal|Informal)Attribute$/.test(k)) out[k] = 'kind';
    else if (k === 'fiFormalValues') out[k] = ['formal'];
    else if (k === 'fiInformalValues') out[k] = ['informal'];
    else if (p.type === 'string') out[k] = 'team';
    else if (p.type === 'array') out[k] = ['A'];
    else if (p.type === 'boolean') out[k] = true;
  }
  return out;
}

function paramsArb(id: string): fc.Arbitrary<Record<string, unknown>> {
  const schema = metrics.get(id)!.params as unknown as { properties: Record<string, Schema>; required?: string[] };
  const rec: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [k, s] of Object.entries(schema.properties)) {
    if (!isNumeric(s)) continue;
    // the whole double range, and also values inside the schema's own bounds so that runs get computed
    const inRange = fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    rec[k] = s.type === 'integer' ? fc.oneof(finite, inRange.map(Math.round)) : fc.oneof(finite, inRange);
    if ((schema.required ?? []).includes(k) && !('default' in s)) required.push(k);
  }
  if ('metricEdgeWeights' in schema.properties) {
    rec.metricEdgeWeights = fc.constant(true);
    required.push('metricEdgeWeights');
  }
  return fc.record(rec, { requiredKeys: required });
}

/** Every computed value finite: JSON has no NaN/Infinity, so a non-finite number would arrive as null. */
function assertFiniteAnswer(id: string, body: unknown): void {
  if (metrics.get(id)!.kind === 'network') {
    // a network metric answers the bare number (docs/spec/decisions.md §4.3)
    assert.ok(typeof body === 'number' && Number.isFinite(body), `${id}: network value ${JSON.stringify(body)}`);
    return;
  }
  if (metrics.get(id)!.kind === 'report') {
    // a report: every number in it finite (a non-finite one would arrive as null where a number is due)
    const r = body as { groups: { internal: unknown; external: unknown; size: unknown }[]; ties: unknown; matrix: { counts: unknown[][] } };
    for (const x of [r.ties, ...r.groups.flatMap((g) => [g.internal, g.external, g.size]), ...r.matrix.counts.flat()]) assert.ok(typeof x === 'number' && Number.isFinite(x), `${id}: ${JSON.stringify(body)}`);
    return;
  }
  const values = (body as { values?: Record<string, Record<string, unknown>> }).values;
  assert.ok(values && typeof values === 'object', `${id}: no values in ${JSON.stringify(body)}`);
  for (const [attr, byNode] of Object.entries(values)) {
    for (const [node, v] of Object.entries(byNode)) {
      assert.ok(typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)), `${id}: ${attr}[${node}] = ${JSON.stringify(v)}`);
    }
  }
}

describe('metrics API: extreme finite numbers in every numeric parameter and edge weight', () => {
  const t = fixture(() => orgApp('sqlite'));

  for (const [id, metric] of metrics) {
    const props = (metric.params as unknown as { properties: Record<string, Schema> }).properties;
    const hasWeights = 'metricEdgeWeights' in props;
    const numeric = Object.values(props).some(isNumeric);
    if (!hasWeights && !numeric) continue; // nothing numeric to feed
    test(`${id}: 200 with finite values or a 4xx problem`, async () => {
      const url = `/api/v2/metrics/${metric.kind === 'node' ? 'nodes' : 'network'}/${id}`;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(networkArb(hasWeights), paramsArb(id), async ({ net, directed }, params) => {
          const payload = { networkJSON: net, isDirected: directed, ...requiredParams(id, net), ...params };
          const res = await t.app.inject({ method: 'POST', url, headers: bearer(t.ownerToken), payload });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          assert.ok(res.statusCode < 500, `${id}: ${res.statusCode} ${res.body}\nbody: ${JSON.stringify(payload)}`);
          if (res.statusCode === 200) {
            assertFiniteAnswer(id, res.json());
            return;
          }
          assert.ok(res.statusCode >= 400, `${id}: unexpected ${res.statusCode}`);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
          const problem = res.json();
          assert.equal(typeof problem.code, 'string', res.body);
          assert.ok(typeof problem.message === 'string' && problem.message.length > 0, res.body);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // a property that only ever saw refusals would prove nothing about finite values
      assert.ok((statuses.get(200) ?? 0) > 0, `${id}: no run answered 200 (${JSON.stringify([...statuses])})`);
    });
  }
});
