// The group report (`POST /api/v2/metrics/network/groups`) and network compare (`POST /api/v2/networks/compare`)
// through the real HTTP stack on SQLite and PostgreSQL (docs/spec/decisions.md §11): answers, access rules,
// scopes, plans and the 400s naming the field. Exact values against NetworkX: packages/engine/test/analysis-oracle.test.ts.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { userApp, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';

/** Sales {a, b, c}, Eng {d, e}, HR {f}, g without a team; a directed advice network with weights. */
function advice() {
  const team: Record<string, string> = { a: 'Sales', b: 'Sales', c: 'Sales', d: 'Eng', e: 'Eng', f: 'HR' };
  const nodes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => (team[id] ? { id, attributes: { team: team[id] } } : { id }));
  const ties: [string, string, number][] = [['a', 'b', 2], ['b', 'a', 1], ['b', 'c', 1], ['a', 'd', 3], ['d', 'e', 1], ['e', 'f', 1], ['f', 'g', 1], ['a', 'b', 1], ['c', 'c', 5]];
  return { nodes, edges: ties.map(([s, t, w], i) => ({ id: i, source: s, target: t, attributes: { weight: w } })) };
}

for (const dialect of DIALECTS) {
  describe(`group report and compare (${dialect})`, () => {
    const t = fixture(() => userApp(dialect));
    let readOnly: string;
    let strangerToken: string;
    let freeToken: string;
    before(async () => {
      readOnly = await t.token(t.owner.id, { scopes: ['networks:read'] });
      strangerToken = await t.token((await t.user({ plan: 'enterprise' })).id);
      freeToken = await t.token((await t.user({ plan: 'free' })).id);
    });

    const post = (url: string, body: unknown, tok = t.ownerToken) => t.app.inject({ method: 'POST', url, headers: bearer(tok), payload: body as object });
    const create = async (name: string, networkJSON: unknown, extra: Record<string, unknown> = {}, tok = t.ownerToken) => {
      const res = await post('/api/v2/networks', { name, networkJSON, ...extra }, tok);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { _id: string; networkUUID: string };
    };

    test('group report on networkJSON: the §11 figures, directed matrix, weights, (no value), minGroupSize', async () => {
      const res = await post('/api/v2/metrics/network/groups', { networkJSON: advice(), attribute: 'team' });
      assert.equal(res.statusCode, 200, res.body);
      const r = res.json();
      assert.equal(r.attribute, 'team');
      assert.equal(r.directed, true);
      assert.deepEqual(r.matrix.values, ['Eng', 'HR', 'Sales', '(no value)']);
      // ties (self-loop c-c ignored, parallel a→b merged): a→b, b→a, b→c, a→d, d→e, e→f, f→g = 7
      assert.equal(r.ties, 7);
      assert.deepEqual(r.groups[2], { value: 'Sales', size: 3, internal: 3, external: 1, density: 3 / 6, ei: (1 - 3) / 4 });
      assert.deepEqual(r.groups[0], { value: 'Eng', size: 2, internal: 1, external: 2, density: 1 / 2, ei: 1 / 3 });
      assert.deepEqual(r.matrix.counts, [[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 3, 0], [0, 0, 0, 0]]);
      assert.deepEqual(r.matrix.densities[2], [1 / 6, 0, 3 / 6, 0]);
      assert.equal(r.matrix.densities[3][3], null);
      assert.equal(r.ei, (3 - 4) / 7);
      assert.equal(r.suppressed, 0);
      assert.equal(r.meta.metric, 'groups');
      assert.deepEqual(r.meta.parameters, { attribute: 'team', minGroupSize: 1 });
      // weights: a→b weighs 2 + 1 = 3 after merging
      const w = (await post('/api/v2/metrics/network/groups', { networkJSON: advice(), attribute: 'team', metricEdgeWeights: true })).json();
      assert.equal(w.groups[2].internal, 3 + 1 + 1);
      assert.equal(w.meta.weightAttribute, 'weight');
      // undirected: a-b once; k = 2 merges HR and (no value) into Other (< 2) (2 members: shown)
      const u = (await post('/api/v2/metrics/network/groups', { networkJSON: advice(), isDirected: false, attribute: 'team', minGroupSize: 2 })).json();
      assert.deepEqual(u.matrix.values, ['Eng', 'Sales', 'Other (< 2)']);
      assert.equal(u.ties, 6);
      assert.deepEqual(u.matrix.counts, [[1, 1, 1], [1, 2, 0], [1, 0, 1]]);
      assert.equal(u.suppressed, 2);
      // k = 4: every group is below it, Other (< 4) has 7 members: the only group reported
      const k4 = (await post('/api/v2/metrics/network/groups', { networkJSON: advice(), attribute: 'team', minGroupSize: 4 })).json();
      assert.deepEqual(k4.groups.map((g: { value: string; size: number }) => [g.value, g.size]), [['Other (< 4)', 7]]);
      // k = 8: nothing reported, whole-network ei still counts every tie (all internal to the merged group)
      const k8 = (await post('/api/v2/metrics/network/groups', { networkJSON: advice(), attribute: 'team', minGroupSize: 8 })).json();
      assert.deepEqual([k8.groups, k8.matrix.values, k8.ei, k8.suppressed], [[], [], -1, 7]);
    });

    test('group report: 400s name the field; a stored network is read, never written; access as for metrics', async () => {
      const bad = async (body: Record<string, unknown>, path: string) => {
        const res = await post('/api/v2/metrics/network/groups', body);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'INVALID_ARGS');
        assert.ok(res.json().errors.some((e: { path: string }) => e.path === path), `${path} in ${res.body}`);
      };
      await bad({ networkJSON: advice() }, '/attribute');
      await bad({ networkJSON: advice(), attribute: '' }, '/attribute');
      await bad({ networkJSON: advice(), attribute: 'team', minGroupSize: 0 }, '/minGroupSize');
      await bad({ networkJSON: advice(), attribute: 'team', minGroupSize: 2.5 }, '/minGroupSize');
      await bad({ networkJSON: advice(), attribute: 'team', groupBy: 'x' }, '/groupBy');
      const many = { nodes: Array.from({ length: 1001 }, (_, i) => ({ id: i, attributes: { t: `v${i}` } })) };
      await bad({ networkJSON: many, attribute: 't' }, '/attribute');
      const huge = { nodes: [{ id: 1, attributes: { t: 'x' } }, { id: 2, attributes: { t: 'y' } }, { id: 3, attributes: { t: 'y' } }], edges: [{ id: 1, source: 1, target: 2, attributes: { weight: 1e308 } }, { id: 2, source: 2, target: 3, attributes: { weight: 1e308 } }] };
      await bad({ networkJSON: huge, attribute: 't', metricEdgeWeights: true }, '/networkJSON/edges/0/attributes/weight');

      const net = await create('Advice', advice());
      const res = await post('/api/v2/metrics/network/groups', { networkId: net._id, attribute: 'team' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().ties, 7);
      const after = (await t.app.inject({ method: 'GET', url: `/api/v2/networks/${net._id}`, headers: bearer(t.ownerToken) })).json();
      assert.equal(after.networkUUID, net.networkUUID, 'a report never writes');
      assert.equal((await post('/api/v2/metrics/network/groups', { networkId: net._id, attribute: 'team' }, strangerToken)).statusCode, 404);
      assert.equal((await post('/api/v2/metrics/network/groups', { networkJSON: advice(), attribute: 'team' }, freeToken)).json().code, 'PLAN_REQUIRED');
      // the OpenAPI document names the answer's schema
      const doc = (await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
      const op = doc.paths['/api/v2/metrics/network/groups'].post;
      assert.equal(op.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/GroupReport');
      assert.ok(doc.components.schemas.GroupReport.properties.matrix);
      assert.ok(doc.paths['/api/v2/networks/compare'].post.requestBody);
    });

    test('compare: nodes joined/left, ties added/removed/kept, weight changes, metric deltas, group changes', async () => {
      const a = await create('Wave 1', advice());
      const second = advice();
      second.nodes = second.nodes.filter((n) => n.id !== 'g');
      second.nodes.push({ id: 'h', attributes: { team: 'HR' } });
      // f→g goes with g; d→e removed; e→h added; a→b weight 3 → 4 (parallel edges sum)
      second.edges = second.edges.filter((e) => !(e.source === 'f' && e.target === 'g') && !(e.source === 'd' && e.target === 'e'));
      second.edges.push({ id: 99, source: 'e', target: 'h', attributes: { weight: 2 } }, { id: 100, source: 'a', target: 'b', attributes: { weight: 1 } });
      const b = await create('Wave 2', second);
      const res = await post('/api/v2/networks/compare', { a: a._id, b: b._id, metrics: ['outDegree'], attribute: 'team' });
      assert.equal(res.statusCode, 200, res.body);
      const c = res.json();
      assert.equal(c.directed, true);
      assert.deepEqual(c.nodes, { joined: ['h'], left: ['g'], kept: 6 });
      assert.deepEqual(c.ties.added, [['e', 'h']]);
      assert.deepEqual(c.ties.removed, [['d', 'e'], ['f', 'g']]);
      assert.equal(c.ties.kept, 5);
      assert.deepEqual(c.ties.weightChanged, [['a', 'b', 3, 4]]);
      assert.deepEqual(c.metrics.outDegree.d, { a: 1, b: 0, delta: -1 });
      assert.deepEqual(c.metrics.outDegree.g, { a: 0, b: null, delta: null });
      assert.deepEqual(c.metrics.outDegree.h, { a: null, b: 0, delta: null });
      const sales = c.groups.find((g: { value: string }) => g.value === 'Sales');
      assert.equal(sales.a.internal, 3 + 1 + 1, 'weighted by default (metricEdgeWeights true)');
      const eng = c.groups.find((g: { value: string }) => g.value === 'Eng');
      assert.deepEqual([eng.a.density, eng.b.density, eng.densityChange], [1 / 2, 0, -1 / 2]);
      const hr = c.groups.find((g: { value: string }) => g.value === 'HR');
      assert.deepEqual([hr.a.size, hr.b.size], [1, 2]);
      assert.equal(c.groups.find((g: { value: string }) => g.value === '(no value)').b, null);
      assert.equal(typeof c.ei.change, 'number');
      // unweighted: no weight changes; minGroupSize applies to both networks
      const u = (await post('/api/v2/networks/compare', { a: a._id, b: b._id, attribute: 'team', minGroupSize: 3, metricEdgeWeights: false })).json();
      assert.deepEqual(u.ties.weightChanged, []);
      assert.deepEqual(u.groups.map((g: { value: string }) => g.value), ['Sales', 'Other (< 3)']);
      assert.deepEqual(u.suppressed, { a: 4, b: 4 });
      assert.equal(u.metrics, undefined);
      // asked again: the same answer (prepared sides are kept per network version); after b changes, its new version
      const again = (await post('/api/v2/networks/compare', { a: a._id, b: b._id, metrics: ['outDegree'], attribute: 'team' })).json();
      assert.deepEqual({ ...again, meta: null }, { ...c, meta: null });
      const third = { ...second, edges: second.edges.filter((e) => !(e.source === 'e' && e.target === 'h')) };
      const put = await t.app.inject({ method: 'PUT', url: `/api/v2/networks/${b._id}`, headers: bearer(t.ownerToken), payload: { name: 'Wave 2', networkJSON: third } });
      assert.equal(put.statusCode, 200, put.body);
      const changed = (await post('/api/v2/networks/compare', { a: a._id, b: b._id, metrics: ['outDegree'], attribute: 'team' })).json();
      assert.deepEqual(changed.ties.added, [], 'the edit is seen: e→h is no longer added');
      assert.equal(changed.metrics.outDegree.e.b, c.metrics.outDegree.e.b - 1);
    });

    test('compare: access as reading both networks, scopes, plans, 400s naming the field', async () => {
      const mine = await create('Mine', advice());
      const theirs = await create('Theirs', advice(), {}, strangerToken);
      const pub = await create('Public', advice(), { status: 'Public' }, strangerToken);
      assert.equal((await post('/api/v2/networks/compare', { a: mine._id, b: theirs._id })).statusCode, 404);
      assert.equal((await post('/api/v2/networks/compare', { a: theirs._id, b: mine._id })).statusCode, 404);
      const withPublic = await post('/api/v2/networks/compare', { a: mine._id, b: pub._id });
      assert.equal(withPublic.statusCode, 200, withPublic.body);
      assert.equal(withPublic.json().ties.kept, 7);
      // networks:read is enough without metrics; metrics need metrics:write and the plan
      assert.equal((await post('/api/v2/networks/compare', { a: mine._id, b: pub._id }, readOnly)).statusCode, 200);
      const noScope = await post('/api/v2/networks/compare', { a: mine._id, b: pub._id, metrics: ['totalDegree'] }, readOnly);
      assert.equal(noScope.json().code, 'INSUFFICIENT_SCOPE');
      const freeNet = await create('Free', advice(), {}, freeToken);
      assert.equal((await post('/api/v2/networks/compare', { a: freeNet._id, b: freeNet._id }, freeToken)).statusCode, 200);
      assert.equal((await post('/api/v2/networks/compare', { a: freeNet._id, b: freeNet._id, metrics: ['totalDegree'] }, freeToken)).json().code, 'PLAN_REQUIRED');
      const bad = async (body: Record<string, unknown>, path: string) => {
        const res = await post('/api/v2/networks/compare', body);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'INVALID_ARGS');
        assert.ok(res.json().errors.some((e: { path: string }) => e.path === path), `${path} in ${res.body}`);
      };
      await bad({ b: mine._id }, '/a');
      await bad({ a: mine._id, b: mine._id, metrics: ['nope'] }, '/metrics/0');
      await bad({ a: mine._id, b: mine._id, metrics: ['diameter'] }, '/metrics/0');
      await bad({ a: mine._id, b: mine._id, metrics: ['externalVsInternal'] }, '/metrics/0');
      await bad({ a: mine._id, b: mine._id, minGroupSize: 0 }, '/minGroupSize');
      await bad({ a: mine._id, b: mine._id, extra: 1 }, '/extra');
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v2/networks/compare', payload: { a: mine._id, b: mine._id } })).statusCode, 401);
    });
  });
}
