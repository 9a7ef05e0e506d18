// The builder compares ids by their string form (as the API does) while keeping numeric keys as Numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NetworkBuilder } from './builder.ts';
import { Problems } from './problems.ts';

const limits = { maxNodes: 100, maxEdges: 100, maxBytes: 1 << 20, maxInflatedBytes: 1 << 20 };

test('ids compare by string form: 1 and "1" are one id, "01", "1.0" and "-0" are others; numbering skips taken ids', () => {
  const problems = new Problems();
  const b = new NetworkBuilder(problems, limits, (kind, loc, field) => `${kind} ${loc} ${field}`);
  for (const [i, id] of ([1, '1', '01', '1.0', 0, '-0', '0', 1e21, '1e+21', 'a'] as const).entries()) b.addNode({ id }, i + 1);
  b.addEdge('2', 'a', 1, undefined, 11);
  b.addEdge(undefined, '01', '1.0', { w: 1 }, 12);
  b.addEdge(undefined, 'a', '-0', undefined, 13);
  b.addEdge(2, 1, 'zz', undefined, 14);
  const net = b.finish(false);
  assert.deepEqual(net.nodes.map((n) => n.id), [1, '01', '1.0', 0, '-0', 1e21, 'a']);
  assert.deepEqual((net.edges ?? []).map((e) => [e.id, e.source, e.target]), [['2', 'a', 1], [1, '01', '1.0'], [3, 'a', '-0']]);
  assert.deepEqual(problems.items, [
    { path: 'node 2 id', message: 'duplicate node id "1" (first at node 1 id)' },
    { path: 'node 7 id', message: 'duplicate node id "0" (first at node 5 id)' },
    { path: 'node 9 id', message: 'duplicate node id "1e+21" (first at node 8 id)' },
    { path: 'edge 14 id', message: 'duplicate edge id "2" (first at edge 11 id)' },
  ]);
});
