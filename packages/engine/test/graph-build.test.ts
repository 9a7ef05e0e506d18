/**
 * Graph construction: id interning by string form (graph/ids.ts), the validator's id checks on the fast
 * path, arcsToCsr against a naive reference (sorted rows, merged duplicates with weights summed in arc
 * order), buildGraph's ids, and the seed hash of randomised metrics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdIndex, intKey } from '../src/graph/ids.ts';
import { arcsToCsr } from '../src/graph/csr.ts';
import { buildGraph, indexNodes } from '../src/graph/build.ts';
import { validateNetworkJSON, type NetworkJSON } from '../src/graph/network-json.ts';
import { createRng } from '../src/kernels/random.ts';
import { deriveSeed } from '../src/metrics/run.ts';
import { createHash } from 'node:crypto';

test('intKey: exactly the ids whose string form is a canonical whole number below 2^31', () => {
  for (const [id, k] of [
    [0, 0],
    [-0, 0],
    [7, 7],
    ['7', 7],
    ['0', 0],
    [2 ** 31 - 1, 2 ** 31 - 1],
    ['2147483647', 2 ** 31 - 1],
    [3.0, 3],
  ] as const) {
    assert.equal(intKey(id), k, String(id));
    assert.equal(String(id), String(k));
  }
  for (const id of [-1, '-1', 1.5, '1.5', '07', '00', '', ' 7', '7 ', '+7', '1e3', 2 ** 31, '2147483648', '99999999999', 1e21, NaN, Infinity, null, undefined, true, {}]) {
    assert.equal(intKey(id), -1, JSON.stringify(id) ?? String(id));
  }
});

test('IdIndex: Numbers and Strings meet by string form; other ids stay apart', () => {
  const ix = new IdIndex(4);
  assert.equal(ix.add(7, 0), true);
  assert.equal(ix.add('7', 1), false, '"7" is the id 7');
  assert.equal(ix.get('7'), 0);
  assert.equal(ix.add('07', 2), true, '"07" is not 7');
  assert.equal(ix.add(1.5, 3), true);
  assert.equal(ix.get('1.5'), 3);
  assert.equal(ix.add(-0, 4), true);
  assert.equal(ix.get('0'), 4);
  assert.equal(ix.get(0), 4);
  assert.equal(ix.add(2 ** 31, 5), true, 'beyond the integer path: by string');
  assert.equal(ix.get('2147483648'), 5);
  assert.equal(ix.add(1e21, 6), true);
  assert.equal(ix.get('1e+21'), 6);
  assert.equal(ix.add(5_000_000, 7), true, 'above the dense bound: the integer map');
  assert.equal(ix.get('5000000'), 7);
  assert.equal(ix.get(5_000_001), -1);
  assert.equal(ix.add(2000, 8), true, 'the dense table grows');
  assert.equal(ix.get('2000'), 8);
  assert.equal(ix.get('n1'), -1);
  ix.set('7', 9);
  assert.equal(ix.get(7), 9, 'set overwrites');
  assert.equal(ix.get(undefined), -1);
  ix.set('undefined', 10);
  assert.equal(ix.get(undefined), 10, 'any value is looked up by its string form');
});

test('IdIndex agrees with a Map of String(id) on random mixed ids', () => {
  const rng = createRng(11);
  const pick = (): string | number => {
    const r = rng.int(6);
    const k = rng.int(3000);
    if (r === 0) return k;
    if (r === 1) return String(k);
    if (r === 2) return `0${k}`;
    if (r === 3) return k + 0.5;
    if (r === 4) return 2 ** 31 + k;
    return `n${k}`;
  };
  const ix = new IdIndex(100);
  const ref = new Map<string, number>();
  for (let i = 0; i < 5000; i++) {
    const id = pick();
    const fresh = !ref.has(String(id));
    if (fresh) ref.set(String(id), i);
    assert.equal(ix.add(id, i), fresh);
  }
  for (let i = 0; i < 5000; i++) {
    const id = pick();
    assert.equal(ix.get(id), ref.get(String(id)) ?? -1);
  }
});

test('validateNetworkJSON: duplicate and missing ids by string form, every problem with its pointer', () => {
  const net = {
    nodes: [{ id: 1 }, { id: '1' }, { id: 'a' }, { id: 2.5 }, { id: '2.5' }, { id: '01' }, { id: true }],
    edges: [
      { id: 1, source: '1', target: 'a' },
      { id: '1', source: 2.5, target: '01' },
      { id: 2, source: 1, target: 3 },
      { id: 3, source: '2.50', target: 'a' },
      { id: 4, target: 'a' },
    ],
  };
  const res = validateNetworkJSON(net);
  assert.equal(res.ok, false);
  assert.deepEqual(res.problems, [
    { path: '/nodes/1/id', message: 'duplicate node id "1"' },
    { path: '/nodes/4/id', message: 'duplicate node id "2.5"' },
    { path: '/nodes/6/id', message: 'must be a String or a finite Number, got true' },
    { path: '/edges/1/id', message: 'duplicate edge id "1"' },
    { path: '/edges/2/target', message: 'no node with id "3"' },
    { path: '/edges/3/source', message: 'no node with id "2.50"' },
    { path: '/edges/4/source', message: 'is required (a node id)' },
  ]);
  const ok = validateNetworkJSON({ nodes: [{ id: 0 }, { id: '1' }, { id: 'x' }], edges: [{ id: 0, source: '0', target: 1 }, { id: 1, source: 'x', target: 0 }] });
  assert.equal(ok.ok, true);
  assert.deepEqual(ok.problems, []);
});

test('arcsToCsr equals a naive sort-and-merge (weights summed in arc order), with hubs and duplicates', () => {
  const rng = createRng(5);
  for (const n of [1, 7, 60, 400]) {
    const len = n * 12;
    const src = new Int32Array(len);
    const dst = new Int32Array(len);
    const w = new Float64Array(len);
    for (let i = 0; i < len; i++) {
      src[i] = i % 4 === 0 ? 0 : rng.int(n); // node 0 is a hub (a row longer than 32)
      dst[i] = rng.int(Math.max(1, n >> 2)); // few targets: many duplicates
      w[i] = rng.random();
    }
    for (const sum of [false, true]) {
      const got = arcsToCsr(n, { src, dst, w, length: len }, sum);
      const rows: [number, number][][] = Array.from({ length: n }, () => []);
      for (let i = 0; i < len; i++) rows[src[i]].push([dst[i], w[i]]);
      const off = [0];
      const adj: number[] = [];
      const ws: number[] = [];
      for (const row of rows) {
        row.sort((a, b) => a[0] - b[0]); // stable: duplicates keep arc order
        for (const [v, x] of row) {
          if (adj.length > off[off.length - 1] && adj[adj.length - 1] === v) {
            if (sum) ws[ws.length - 1] += x;
          } else {
            adj.push(v);
            ws.push(sum ? x : 1);
          }
        }
        off.push(adj.length);
      }
      assert.deepEqual([...got.off], off);
      assert.deepEqual([...got.adj], adj);
      assert.deepEqual([...got.w], ws, 'bitwise equal sums');
    }
  }
});

test('buildGraph: ids by string form on first use; string and number endpoints meet', () => {
  const net: NetworkJSON = {
    nodes: [{ id: 10 }, { id: 'b' }, { id: 2.5 }],
    edges: [
      { id: 0, source: '10', target: 'b' },
      { id: 1, source: 2.5, target: 10 },
      { id: 2, source: 'b', target: '10' },
    ],
  };
  const g = buildGraph(net, { directed: false, weight: null });
  assert.deepEqual(g.ids, ['10', 'b', '2.5']);
  assert.equal(g.m, 2);
  assert.deepEqual([...g.outOff], [0, 2, 3, 4]);
  assert.deepEqual([...g.outAdj], [1, 2, 0, 0]);
  const { ids, index } = indexNodes(net);
  assert.deepEqual(ids, ['10', 'b', '2.5']);
  assert.equal(index.get('2.5'), 2);
  assert.equal(index.get(10), 0);
  assert.equal(index.get('c'), undefined);
  assert.throws(() => buildGraph({ nodes: [{ id: 1 }], edges: [{ id: 0, source: 1, target: 2 }] }, { directed: true, weight: null }), /edge endpoint is not a node/);
});

test('deriveSeed: chunked hashing gives the seed of one update per node and edge (surrogates included)', () => {
  const reference = (metricId: string, network: NetworkJSON, params: Record<string, unknown>) => {
    const h = createHash('sha256');
    h.update(metricId);
    h.update(JSON.stringify(params));
    for (const node of network.nodes) h.update(String(node.id) + '\u0000');
    for (const e of network.edges ?? []) h.update(String(e.source) + '\u0001' + String(e.target) + '\u0002');
    return h.digest().readUInt32LE(0);
  };
  const rng = createRng(2);
  const nodes = Array.from({ length: 30000 }, (_, i) => ({ id: i % 5 === 0 ? `\udc00n${i}\ud800` : i % 5 === 1 ? `é${i}` : i }));
  const edges = Array.from({ length: 40000 }, (_, e) => ({ id: e, source: nodes[rng.int(nodes.length)].id, target: nodes[rng.int(nodes.length)].id }));
  const net: NetworkJSON = { nodes, edges };
  assert.equal(deriveSeed('communities', net, { resolution: 1 }), reference('communities', net, { resolution: 1 }));
  assert.equal(deriveSeed('x', { nodes: [] }, {}), reference('x', { nodes: [] }, {}));
});
