// Hostile and unusual input through the real HTTP stack: prototype keys, ids that are names of
// Object.prototype members, syntax errors, empty bodies. Always a clear 4xx naming the place, or a
// correct answer — never a 500 and never a silently dropped node.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { userApp, bearer } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { findForbiddenKey } from '../src/http/json-body.ts';

describe('hostile input', () => {
  const t = fixture(() => userApp('sqlite'));

  const post = (url: string, payload: string) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(t.ownerToken), 'content-type': 'application/json' }, payload });

  test('a __proto__ key is refused with 400 naming its JSON pointer (networks API)', async () => {
    const res = await post('/api/v2/networks', '{"name":"x","networkJSON":{"nodes":[{"id":1,"attributes":{"__proto__":{"polluted":1}}}]}}');
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'INVALID_ARGS');
    assert.deepEqual(body.errors.map((e: { path: string }) => e.path), ['/networkJSON/nodes/0/attributes/__proto__']);
    assert.match(body.detail, /__proto__/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // escaped spelling of the same key
    const esc = await post('/api/v2/networks', '{"name":"x","\\u005f_proto__":{"a":1},"networkJSON":{"nodes":[]}}');
    assert.equal(esc.statusCode, 400);
    assert.equal(esc.json().errors[0].path, '/__proto__');
    const ctor = await post('/api/v2/networks', '{"name":"x","constructor":{"prototype":{"a":1}},"networkJSON":{"nodes":[]}}');
    assert.equal(ctor.statusCode, 400);
    assert.equal(ctor.json().errors[0].path, '/constructor/prototype');
  });

  test('syntax errors carry the parser message; an empty body is no body', async () => {
    const bad = await post('/api/v2/networks', '{"name": "x",\n "networkJSON": {"nodes": [}}');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'INVALID_ARGS');
    assert.match(bad.json().detail, /not valid JSON: Unexpected token/);
    // an empty body is no body: the route's own validation names what is missing …
    const empty = await post('/api/v2/networks', '');
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().code, 'INVALID_ARGS');
    assert.doesNotMatch(empty.json().detail, /not valid JSON/);
    // … and a request that needs no body is not refused for carrying Content-Type: application/json
    const made = await post('/api/v2/networks', JSON.stringify({ name: 'tmp', networkJSON: { nodes: [] } }));
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v2/networks/${made.json()._id}`, headers: { ...bearer(t.ownerToken), 'content-type': 'application/json' }, payload: '' });
    assert.equal(del.statusCode, 200, del.body);
    const deep = await post('/api/v2/networks', '['.repeat(100_000) + ']'.repeat(100_000));
    assert.equal(deep.statusCode, 400);
  });

  test('node ids named like Object.prototype members are stored and get metric values', async () => {
    const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const networkJSON = {
      nodes: ids.map((id) => ({ id, attributes: { name: id } })),
      edges: ids.slice(1).map((id, i) => ({ id: i, source: ids[i], target: id })),
    };
    for (const [metric, attr] of [
      ['betweennessCentrality', 'Betweenness Centrality'],
      ['closenessCentrality', 'Closeness Centrality'],
      ['connectedComponents', 'Component'],
      ['constraint', 'Constraint'],
    ]) {
      const res = await post(`/api/v2/metrics/nodes/${metric}`, JSON.stringify({ networkJSON, isDirected: false }));
      assert.equal(res.statusCode, 200, res.body);
      const values = JSON.parse(res.body).values[attr] as Record<string, unknown>;
      assert.deepEqual(Object.keys(values).sort(), [...ids].sort(), `${metric} answers every node`);
    }
    const created = await post('/api/v2/networks', JSON.stringify({ name: 'proto ids', isDirected: false, networkJSON }));
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json()._id as string;
    const run = await post('/api/v2/metrics/nodes/betweennessCentrality', JSON.stringify({ networkId: id }));
    assert.equal(run.statusCode, 200, run.body);
    const got = await t.app.inject({ method: 'GET', url: `/api/v2/networks/${id}`, headers: bearer(t.ownerToken) });
    const stored = got.json().networkJSON.nodes as { id: string; attributes: Record<string, unknown> }[];
    assert.deepEqual(stored.map((n) => n.id), ids);
    for (const n of stored) assert.equal(typeof n.attributes['Betweenness Centrality'], 'number', `${n.id} got its value`);
    // the middle of the path has the highest betweenness
    assert.ok((stored[2].attributes['Betweenness Centrality'] as number) > (stored[0].attributes['Betweenness Centrality'] as number));
  });

  test('findForbiddenKey walks arrays and nested objects iteratively', () => {
    assert.equal(findForbiddenKey({ a: [{ b: 1 }, { 'c/d': { __proto__: null, ok: 1 } }] }), null);
    const parsed = JSON.parse('{"a":[0,{"x~y":{"__proto__":1}}]}');
    assert.equal(findForbiddenKey(parsed), '/a/1/x~0y/__proto__');
    let deep: unknown = JSON.parse('{"__proto__":2}');
    for (let i = 0; i < 50_000; i++) deep = [deep];
    assert.equal(findForbiddenKey(deep), '/0'.repeat(50_000) + '/__proto__');
  });
});
