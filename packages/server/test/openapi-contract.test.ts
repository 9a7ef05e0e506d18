// The API answers what its OpenAPI document says (docs/spec/contract.md): a real server listening on a
// port, every operation of /api/v2/openapi.json called over HTTP — successes and the representative
// problems (400, 401, 403, 404, 409, 410, 413, 429 where the operation has them) — and every answer
// checked against the document: status listed, content type documented, body valid. The test fails
// listing each mismatch and each operation no call exercised (a new route needs a call here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { metrics } from '@netloom/engine';
import { testApp, bearer, basic, smallNetwork, type TestApp } from './helpers/app.ts';
import { ContractChecker, type Answer } from './helpers/contract.ts';
import { VIEW } from './helpers/embed.ts';

const OPERATOR = 'op_contract_0123456789abcdefghijklmnopqrstuvwxyz';
const ORIGIN = 'https://host.example.com';

let t: TestApp;
let api: ContractChecker;

before(async () => {
  t = await testApp('sqlite', { NETLOOM_OPERATOR_TOKEN: OPERATOR, NETLOOM_MAX_BODY_BYTES: String(2 * 1024 * 1024), NETLOOM_METRIC_WORKERS: '1' });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const doc = (await (await fetch(`${address}/api/v2/openapi.json`)).json()) as Record<string, unknown>;
  api = new ContractChecker(doc, address);
});

after(async () => {
  await t?.close();
});

/** Calls whose status was not the one the scenario expects (reported at the end, all at once). */
const unexpected: string[] = [];
function expect(a: Answer, status: number, what: string): Answer {
  if (a.status !== status) unexpected.push(`${what}: expected ${status}, got ${a.status} ${a.text.slice(0, 300)}`);
  return a;
}

/** A network with attributes every metric can use (team for partitions, kind for informal ties). */
function metricNetwork() {
  const nodes = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, attributes: { team: i < 3 ? 'Sales' : 'Eng', community: i < 3 ? 'x' : 'y' } }));
  const pairs: [string, string, string][] = [['a', 'b', 'formal'], ['b', 'c', 'informal'], ['c', 'a', 'formal'], ['c', 'd', 'informal'], ['d', 'e', 'formal'], ['e', 'c', 'informal']];
  return { nodes, edges: pairs.map(([s, d, kind], i) => ({ id: i, source: s, target: d, attributes: { kind, weight: i + 1 } })) };
}

const METRIC_PARAMS: Record<string, Record<string, unknown>> = {
  modularity: { attribute: 'community' },
  externalVsInternal: { attribute: 'team' },
  groups: { attribute: 'team' },
  brokerage: { partition: { a: 'Sales', b: 'Sales', c: 'Sales', d: 'Eng', e: 'Eng' } },
  informalAlignment: { fiFormalAttribute: 'kind', fiFormalValues: ['formal'], fiInformalAttribute: 'kind', fiInformalValues: ['informal'] },
  informalDistance: { fiFormalAttribute: 'kind', fiFormalValues: ['formal'], fiInformalAttribute: 'kind', fiInformalValues: ['informal'] },
};

