// Compare's prepared sides kept for repeat calls (pool/digest-cache.ts, pool.ts `compare`): a side is read
// and prepared once per (network version, parameters); a new version, other parameters or a failed side
// are read again; the answer is the one-thread compare's (compare/compare.ts) either way; the cache holds
// at most its byte bound, least recently used out first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricPool } from '../src/pool/pool.ts';
import { DigestCache, digestBytes } from '../src/pool/digest-cache.ts';
import { compareNetworks, digestSide } from '../src/compare/compare.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';

const net = (edges: [string, string][]): NetworkJSON => ({
  nodes: ['a', 'b', 'c', 'd'].map((id, i) => ({ id, attributes: { team: i < 2 ? 'X' : 'Y' } })),
  edges: edges.map(([source, target], i) => ({ id: i, source, target })),
});
const A = net([['a', 'b'], ['b', 'c']]);
const B = net([['a', 'b'], ['c', 'd']]);
const B2 = net([['a', 'd']]);
const bytes = (n: NetworkJSON) => new TextEncoder().encode(JSON.stringify(n));

test('pool compare: a side is read once per version and parameters; answers equal the one-thread compare', async () => {
  const pool = new MetricPool({ workers: 2, queueSize: 4, timeoutMs: 30_000 });
  try {
    const reads: string[] = [];
    const source = (key: string, n: NetworkJSON) => ({ networkDirected: false, key, load: async () => (reads.push(key), { text: bytes(n), key }) });
    const run = async (a: ReturnType<typeof source>, b: ReturnType<typeof source>, params: Record<string, unknown>) => {
      const out = JSON.parse(new TextDecoder().decode(await pool.compare({ a, b, params })));
      delete out.meta;
      return out;
    };
    const params = { attribute: 'team', minGroupSize: 1, metrics: ['totalDegree'] };
    const first = await run(source('a@1', A), source('b@1', B), params);
    assert.deepEqual(first, JSON.parse(JSON.stringify(compareNetworks({ network: A, directed: false }, { network: B, directed: false }, params))));
    assert.deepEqual(reads, ['a@1', 'b@1']);
    assert.deepEqual(await run(source('a@1', A), source('b@1', B), params), first, 'the same answer from the kept sides');
    assert.deepEqual(reads, ['a@1', 'b@1'], 'nothing read again');
    const next = await run(source('a@1', A), source('b@2', B2), params);
    assert.deepEqual(next, JSON.parse(JSON.stringify(compareNetworks({ network: A, directed: false }, { network: B2, directed: false }, params))));
    assert.deepEqual(reads, ['a@1', 'b@1', 'b@2'], 'a new version is read');
    await run(source('a@1', A), source('b@2', B2), { ...params, attribute: undefined });
    assert.deepEqual(reads.slice(3), ['a@1', 'b@2'], 'other parameters are prepared again');
    // a side that fails (an unknown metric) is not kept; the caller's own load errors come back unchanged
    await assert.rejects(run(source('a@1', A), source('b@2', B2), { metrics: ['nope'] }), /unknown metric/);
    await assert.rejects(run(source('a@1', A), source('b@2', B2), { metrics: ['nope'] }), /unknown metric/);
    assert.equal(reads.filter((r) => r === 'a@1').length, 4, 'failed sides are read again');
    const gone = new Error('no network "x"');
    await assert.rejects(pool.compare({ a: { networkDirected: false, key: 'x@1', load: async () => Promise.reject(gone) }, b: source('b@1', B), params }), (e) => e === gone);
  } finally {
    await pool.close();
  }
});

test('digest cache: bounded by bytes, least recently used out first', () => {
  const d = (n: NetworkJSON) => ({ ...digestSide({ network: n, directed: false }, false, {}), failure: null });
  const one = digestBytes(d(A));
  const cache = new DigestCache(2 * one + 1);
  cache.set('a', d(A));
  cache.set('b', d(A));
  assert.ok(cache.get('a'), 'a used last');
  cache.set('c', d(A));
  assert.equal(cache.get('b'), undefined, 'b was the least recently used');
  assert.ok(cache.get('a') && cache.get('c'));
  assert.ok(cache.bytes <= cache.maxBytes);
  const small = new DigestCache(one - 1);
  small.set('big', d(A));
  assert.equal(small.get('big'), undefined, 'larger than the bound: not kept');
});
