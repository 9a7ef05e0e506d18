// "Keep these positions" (PUT /api/v2/embed/viewer/network/positions, docs/embedding.md Layouts) through
// real HTTP on SQLite and PostgreSQL: Edit writes x/y and gets a new networkUUID, everything else kept;
// View is refused; a stale networkUUID is 409; bad input is 400 naming the field; nothing is lost.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, type EmbedFixture } from './helpers/embed.ts';

for (const dialect of DIALECTS) {
  describe(`embedded viewer: keep positions (${dialect})`, () => {
    let f: EmbedFixture;
    before(async () => {
      f = await embedFixture(dialect);
    });
    after(async () => f.t.close());

    async function token(permission: 'View' | 'Edit'): Promise<string> {
      const s = await openSession(f, { permission });
      return accessToken(f, s.sessionId, s.launchToken);
    }

    test('Edit: x/y stored on the listed nodes, a new networkUUID, attributes and edges unchanged; a stale networkUUID is 409', async () => {
      const at = await token('Edit');
      const meta = (await viewer(f.app, at, 'GET', 'network')).json();
      const before = (await f.host('GET', `/api/v2/networks/${f.networkId}`)).json();
      const ids = before.networkJSON.nodes.map((n: { id: unknown }) => String(n.id));
      const r = await viewer(f.app, at, 'PUT', 'network/positions', { networkUUID: meta.networkUUID, nodeIds: ids, x: ids.map((_: string, i: number) => i * 10), y: ids.map((_: string, i: number) => 5 - i) });
      assert.equal(r.statusCode, 200, r.body);
      assert.notEqual(r.json().networkUUID, meta.networkUUID);
      assert.equal(r.json().updatedNodes, ids.length);
      const after = (await f.host('GET', `/api/v2/networks/${f.networkId}`)).json();
      assert.equal(after.networkUUID, r.json().networkUUID);
      after.networkJSON.nodes.forEach((n: { x: number; y: number }, i: number) => assert.deepEqual([n.x, n.y], [i * 10, 5 - i]));
      assert.deepEqual(after.networkJSON.edges, before.networkJSON.edges);
      assert.deepEqual(after.networkJSON.nodes.map((n: { attributes: unknown }) => n.attributes), before.networkJSON.nodes.map((n: { attributes: unknown }) => n.attributes));
      const stale = await viewer(f.app, at, 'PUT', 'network/positions', { networkUUID: meta.networkUUID, nodeIds: ids, x: ids.map(() => 1), y: ids.map(() => 1) });
      assert.equal(stale.statusCode, 409, stale.body);
      assert.equal(stale.json().code, 'CONFLICT');
    });

    test('View is refused (403); mismatched lengths, unknown ids and non-numbers are 400 naming the field', async () => {
      const viewOnly = await token('View');
      const meta = (await viewer(f.app, viewOnly, 'GET', 'network')).json();
      const denied = await viewer(f.app, viewOnly, 'PUT', 'network/positions', { networkUUID: meta.networkUUID, nodeIds: [], x: [], y: [] });
      assert.equal(denied.statusCode, 403, denied.body);
      const at = await token('Edit');
      const uuid = (await viewer(f.app, at, 'GET', 'network')).json().networkUUID;
      const cases: [unknown, RegExp][] = [
        [{ networkUUID: uuid, nodeIds: ['a'], x: [1, 2], y: [1] }, /same length/],
        [{ networkUUID: uuid, nodeIds: ['no-such-node'], x: [1], y: [1] }, /not in the network/],
        [{ networkUUID: uuid, nodeIds: ['a'], x: ['1'], y: [1] }, /x/],
        [{ networkUUID: uuid, nodeIds: ['a'], x: [1], y: [1], extra: true }, /extra|additional/i],
      ];
      for (const [body, msg] of cases) {
        const r = await viewer(f.app, at, 'PUT', 'network/positions', body);
        assert.equal(r.statusCode, 400, r.body);
        assert.match(r.body, msg);
      }
      assert.equal((await f.host('GET', `/api/v2/networks/${f.networkId}`)).json().networkUUID, uuid, 'nothing changed');
    });
  });
}