test('every operation of /api/v2/openapi.json answers as documented', async () => {
  const owner = await t.user({ plan: 'enterprise' });
  const org = await t.org(owner.id, { plan: 'enterprise' });
  const orgToken = await t.token(owner.id, { orgId: org.id });
  const userToken = await t.token(owner.id);
  const readOnly = await t.token(owner.id, { scopes: ['networks:read'] });
  const stranger = await t.user({ plan: 'free' });
  const strangerToken = await t.token(stranger.id);
  const keys = await t.keys(owner.id);
  const as = (token: string) => ({ headers: bearer(token) });
  const op = bearer(OPERATOR);

  /* ---------------------------------------------------------------- networks */
  const created = expect(await api.call('POST /api/v2/networks', { ...as(userToken), json: { name: 'Team', description: 'd', status: 'Public', networkJSON: smallNetwork() } }), 200, 'create');
  const id = created.json._id as string;
  expect(await api.call('POST /api/v2/networks', { ...as(userToken), json: { name: 'Bad', networkJSON: { nodes: [{ id: 'a' }], edges: [{ id: 1, source: 'a', target: 'zz' }] } } }), 400, 'bad network');
  expect(await api.call('POST /api/v2/networks', { json: { name: 'x', networkJSON: smallNetwork() } }), 401, 'no credential');
  expect(await api.call('POST /api/v2/networks', { ...as(readOnly), json: { name: 'x', networkJSON: smallNetwork() } }), 403, 'read-only credential');
  expect(await api.call('POST /api/v2/networks', { ...as(userToken), headers: { ...bearer(userToken), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'big', networkJSON: smallNetwork(), pad: 'x'.repeat(3 * 1024 * 1024) }) }), 413, 'too large');
  expect(await api.call('POST /api/v2/networks', { headers: { ...bearer(userToken), 'content-type': 'text/csv' }, body: 'a,b' }), 415, 'not JSON');
  expect(await api.call('GET /api/v2/networks', as(userToken)), 200, 'list');
  expect(await api.call('GET /api/v2/networks', { headers: basic(keys) }), 200, 'list with Basic');
  expect(await api.call('GET /api/v2/networks/{id}', { params: { id } }), 200, 'public network without credential');
  expect(await api.call('GET /api/v2/networks/{id}', { ...as(strangerToken), params: { id: 'nope' } }), 404, 'unknown network');
  expect(await api.call('PUT /api/v2/networks/{id}', { ...as(userToken), params: { id }, json: { name: 'Team 2', networkJSON: smallNetwork() } }), 200, 'replace');
  expect(await api.call('PUT /api/v2/networks/{id}', { ...as(strangerToken), params: { id }, json: { name: 'Mine', networkJSON: smallNetwork() } }), 403, 'Public: readable, not editable');
  expect(await api.call('PUT /api/v2/networks/{id}', { ...as(userToken), params: { id: 'nope' }, json: { name: 'Mine', networkJSON: smallNetwork() } }), 404, 'replace unknown');
  expect(await api.call('GET /api/v2/networks/{id}/views', { ...as(userToken), params: { id } }), 200, 'views');
  expect(await api.call('GET /api/v2/networks/{id}/views', { ...as(strangerToken), params: { id: 'nope' } }), 404, 'views of unknown');
  expect(await api.call('GET /api/v2/networks/public', { query: { q: 'Team', limit: '10' } }), 200, 'discover');
  expect(await api.call('GET /api/v2/networks/public', { query: { limit: '1000' } }), 400, 'discover limit');

  const exportFormats = (api.doc.paths['/api/v2/networks/{id}/export'].get.parameters as { name: string; schema: { enum?: string[]; anyOf?: { const?: string; enum?: string[] }[] } }[]).find((p) => p.name === 'format')!.schema;
  const formats = exportFormats.enum ?? exportFormats.anyOf!.flatMap((s) => s.enum ?? [s.const!]);
  for (const format of formats) expect(await api.call('GET /api/v2/networks/{id}/export', { ...as(userToken), params: { id }, query: { format } }), 200, `export ${format}`);
  expect(await api.call('GET /api/v2/networks/{id}/export', { ...as(userToken), params: { id }, query: { format: 'pdf' } }), 400, 'export format');
  const templateFormats = (api.doc.paths['/api/v2/templates/{format}'].get.parameters as { name: string; schema: { enum?: string[]; anyOf?: { const?: string; enum?: string[] }[] } }[])[0].schema;
  for (const format of templateFormats.enum ?? templateFormats.anyOf!.flatMap((s) => s.enum ?? [s.const!])) expect(await api.call('GET /api/v2/templates/{format}', { params: { format } }), 200, `template ${format}`);
  expect(await api.call('GET /api/v2/templates/{format}', { params: { format: 'pdf' } }), 400, 'template format');

  const upload = new FormData();
  upload.append('file', new Blob([JSON.stringify({ name: 'Imported', networkJSON: smallNetwork() })], { type: 'application/json' }), 'imported.json');
  expect(await api.call('POST /api/v2/networks/import', { ...as(userToken), body: upload }), 200, 'import');
  const badUpload = new FormData();
  badUpload.append('file', new Blob(['{"nodes": [{"id": "a"}], "edges": [{"id": 1, "source": "a", "target": "q"}]}'], { type: 'application/json' }), 'bad.json');
  expect(await api.call('POST /api/v2/networks/import', { ...as(userToken), body: badUpload }), 400, 'import with problems');

  /* ---------------------------------------------------------------- metrics */
  for (const metric of metrics.values()) {
    const path = `POST /api/v2/metrics/${metric.kind === 'node' ? 'nodes' : 'network'}/${metric.id}`;
    const params = METRIC_PARAMS[metric.id] ?? {};
    expect(await api.call(path, { ...as(orgToken), json: { networkJSON: metricNetwork(), ...params } }), 200, `${metric.id} on networkJSON`);
  }
  const stored = expect(await api.call('POST /api/v2/networks', { ...as(orgToken), json: { name: 'Metrics', networkJSON: metricNetwork() } }), 200, 'metric network').json._id as string;
  expect(await api.call('POST /api/v2/metrics/nodes/pageRank', { ...as(orgToken), json: { networkId: stored } }), 200, 'write-back');
  expect(await api.call('POST /api/v2/metrics/nodes/pageRank', { ...as(orgToken), json: { networkId: stored, networkJSON: metricNetwork() } }), 400, 'both sources');
  expect(await api.call('POST /api/v2/metrics/nodes/pageRank', { ...as(orgToken), json: { networkId: 'nope' } }), 404, 'unknown network');
  /* network compare (docs/spec/decisions.md §11) */
  const stored2 = expect(await api.call('POST /api/v2/networks', { ...as(orgToken), json: { name: 'Metrics 2', networkJSON: { ...metricNetwork(), edges: metricNetwork().edges.slice(1) } } }), 200, 'second network').json._id as string;
  expect(await api.call('POST /api/v2/networks/compare', { ...as(orgToken), json: { a: stored, b: stored2, metrics: ['totalDegree'], attribute: 'team' } }), 200, 'compare');
  expect(await api.call('POST /api/v2/networks/compare', { ...as(orgToken), json: { a: stored, b: 'nope' } }), 404, 'compare unknown network');
  expect(await api.call('POST /api/v2/networks/compare', { ...as(orgToken), json: { a: stored, b: stored2, metrics: ['diameter'] } }), 400, 'compare with a network metric');
  expect(await api.call('POST /api/v2/metrics/network/diameter', { ...as(strangerToken), json: { networkJSON: metricNetwork() } }), 403, 'free plan');
  const star = { nodes: Array.from({ length: 30 }, (_, i) => ({ id: i })), edges: Array.from({ length: 29 }, (_, i) => ({ id: i, source: 0, target: i + 1 })) };
  expect(await api.call('POST /api/v2/metrics/nodes/katzCentrality', { ...as(orgToken), json: { networkJSON: star, isDirected: false, katzCentralityAlpha: 0.9 } }), 422, 'katz not converged');

  /* ---------------------------------------------------------------- metric jobs (docs/jobs.md) */
  const asyncRun = expect(await api.call('POST /api/v2/metrics/nodes/pageRank', { headers: { ...bearer(orgToken), prefer: 'respond-async' }, json: { networkJSON: metricNetwork() } }), 202, 'metric as a job').json;
  const batch = expect(await api.call('POST /api/v2/metrics/batch', { ...as(orgToken), json: { networkId: stored, metrics: [{ metric: 'pageRank' }, { metric: 'coreNumber' }] } }), 202, 'batch').json;
  expect(await api.call('POST /api/v2/metrics/batch', { ...as(orgToken), json: { networkId: stored, metrics: [] } }), 400, 'empty batch');
  expect(await api.call('POST /api/v2/metrics/batch', { ...as(orgToken), json: { networkId: 'nope', metrics: [{ metric: 'pageRank' }] } }), 404, 'batch on unknown network');
  for (let i = 0; i < 100; i++) {
    const job = expect(await api.call('GET /api/v2/jobs/{id}', { ...as(orgToken), params: { id: asyncRun.jobId } }), 200, 'job').json;
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await api.call('GET /api/v2/jobs/{id}', { ...as(strangerToken), params: { id: asyncRun.jobId } }), 404, "someone else's job");
  expect(await api.call('GET /api/v2/jobs', { ...as(orgToken), query: { limit: '10' } }), 200, 'jobs');
  expect(await api.call('GET /api/v2/jobs', { ...as(orgToken), query: { limit: '0' } }), 400, 'jobs limit');
  expect(await api.call('DELETE /api/v2/jobs/{id}', { ...as(orgToken), params: { id: batch.jobId } }), 200, 'cancel job');
  expect(await api.call('DELETE /api/v2/jobs/{id}', { ...as(orgToken), params: { id: 'nope' } }), 404, 'cancel unknown job');

  /* ---------------------------------------------------------------- operator and settings */
  expect(await api.call('GET /api/v2/operator/organizations/{orgId}/embedding', { headers: op, params: { orgId: org.id } }), 200, 'operator read');
  expect(await api.call('GET /api/v2/operator/organizations/{orgId}/embedding', { headers: op, params: { orgId: 'nope' } }), 404, 'operator unknown org');
  expect(await api.call('GET /api/v2/embed/settings', as(orgToken)), 200, 'settings while off');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'early' }, json: { displayName: 'Early' } }), 403, 'embedding disabled');
  expect(await api.call('PUT /api/v2/operator/organizations/{orgId}/embedding', { headers: op, params: { orgId: org.id }, json: { enabled: true, seats: 2 } }), 200, 'operator enable');
  expect(await api.call('PUT /api/v2/operator/organizations/{orgId}/embedding', { headers: op, params: { orgId: org.id }, json: { seats: -1 } }), 400, 'operator bad seats');
  expect(await api.call('PUT /api/v2/embed/settings', { ...as(orgToken), json: { allowedOrigins: [ORIGIN], dataDisclosureAccepted: true } }), 200, 'settings');
  expect(await api.call('PUT /api/v2/embed/settings', { ...as(orgToken), json: { allowedOrigins: ['https://*.example.com'] } }), 400, 'wildcard origin');
  expect(await api.call('GET /api/v2/embed/settings', as(userToken)), 403, 'user credential');
  expect(await api.call('GET /api/v2/organization/members', as(orgToken)), 200, 'members');
  expect(await api.call('GET /api/v2/organization/members', as(strangerToken)), 403, 'members of no organization');

  /* ---------------------------------------------------------------- managed users, grants, sessions */
  const netId = stored;
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'ann' }, json: { displayName: 'Ann', chatAccess: 'full' } }), 201, 'create user');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'ann' }, json: { displayName: 'Ann B.' } }), 200, 'update user');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'ann' }, json: { readOnly: true } }), 409, 'immutable');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'ann' }, json: { chatAccess: 'sometimes' } }), 400, 'bad chatAccess');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'bob' }, json: { displayName: 'Bob' } }), 201, 'second user');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'cy' }, json: { displayName: 'Cy' } }), 402, 'seats');
  expect(await api.call('GET /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'ann' } }), 200, 'get user');
  expect(await api.call('GET /api/v2/embed/users/{externalId}', { ...as(orgToken), params: { externalId: 'nobody' } }), 404, 'unknown user');
  expect(await api.call('GET /api/v2/embed/users', { ...as(orgToken), query: { status: 'active', limit: '10' } }), 200, 'list users');
  expect(await api.call('GET /api/v2/embed/users', { ...as(orgToken), query: { limit: '501' } }), 400, 'limit');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'ann', networkId: netId }, json: { permission: 'Edit' } }), 200, 'grant');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'bob', networkId: netId }, json: { permission: 'View' } }), 200, 'grant bob');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'ann', networkId: 'nope' }, json: { permission: 'Edit' } }), 404, 'grant unknown network');
  expect(await api.call('PUT /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'ann', networkId: netId }, json: { permission: 'Own' } }), 400, 'bad permission');

  const session = expect(await api.call('POST /api/v2/embed/sessions', { ...as(orgToken), json: { externalId: 'ann', networkIds: [netId], origin: ORIGIN, ui: { menu: ['layers', 'filter'] } } }), 201, 'session').json;
  expect(await api.call('POST /api/v2/embed/sessions', { ...as(orgToken), json: { externalId: 'ann', networkIds: [netId], origin: 'https://evil.example' } }), 403, 'origin');
  expect(await api.call('POST /api/v2/embed/sessions', { ...as(orgToken), json: { externalId: 'ann', networkIds: [netId], origin: ORIGIN, ui: { menu: ['nope'] } } }), 400, 'ui');
  expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/launch-tokens', { ...as(orgToken), params: { sessionId: session.sessionId } }), 200, 'launch token');
  expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/launch-tokens', { ...as(orgToken), params: { sessionId: 'f'.repeat(24) } }), 404, 'unknown session');

  /* ---------------------------------------------------------------- the embedded viewer */
  const sid = session.sessionId as string;
  expect(await api.call('GET /api/v2/embed/sessions/{sessionId}/status', { params: { sessionId: sid } }), 200, 'status');
  const access = expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/access-tokens', { params: { sessionId: sid }, json: { launchToken: session.launchToken } }), 200, 'exchange').json.accessToken as string;
  expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/access-tokens', { params: { sessionId: sid }, json: { launchToken: session.launchToken } }), 401, 'launch token used twice');
  expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/access-tokens', { params: { sessionId: sid }, json: { token: 'x' } }), 400, 'exchange body');
  const v = { headers: { authorization: `Bearer ${access}` } };
  expect(await api.call('GET /api/v2/embed/viewer/session', v), 200, 'viewer session');
  expect(await api.call('GET /api/v2/embed/viewer/session', { headers: { authorization: 'Bearer nla_nope' } }), 401, 'viewer without token');
  expect(await api.call('POST /api/v2/embed/viewer/heartbeat', v), 200, 'heartbeat');
  const vnet = expect(await api.call('GET /api/v2/embed/viewer/network', v), 200, 'viewer network').json;
  const link = new URL(vnet.dataUrl as string);
  const q = Object.fromEntries(link.searchParams) as Record<string, string>;
  expect(await api.call('GET /api/v2/embed/data/{sessionId}', { params: { sessionId: sid }, query: q }), 200, 'data link');
  expect(await api.call('GET /api/v2/embed/data/{sessionId}', { params: { sessionId: sid }, query: { ...q, sig: 'x' + q.sig.slice(1) } }), 403, 'bad signature');
  const view = expect(await api.call('POST /api/v2/embed/viewer/views', { ...v, json: VIEW }), 201, 'save view').json;
  expect(await api.call('POST /api/v2/embed/viewer/views', { ...v, json: { ...VIEW, camera: { x: 'left' } } }), 400, 'bad view');
  expect(await api.call('GET /api/v2/embed/viewer/views', v), 200, 'views');
  expect(await api.call('GET /api/v2/embed/viewer/views/{viewId}', { ...v, params: { viewId: view.id } }), 200, 'view');
  expect(await api.call('GET /api/v2/embed/viewer/views/{viewId}', { ...v, params: { viewId: 'nope' } }), 404, 'unknown view');
  expect(await api.call('PUT /api/v2/embed/viewer/views/{viewId}', { ...v, params: { viewId: view.id }, json: { name: 'Renamed' } }), 200, 'update view');
  expect(await api.call('POST /api/v2/embed/viewer/metrics/{kind}/{metricId}', { ...v, params: { kind: 'nodes', metricId: 'pageRank' }, json: {} }), 200, 'viewer node metric');
  expect(await api.call('POST /api/v2/embed/viewer/metrics/{kind}/{metricId}', { ...v, params: { kind: 'network', metricId: 'diameter' }, json: {} }), 200, 'viewer network metric');
  expect(await api.call('POST /api/v2/embed/viewer/metrics/{kind}/{metricId}', { ...v, params: { kind: 'nodes', metricId: 'nope' }, json: {} }), 404, 'viewer unknown metric');
  expect(await api.call('POST /api/v2/embed/viewer/metrics/{kind}/{metricId}', { ...v, params: { kind: 'nodes', metricId: 'pageRank' }, json: { networkId: netId } }), 400, 'viewer metric source');
  const vjob = expect(await api.call('POST /api/v2/embed/viewer/metrics/{kind}/{metricId}', { headers: { ...v.headers, prefer: 'respond-async' }, params: { kind: 'nodes', metricId: 'pageRank' }, json: {} }), 202, 'viewer metric as a job').json;
  for (let i = 0; i < 100; i++) {
    const job = expect(await api.call('GET /api/v2/embed/viewer/jobs/{jobId}', { ...v, params: { jobId: vjob.jobId } }), 200, 'viewer job').json;
    if (job.status === 'succeeded' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await api.call('GET /api/v2/embed/viewer/jobs/{jobId}', { ...v, params: { jobId: 'nope' } }), 404, 'unknown viewer job');
  expect(await api.call('GET /api/v2/embed/viewer/metrics', v), 200, 'metrics the viewer offers');
  expect(await api.call('DELETE /api/v2/embed/viewer/jobs/{jobId}', { ...v, params: { jobId: vjob.jobId } }), 200, 'cancel a finished viewer job');
  expect(await api.call('DELETE /api/v2/embed/viewer/jobs/{jobId}', { ...v, params: { jobId: asyncRun.jobId } }), 404, "an API job is not the session's");
  const vnow = expect(await api.call('GET /api/v2/embed/viewer/network', v), 200, 'viewer network again').json;
  expect(await api.call('PUT /api/v2/embed/viewer/network/positions', { ...v, json: { networkUUID: vnow.networkUUID, nodeIds: ['a', 'b'], x: [1, 2], y: [3, 4] } }), 200, 'positions');
  expect(await api.call('PUT /api/v2/embed/viewer/network/positions', { ...v, json: { networkUUID: vnow.networkUUID, nodeIds: ['a'], x: [1], y: [3] } }), 409, 'positions on an old version');

  expect(await api.call('GET /api/v2/embed/viewer/chat', v), 200, 'chat state');
  const asked = expect(await api.call('POST /api/v2/embed/viewer/chat/ask', { ...v, json: { message: 'Who is the most central?' } }), 202, 'ask').json;
  expect(await api.call('GET /api/v2/embed/viewer/chat/messages/{messageId}', { ...v, params: { messageId: asked.reply.id }, query: { waitMs: '5000' } }), 200, 'answer');
  expect(await api.call('GET /api/v2/embed/viewer/chat/messages/{messageId}', { ...v, params: { messageId: 'nope' } }), 404, 'unknown message');
  expect(await api.call('GET /api/v2/embed/viewer/chat/messages', v), 200, 'messages');
  expect(await api.call('GET /api/v2/embed/viewer/chat/messages', { ...v, query: { conversation: 'nope' } }), 404, 'unknown conversation');
  expect(await api.call('POST /api/v2/embed/viewer/chat/ask', { ...v, json: { message: '' } }), 400, 'empty question');
  expect(await api.call('POST /api/v2/embed/viewer/chat/cancel', v), 200, 'cancel');
  expect(await api.call('POST /api/v2/embed/viewer/chat/new', v), 200, 'new conversation');

  // bob has View only: saving a view is refused
  const bobSession = expect(await api.call('POST /api/v2/embed/sessions', { ...as(orgToken), json: { externalId: 'bob', networkIds: [netId], origin: ORIGIN, ui: { aiChat: false } } }), 201, 'bob session').json;
  const bobAccess = expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/access-tokens', { params: { sessionId: bobSession.sessionId }, json: { launchToken: bobSession.launchToken } }), 200, 'bob exchange').json.accessToken as string;
  const bv = { headers: { authorization: `Bearer ${bobAccess}` } };
  expect(await api.call('POST /api/v2/embed/viewer/views', { ...bv, json: VIEW }), 403, 'View cannot save');
  expect(await api.call('PUT /api/v2/embed/viewer/network/positions', { ...bv, json: { networkUUID: vnow.networkUUID, nodeIds: [], x: [], y: [] } }), 403, 'View cannot keep positions');
  expect(await api.call('POST /api/v2/embed/viewer/chat/ask', { ...bv, json: { message: 'hello?' } }), 403, 'chat hidden');

  /* ---------------------------------------------------------------- chat settings, audit */
  expect(await api.call('GET /api/v2/embed/chat', as(orgToken)), 200, 'chat settings');
  expect(await api.call('PUT /api/v2/embed/chat', { ...as(orgToken), json: { aiChat: true } }), 200, 'chat switch');
  expect(await api.call('PUT /api/v2/embed/chat', { ...as(orgToken), json: { aiChat: 'yes' } }), 400, 'chat switch type');
  expect(await api.call('GET /api/v2/embed/networks/{networkId}/chat', { ...as(orgToken), params: { networkId: netId } }), 200, 'presets');
  expect(await api.call('GET /api/v2/embed/networks/{networkId}/chat', { ...as(orgToken), params: { networkId: 'nope' } }), 404, 'presets of unknown');
  expect(await api.call('PUT /api/v2/embed/networks/{networkId}/chat', { ...as(orgToken), params: { networkId: netId }, json: { presetQuestions: ['Who bridges the teams?'] } }), 200, 'set presets');
  expect(await api.call('PUT /api/v2/embed/networks/{networkId}/chat', { ...as(orgToken), params: { networkId: netId }, json: { presetQuestions: [] } }), 400, 'empty presets');
  expect(await api.call('GET /api/v2/embed/audit', { ...as(orgToken), query: { limit: '5' } }), 200, 'audit');
  expect(await api.call('GET /api/v2/embed/audit', { ...as(orgToken), query: { limit: 'many' } }), 400, 'audit limit');

  /* ---------------------------------------------------------------- people directory (§9) */
  const field = expect(await api.call('POST /api/v2/customFields', { ...as(userToken), json: { key: 'team', label: 'Team', type: 'category', options: ['Sales', 'Eng'] } }), 201, 'add field');
  expect(await api.call('POST /api/v2/customFields', { ...as(userToken), json: { key: 'team', label: 'Team', type: 'text' } }), 409, 'field key taken');
  expect(await api.call('GET /api/v2/customFields', as(userToken)), 200, 'fields');
  expect(await api.call('GET /api/v2/customFields/{id}', { ...as(userToken), params: { id: field.json._id } }), 200, 'field');
  expect(await api.call('GET /api/v2/customFields/{id}', { ...as(strangerToken), params: { id: field.json._id } }), 404, 'field of another directory');
  expect(await api.call('PUT /api/v2/customFields/{id}', { ...as(userToken), params: { id: field.json._id }, json: { sensitive: true } }), 200, 'change field');
  const person = expect(await api.call('POST /api/v2/employees', { ...as(userToken), json: { employeeId: 'P1', name: 'Pat', email: 'pat@example.com', fields: { team: 'Eng' } } }), 201, 'add person');
  expect(await api.call('POST /api/v2/employees', { ...as(userToken), json: { employeeId: 'P2', name: 'Pat', email: 'PAT@example.com' } }), 409, 'e-mail taken');
  expect(await api.call('POST /api/v2/employees', { ...as(readOnly), json: { employeeId: 'P3', name: 'x' } }), 403, 'no employees scope');
  expect(await api.call('GET /api/v2/employees', { ...as(userToken), query: { q: 'pat', limit: '10' } }), 200, 'people');
  expect(await api.call('GET /api/v2/employees/{id}', { ...as(userToken), params: { id: person.json._id } }), 200, 'person');
  expect(await api.call('PUT /api/v2/employees/{id}', { ...as(userToken), params: { id: person.json._id }, json: { employeeId: 'P1', name: 'Pat Doe', fields: { team: 'Sales' } } }), 200, 'replace person');
  expect(await api.call('PUT /api/v2/employees', { ...as(userToken), json: { mode: 'merge', employees: [{ employeeId: 'P2', name: 'Quinn', managerId: 'P1' }] } }), 200, 'bulk upsert');
  expect(await api.call('PUT /api/v2/employees', { ...as(userToken), json: { mode: 'merge', employees: [{ employeeId: 'P2' }] } }), 400, 'bulk upsert problems');
  expect(await api.call('POST /api/v2/employees/import', { headers: { ...bearer(userToken), 'content-type': 'text/csv' }, query: { dryRun: 'true' }, body: 'EmployeeId,Name\r\nP9,Nine\r\n' }), 200, 'import');
  expect(await api.call('POST /api/v2/employees/import', { headers: { ...bearer(userToken), 'content-type': 'text/csv' }, body: 'EmployeeId,Name,Shoe\r\nP9,Nine,42\r\n' }), 400, 'import problems');
  expect(await api.call('GET /api/v2/employees/template', { ...as(userToken), query: { format: 'csv' } }), 200, 'template');
  expect(await api.call('DELETE /api/v2/employees/{id}', { ...as(strangerToken), params: { id: person.json._id } }), 404, 'erase in another directory');

  /* ---------------------------------------------------------------- surveys, responses, respondent API (§9) */
  const colleague = await t.user();
  await t.member(org.id, colleague.id, 'Standard User');
  const sq = [{ id: 'advice', type: 'relationship', text: 'Who?', rating: { labels: ["I don't know", 'Some', 'Much'], dontKnow: true } }, { id: 'office', type: 'singleChoice', text: 'Office?', options: ['N', 'S'] }];
  const survey = expect(await api.call('POST /api/v2/surveys', { ...as(userToken), json: { name: 'Advice', questions: sq, openLink: true, minGroupSize: 3 } }), 201, 'create survey');
  const sid2 = survey.json._id as string;
  expect(await api.call('POST /api/v2/surveys', { ...as(userToken), json: { name: '', questions: [{ type: 'x' }] } }), 400, 'bad survey');
  expect(await api.call('GET /api/v2/surveys', as(userToken)), 200, 'surveys');
  expect(await api.call('GET /api/v2/surveys/{id}', { ...as(readOnly), params: { id: sid2 } }), 403, 'no surveys scope');
  expect(await api.call('PUT /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 }, json: { status: 'collecting' } }), 200, 'launch');
  expect(await api.call('PUT /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 }, json: { status: 'draft' } }), 400, 'back to draft');
  expect(await api.call('GET /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 } }), 200, 'survey');
  expect(await api.call('GET /api/v2/surveys/{id}', { ...as(strangerToken), params: { id: sid2 } }), 404, 'survey of another directory');
  expect(await api.call('POST /api/v2/surveys/{id}/copy', { ...as(userToken), params: { id: sid2 }, json: { wave: true } }), 201, 'next wave');
  expect(await api.call('PUT /api/v2/surveys/{id}/shares', { ...as(userToken), params: { id: sid2 }, json: { email: colleague.email, permission: 'View' } }), 200, 'share survey');
  expect(await api.call('GET /api/v2/surveys/{id}/shares', { ...as(userToken), params: { id: sid2 } }), 200, 'survey shares');
  expect(await api.call('DELETE /api/v2/surveys/{id}/shares/{userId}', { ...as(userToken), params: { id: sid2, userId: colleague.id } }), 200, 'unshare survey');
  const sLinks = expect(await api.call('GET /api/v2/surveys/{id}/links', { ...as(userToken), params: { id: sid2 } }), 200, 'links');
  expect(await api.call('GET /api/v2/surveys/{id}/links', { ...as(userToken), params: { id: sid2 }, query: { format: 'csv' } }), 200, 'links CSV');
  const p2Link = (sLinks.json.links as { employeeId: string; link: string }[]).find((l) => l.employeeId === 'P2')!.link;
  const p2 = p2Link.split('/s/')[1];
  expect(await api.call('GET /s/api/{token}', { params: { token: p2 } }), 200, 'respondent view');
  expect(await api.call('GET /s/api/{token}', { params: { token: 'x'.repeat(43) } }), 404, 'guessed link');
  expect(await api.call('GET /s/api/{token}/roster', { params: { token: p2 }, query: { q: 'pat' } }), 200, 'respondent roster');
  expect(await api.call('PUT /s/api/{token}/answers/{questionId}', { params: { token: p2, questionId: 'advice' }, json: { value: [{ employeeId: 'P1', rating: 2 }] } }), 200, 'save answer');
  expect(await api.call('PUT /s/api/{token}/answers/{questionId}', { params: { token: p2, questionId: 'advice' }, json: { value: [{ employeeId: 'nobody' }] } }), 400, 'bad answer');
  expect(await api.call('PUT /s/api/{token}/answers/{questionId}', { params: { token: p2, questionId: 'office' }, json: { value: 'N' } }), 200, 'save choice');
  expect(await api.call('DELETE /s/api/{token}/answers/{questionId}', { params: { token: p2, questionId: 'office' } }), 200, 'clear answer');
  expect(await api.call('POST /s/api/{token}/submit', { params: { token: p2 }, json: {} }), 200, 'submit');
  const openUrl = survey.json.openLink.url as string;
  expect(await api.call('POST /s/open-api/{openToken}', { params: { openToken: openUrl.split('/s/open/')[1] }, json: { employeeId: 'P2' } }), 200, 'open link');
  expect(await api.call('POST /s/open-api/{openToken}', { params: { openToken: 'y'.repeat(43) }, json: { employeeId: 'P2' } }), 404, 'unknown open link');
  expect(await api.call('PUT /api/v2/surveys/{id}/responses/{employeeId}', { ...as(userToken), params: { id: sid2, employeeId: 'P1' }, json: { answers: { office: 'S' } } }), 200, 'owner entry');
  expect(await api.call('PUT /api/v2/surveys/{id}/responses/{employeeId}', { ...as(userToken), params: { id: sid2, employeeId: 'P1' }, json: { answers: { office: 'W' } } }), 400, 'bad owner entry');
  expect(await api.call('GET /api/v2/surveys/{id}/responses', { ...as(userToken), params: { id: sid2 } }), 200, 'responses');
  expect(await api.call('GET /api/v2/surveys/{id}/tracking', { ...as(userToken), params: { id: sid2 } }), 200, 'tracking');
  expect(await api.call('GET /api/v2/surveys/{id}/deliveries', { ...as(userToken), params: { id: sid2 } }), 200, 'deliveries');
  expect(await api.call('POST /api/v2/surveys/{id}/networks', { ...as(userToken), params: { id: sid2 }, json: { dryRun: true, nonRespondents: 'drop' } }), 200, 'preview survey networks');
  expect(await api.call('POST /api/v2/surveys/{id}/networks', { ...as(userToken), params: { id: sid2 }, json: { combined: true } }), 201, 'generate survey networks');
  expect(await api.call('POST /api/v2/surveys/{id}/networks', { ...as(userToken), params: { id: sid2 }, json: { nonRespondents: 'all' } }), 400, 'bad generation');
  expect(await api.call('POST /api/v2/surveys/{id}/networks', { ...as(strangerToken), params: { id: sid2 }, json: {} }), 404, 'generate in another directory');
  expect(await api.call('POST /api/v2/surveys/{id}/compare', { ...as(userToken), params: { id: sid2 }, json: {} }), 409, 'compare a first wave');
  const nextWave = expect(await api.call('POST /api/v2/surveys/{id}/copy', { ...as(userToken), params: { id: sid2 }, json: { wave: true } }), 201, 'wave to compare').json;
  const nwId = String(nextWave?._id ?? 'none');
  expect(await api.call('PUT /api/v2/surveys/{id}', { ...as(userToken), params: { id: nwId }, json: { status: 'collecting' } }), 200, 'launch the wave');
  expect(await api.call('POST /api/v2/surveys/{id}/networks', { ...as(userToken), params: { id: nwId }, json: { combined: true } }), 201, 'generate the wave');
  expect(await api.call('POST /api/v2/surveys/{id}/compare', { ...as(userToken), params: { id: nwId }, json: { question: 'combined', attribute: 'team' } }), 200, 'compare waves');
  expect(await api.call('POST /api/v2/surveys/{id}/compare', { ...as(strangerToken), params: { id: nwId }, json: {} }), 404, 'compare waves of another directory');
  const waveNets = ((await api.call('GET /api/v2/surveys/{id}', { ...as(userToken), params: { id: nwId } })).json?.networks ?? []) as { _id: string; question: string }[];
  const prevNets = ((await api.call('GET /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 } })).json?.networks ?? []) as { _id: string; question: string }[];
  const diffBody = { a: String(prevNets.find((n) => n.question === 'combined')?._id ?? 'none'), b: String(waveNets.find((n) => n.question === 'combined')?._id ?? 'none') };
  expect(await api.call('POST /api/v2/networks/compare/network', { ...as(userToken), json: diffBody }), 201, 'difference network');
  expect(await api.call('POST /api/v2/networks/compare/network', { ...as(strangerToken), json: diffBody }), 404, 'difference of networks of another directory');
  expect(await api.call('DELETE /api/v2/surveys/{id}/responses/{employeeId}', { ...as(userToken), params: { id: sid2, employeeId: 'P1' } }), 200, 'erase response');
  expect(await api.call('POST /api/v2/surveys/{id}/links/{employeeId}/reissue', { ...as(userToken), params: { id: sid2, employeeId: 'P2' } }), 200, 'reissue');
  expect(await api.call('GET /s/api/{token}', { params: { token: p2 } }), 410, 'revoked link');
  expect(await api.call('POST /api/v2/surveys/{id}/links/{employeeId}/revoke', { ...as(userToken), params: { id: sid2, employeeId: 'P2' } }), 200, 'revoke');
  expect(await api.call('PUT /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 }, json: { status: 'completed' } }), 200, 'complete');
  expect(await api.call('PUT /api/v2/surveys/{id}/responses/{employeeId}', { ...as(userToken), params: { id: sid2, employeeId: 'P1' }, json: { answers: { office: 'S' } } }), 410, 'closed survey');
  expect(await api.call('DELETE /api/v2/surveys/{id}', { ...as(userToken), params: { id: sid2 } }), 200, 'delete survey');

  /* ---------------------------------------------------------------- endings */
  expect(await api.call('DELETE /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'bob', networkId: netId } }), 200, 'remove grant');
  expect(await api.call('DELETE /api/v2/embed/users/{externalId}/networks/{networkId}', { ...as(orgToken), params: { externalId: 'nobody', networkId: netId } }), 404, 'remove grant of unknown');
  expect(await api.call('DELETE /api/v2/embed/sessions/{sessionId}', { ...as(orgToken), params: { sessionId: sid } }), 200, 'revoke');
  expect(await api.call('GET /api/v2/embed/viewer/views', v), 410, 'viewer after revocation');
  expect(await api.call('POST /api/v2/embed/sessions/{sessionId}/launch-tokens', { ...as(orgToken), params: { sessionId: sid } }), 410, 'launch token after revocation');
  expect(await api.call('POST /api/v2/embed/users/{externalId}/deactivate', { ...as(orgToken), params: { externalId: 'ann' } }), 200, 'deactivate');
  expect(await api.call('POST /api/v2/embed/users/{externalId}/deactivate', { ...as(orgToken), params: { externalId: 'nobody' } }), 404, 'deactivate unknown');
  expect(await api.call('DELETE /api/v2/networks/{id}', { ...as(strangerToken), params: { id } }), 403, 'delete by a reader');
  expect(await api.call('DELETE /api/v2/networks/{id}', { ...as(userToken), params: { id: 'nope' } }), 404, 'delete unknown');
  expect(await api.call('DELETE /api/v2/networks/{id}', { ...as(userToken), params: { id } }), 200, 'delete');
  expect(await api.call('DELETE /api/v2/employees/{id}', { ...as(userToken), params: { id: person.json._id } }), 200, 'erase a person');
  expect(await api.call('DELETE /api/v2/customFields/{id}', { ...as(userToken), params: { id: field.json._id } }), 200, 'delete field');

  // 429: failed operator authentications are capped per address (100 per hour)
  let limited: Answer | undefined;
  for (let i = 0; i < 110 && !limited; i++) {
    const a = await api.call('GET /api/v2/operator/organizations/{orgId}/embedding', { headers: bearer('wrong'), params: { orgId: org.id } });
    if (a.status === 429) limited = a;
    else expect(a, 401, 'wrong operator token');
  }
  assert.ok(limited, 'failed operator authentications were never limited');
  assert.ok(limited.headers.get('retry-after'), '429 without Retry-After');

  console.log(api.report(unexpected, 'openapi contract'));
});

test('the checker itself reports an unlisted status, an undocumented content type and an invalid body', async () => {
  const doc = structuredClone(api.doc);
  const list = doc.paths['/api/v2/networks'].get.responses;
  list['200'].content['application/json'].schema = { type: 'array', items: { type: 'object', required: ['notAField'] } };
  delete list['401'];
  const one = doc.paths['/api/v2/networks/{id}'].get.responses;
  one['404'].content = { 'text/plain': {} };
  const strict = new ContractChecker(doc, api.baseUrl);
  const owner = await t.user({ plan: 'enterprise' });
  const token = await t.token(owner.id);
  await strict.call('POST /api/v2/networks', { headers: bearer(token), json: { name: 'N', networkJSON: smallNetwork() } });
  await strict.call('GET /api/v2/networks', { headers: bearer(token) });
  await strict.call('GET /api/v2/networks');
  await strict.call('GET /api/v2/networks/{id}', { headers: bearer(token), params: { id: 'nope' } });
  await strict.call('GET /api/v2/no-such-operation');
  assert.equal(strict.mismatches.length, 4, strict.mismatches.join('\n'));
  assert.match(strict.mismatches[0], /GET \/api\/v2\/networks → 200: body invalid .*notAField/);
  assert.match(strict.mismatches[1], /GET \/api\/v2\/networks → 401: status not listed/);
  assert.match(strict.mismatches[2], /→ 404: content type application\/problem\+json not documented/);
  assert.match(strict.mismatches[3], /not an operation of the document/);
  assert.ok(strict.missing().includes('DELETE /api/v2/networks/{id}'));
});
