// Replays, over real HTTP, the exact requests of clients written for the original service
// (docs/spec/decisions.md §1, §3, §4.1): its python and node examples (edit with PUT {name, networkJSON}),
// its Gephi exporter (Boolean columns, `Weight` on edges, shows the error body's `message`) and a
// third-party Excel uploader (internal fields in the body, string booleans, Boolean cells). After each
// edit, no field the client did not send may have changed.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { userApp, basic, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
type Json = Record<string, any>;

/** Fields of a network the server sets or the client may send; an edit may change only those it sent (plus these). */
const CHANGED_BY_ANY_EDIT = ['networkUUID', 'modified', 'nodeCount', 'edgeCount', 'name'];

function unchangedExcept(before: Json, after: Json, sent: string[]): void {
  for (const key of Object.keys(after)) assert.ok(key in before || sent.includes(key), `${key} appeared although the client did not send it`);
  for (const key of Object.keys(before)) {
    if (CHANGED_BY_ANY_EDIT.includes(key) || sent.includes(key)) continue;
    assert.deepEqual(after[key], before[key], `${key} changed although the client did not send it`);
  }
}

for (const dialect of DIALECTS) {
  describe(`clients of the original service (${dialect})`, () => {
    const t = fixture(() => userApp(dialect));
    let base: string;
    let basicAuth: string;
    before(async () => {
      basicAuth = basic(await t.keys(t.owner.id)).authorization;
      base = (await t.listen()) + '/api/v2';
    });

    const get = async (id: string, auth = basicAuth) => (await fetch(`${base}/networks/${id}`, { headers: { authorization: auth } })).json() as Promise<Json>;

    test('python example: POST a Public undirected network, then PUT {name, networkJSON} keeps status, isDirected and description', async () => {
      // requests.post(url, auth=(pk, sk), json=payload): Basic auth, JSON body, python-requests headers
      const headers = { authorization: basicAuth, 'content-type': 'application/json', 'user-agent': 'python-requests/2.31.0', accept: '*/*', 'accept-encoding': 'gzip, deflate' };
      const networkJSON = { nodes: [{ id: 1, attributes: { name: 'Ann' } }, { id: 2, attributes: { name: 'Bob' } }], edges: [{ id: 1, source: 1, target: 2 }] };
      const created = await fetch(`${base}/networks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Friends', description: 'A small example network', isDirected: false, status: 'Public', networkJSON }),
      });
      assert.equal(created.status, 200);
      const c = (await created.json()) as Json;
      assert.equal(c.status, 'Public');
      assert.equal(c.isDirected, false);
      const before = await get(c._id);

      networkJSON.nodes.push({ id: 3, attributes: { name: 'Cid' } });
      const edited = await fetch(`${base}/networks/${c._id}`, { method: 'PUT', headers, body: JSON.stringify({ name: 'Friends (edited)', networkJSON }) });
      assert.equal(edited.status, 200, await edited.clone().text());
      const e = (await edited.json()) as Json;
      assert.equal(e.status, 'Public', 'a Public network stays Public');
      assert.equal(e.isDirected, false, 'an undirected network stays undirected');
      assert.equal(e.description, 'A small example network', 'the description is kept');
      assert.equal(e.name, 'Friends (edited)');
      assert.notEqual(e.networkUUID, before.networkUUID);
      const after = await get(c._id);
      unchangedExcept(before, after, ['networkJSON']);
      assert.deepEqual(after.networkJSON, networkJSON);
      // still Public: readable without a credential
      assert.equal((await fetch(`${base}/networks/${c._id}`)).status, 200);
    });

    test('node example: PUT {name, networkJSON} with a gzip body keeps every field it did not send; fields it sends are replaced', async () => {
      const networkJSON = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ id: 'e', source: 'a', target: 'b' }] };
      const post = await fetch(`${base}/networks`, {
        method: 'POST',
        headers: { authorization: basicAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'node example', description: 'kept', isDirected: 'false', networkJSON }),
      });
      const c = (await post.json()) as Json;
      const before = await get(c._id);
      const put = await fetch(`${base}/networks/${c._id}`, {
        method: 'PUT',
        headers: { authorization: basicAuth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ name: 'node example', networkJSON: { ...networkJSON, nodes: [...networkJSON.nodes, { id: 'c' }] } })),
      });
      assert.equal(put.status, 200);
      unchangedExcept(before, await get(c._id), ['networkJSON']);
      // a sent field is replaced: status and isDirected and description
      const put2 = await fetch(`${base}/networks/${c._id}`, {
        method: 'PUT',
        headers: { authorization: basicAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'node example', networkJSON, status: 'Public', isDirected: true, description: '' }),
      });
      const p2 = (await put2.json()) as Json;
      assert.equal(p2.status, 'Public');
      assert.equal(p2.isDirected, true);
      assert.equal(p2.description, '');
    });

    test('Gephi exporter: Boolean columns are stored as "true"/"false", metricEdgeWeights reads Weight, errors show message', async () => {
      const networkJSON = {
        nodes: [
          { id: 'n0', attributes: { Label: 'Zero', Member: true, Score: 1.5 } },
          { id: 'n1', attributes: { Label: 'One', Member: false } },
          { id: 'n2', attributes: { Label: 'Two' } },
        ],
        edges: [
          { id: 'e0', source: 'n0', target: 'n1', attributes: { Weight: 2.5, Visible: true } },
          { id: 'e1', source: 'n0', target: 'n2', attributes: { Weight: 4 } },
        ],
      };
      const res = await fetch(`${base}/networks`, {
        method: 'POST',
        headers: { authorization: basicAuth, 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ name: 'Gephi export', description: 'Exported from Gephi', isDirected: 'false', status: 'Private', fileType: 'GEXF', networkJSON }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      const id = ((await res.json()) as Json)._id;
      const stored = await get(id);
      assert.equal(stored.networkJSON.nodes[0].attributes.Member, 'true');
      assert.equal(stored.networkJSON.nodes[1].attributes.Member, 'false');
      assert.equal(stored.networkJSON.nodes[0].attributes.Score, 1.5);
      assert.equal(stored.networkJSON.edges[0].attributes.Visible, 'true');

      // weighted degree (strength) with Gephi's `Weight`: n0 = 2.5 + 4
      const beforeMetric = await get(id);
      const metric = await fetch(`${base}/metrics/nodes/inDegree`, {
        method: 'POST',
        headers: { ...bearer(t.ownerToken), 'content-type': 'application/json' },
        body: JSON.stringify({ networkId: id, metricEdgeWeights: true }),
      });
      assert.equal(metric.status, 200, await metric.clone().text());
      const m = (await metric.json()) as Json;
      assert.equal(m.meta.weightAttribute, 'Weight');
      const after = await get(id);
      assert.equal(after.networkJSON.nodes[0].attributes['In Degree'], 6.5);
      // writing the metric changed the nodes' attributes, nothing the exporter set
      unchangedExcept(beforeMetric, after, ['networkJSON']);
      assert.equal(after.isDirected, false);
      assert.equal(after.description, 'Exported from Gephi');

      // the exporter's "update existing network": PUT {name, networkJSON} (Basic, charset in the type)
      const reexport = await fetch(`${base}/networks/${id}`, {
        method: 'PUT',
        headers: { authorization: basicAuth, 'content-type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ name: 'Gephi export', networkJSON }),
      });
      assert.equal(reexport.status, 200, await reexport.clone().text());
      const afterPut = await get(id);
      unchangedExcept(after, afterPut, ['networkJSON']);
      assert.equal(afterPut.isDirected, false, 'an undirected network stays undirected');
      assert.equal(afterPut.status, 'Private');
      assert.equal(afterPut.description, 'Exported from Gephi');
      assert.equal(afterPut.networkJSON.nodes[0].attributes.Member, 'true');
      // posted network JSON too, and `weight` wins when present
      const posted = await fetch(`${base}/metrics/nodes/inDegree`, {
        method: 'POST',
        headers: { ...bearer(t.ownerToken), 'content-type': 'application/json' },
        body: JSON.stringify({ networkJSON: { nodes: [{ id: 1 }, { id: 2 }], edges: [{ id: 1, source: 1, target: 2, attributes: { weight: 3, Weight: 10 } }] }, metricEdgeWeights: true }),
      });
      const pj = (await posted.json()) as Json;
      assert.equal(pj.meta.weightAttribute, 'weight');
      assert.equal(pj.values['In Degree']['2'], 3);

      // the exporter's error dialog shows `message`
      const bad = await fetch(`${base}/networks`, {
        method: 'POST',
        headers: { authorization: basicAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Broken', networkJSON: { nodes: [{ id: 'x', attributes: { Tags: ['a', 'b'] } }], edges: [] } }),
      });
      assert.equal(bad.status, 400);
      assert.match(String(bad.headers.get('content-type')), /^application\/problem\+json/);
      const problem = (await bad.json()) as Json;
      assert.equal(problem.message, problem.detail);
      assert.match(problem.message, /Tags/);
      // and on a 401 and a 404 too
      const unauth = (await (await fetch(`${base}/networks`, { headers: { authorization: 'Basic bm9wZTpub3Bl' } })).json()) as Json;
      assert.ok(unauth.message.length > 0);
      const missing = (await (await fetch(`${base}/networks/000000000000000000000000`, { headers: { authorization: basicAuth } })).json()) as Json;
      assert.equal(missing.code, 'NOT_FOUND');
      assert.equal(missing.message, missing.detail);
    });

    test('Excel uploader: internal fields ignored, Boolean cells stored as strings, re-upload with PUT keeps what it does not send', async () => {
      const rows = [
        { id: 'Alice', attributes: { name: 'Alice', Department: 'Sales', Manager: true, Tenure: 4 } },
        { id: 'Bob', attributes: { name: 'Bob', Department: 'R&D', Manager: false, Tenure: '' } },
      ];
      const body = {
        name: 'Org chart.xlsx',
        description: 'Uploaded from Excel',
        status: 'Public',
        isDirected: 'true',
        fileType: 'JSON',
        originalFileType: 'Excel',
        _id: 'client-id',
        created: '2019-01-01T00:00:00Z',
        handpicked: true,
        billing: { maxViews: 100000 },
        networkJSON: { nodes: rows, edges: [{ id: 1, source: 'Alice', target: 'Bob', attributes: { Type: 'reports to' } }] },
      };
      const res = await fetch(`${base}/networks`, { method: 'POST', headers: { authorization: basicAuth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(res.status, 200, await res.clone().text());
      const c = (await res.json()) as Json;
      assert.notEqual(c._id, 'client-id');
      assert.equal(c.handpicked, false);
      assert.equal(c.originalFileType, 'JSON');
      assert.notEqual(c.created, body.created);
      const before = await get(c._id);
      assert.equal(before.networkJSON.nodes[0].attributes.Manager, 'true');
      assert.equal(before.networkJSON.nodes[1].attributes.Tenure, undefined, 'an empty cell is no value');
      // the uploader's re-upload: the sheet's rows again with name, networkJSON and the internal fields it echoes
      const put = await fetch(`${base}/networks/${c._id}`, {
        method: 'PUT',
        headers: { authorization: basicAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Org chart.xlsx', fileType: 'JSON', originalFileType: 'Excel', networkJSON: body.networkJSON }),
      });
      assert.equal(put.status, 200, await put.clone().text());
      unchangedExcept(before, await get(c._id), ['networkJSON']);
    });
  });
}
