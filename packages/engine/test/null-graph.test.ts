// Every metric on a network with no nodes, checked against what NetworkX 3.6 does with the null graph:
// eigenvector_centrality raises (NetworkXPointlessConcept) → 400 INVALID_ARGS naming the cause; the
// other spectral centralities return empty dicts → no values. Nothing else may fail on it either (a
// non-engine error would be a 500). The NetworkX answers come from python3 (the oracle), not from here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { runMetric, type NodeRunOutput } from '../src/metrics/run.ts';
import { metrics } from '../src/metrics/registry.ts';
import { EngineError } from '../src/errors.ts';

/** Parameters a metric requires (no default), for an empty network. */
const REQUIRED: Record<string, Record<string, unknown>> = {
  groups: { attribute: 'group' },
  modularity: { attribute: 'team' },
  brokerage: { partition: {} },
  externalVsInternal: { attribute: 'team' },
  informalAlignment: { fiFormalAttribute: 'kind', fiFormalValues: ['formal'], fiInformalAttribute: 'kind', fiInformalValues: ['informal'] },
  informalDistance: { fiFormalAttribute: 'kind', fiFormalValues: ['formal'], fiInformalAttribute: 'kind', fiInformalValues: ['informal'] },
};

const ORACLE = `
import json, networkx as nx
out = {}
for name, f in [('eigenvectorCentrality', nx.eigenvector_centrality), ('katzCentrality', nx.katz_centrality),
                ('pageRank', nx.pagerank), ('HITS', nx.hits)]:
    for directed in (False, True):
        try:
            r = f(nx.DiGraph() if directed else nx.Graph())
            out[name + ('/d' if directed else '/u')] = 'empty' if r in ({}, ({}, {})) else 'values'
        except nx.NetworkXException as e:
            out[name + ('/d' if directed else '/u')] = 'raises'
print(json.dumps(out))
`;

test('network with no nodes: eigenvector centrality refused like NetworkX, every other metric answers', () => {
  const nx = JSON.parse(execFileSync('python3', ['-c', ORACLE], { encoding: 'utf8' })) as Record<string, string>;
  assert.equal(nx['eigenvectorCentrality/u'], 'raises');
  for (const [id] of metrics) {
    for (const directed of [false, true]) {
      const run = () => runMetric({ metric: id, network: { nodes: [], edges: [] }, networkDirected: directed, params: REQUIRED[id] ?? {} });
      const expected = nx[`${id}/${directed ? 'd' : 'u'}`];
      if (expected === 'raises') {
        assert.throws(run, (e: unknown) => {
          assert.ok(e instanceof EngineError, `${id}: ${String(e)}`);
          assert.equal(e.status, 400);
          assert.equal(e.code, 'INVALID_ARGS');
          assert.match(e.message, /no nodes/);
          assert.deepEqual(e.errors.map((x) => x.path), ['/networkJSON/nodes']);
          return true;
        });
        continue;
      }
      const out = run();
      if (expected === 'empty' && 'values' in out) {
        for (const [attr, vals] of Object.entries((out as NodeRunOutput).values)) assert.equal(Object.keys(vals).length, 0, `${id} ${attr}`);
      }
    }
  }
});
