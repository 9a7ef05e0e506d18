// Export limits (docs/api/import-export.md "Export limits", docs/security.md "Exports"; issue 19 finding 4),
// through a listening server on SQLite and PostgreSQL: the cell budget (413), exports in progress at
// once per caller and for anonymous callers together (429 + Retry-After, sent in parallel), and the
// cache of Public exports (built once per change, dropped when the network changes). The load test
// (a 50k-node network, /healthz and RSS measured) is test/export-load.test.ts.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, bearer, DIALECTS, type TestApp } from './helpers/app.ts';
import { baNetwork } from './helpers/graphs.ts';

async function started(dialect: (typeof DIALECTS)[number], env: Record<string, string>): Promise<{ t: TestApp; base: string }> {
  const t = await testApp(dialect, { NETLOOM_TRUSTED_PROXIES: '127.0.0.1', ...env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}` };
}

async function create(base: string, token: string, status: 'Public' | 'Private', networkJSON: unknown): Promise<string> {
  const res = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: `export ${status}`, status, networkJSON }) });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { _id: string })._id;
}

const tally = (rs: Response[]) => rs.map((r) => r.status).sort().join(',');

for (const dialect of DIALECTS) {
  describe(`export limits (${dialect})`, () => {
    const apps: TestApp[] = [];
    after(async () => {
      for (const t of apps) await t.close();
    });

    test('cell budget: an export over NETLOOM_EXPORT_MAX_CELLS is 413 PAYLOAD_TOO_LARGE naming the count; under it 200', async () => {
      const { t, base } = await started(dialect, { NETLOOM_EXPORT_MAX_CELLS: '1000' });
      apps.push(t);
      const token = await t.token((await t.user()).id);
      // 300 nodes × 1 column + 597 edges × 3 columns = 2,091 cells
      const big = await create(base, token, 'Private', baNetwork(300, 2));
      const res = await fetch(`${base}/api/v2/networks/${big}/export?format=xlsx`, { headers: bearer(token) });
      assert.equal(res.status, 413);
      const p = (await res.json()) as { code: string; detail: string };
      assert.equal(p.code, 'PAYLOAD_TOO_LARGE');
      assert.match(p.detail, /2091 cells .* more than the 1000/);
      const small = await create(base, token, 'Private', baNetwork(100, 2));
      assert.equal((await fetch(`${base}/api/v2/networks/${small}/export?format=csv`, { headers: bearer(token) })).status, 200);
    });

    test('exports in progress at once: per caller (NETLOOM_EXPORTS_PER_CALLER) and for anonymous callers together (NETLOOM_ANONYMOUS_EXPORTS): 429 with Retry-After', async () => {
      const { t, base } = await started(dialect, { NETLOOM_EXPORTS_PER_CALLER: '1', NETLOOM_ANONYMOUS_EXPORTS: '2', NETLOOM_EXPORT_CACHE_BYTES: '0' });
      apps.push(t);
      const token = await t.token((await t.user()).id);
      const priv = await create(base, token, 'Private', baNetwork(4000, 3));
      const pub = await create(base, token, 'Public', baNetwork(4000, 3));
      // one user: 3 at once → 1 built, 2 refused
      const mine = await Promise.all([0, 1, 2].map(() => fetch(`${base}/api/v2/networks/${priv}/export?format=xlsx`, { headers: bearer(token) })));
      assert.equal(tally(mine), '200,429,429');
      const refused = mine.find((r) => r.status === 429) as Response;
      assert.equal(refused.headers.get('retry-after'), '5');
      assert.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMITED');
      await Promise.all(mine.map((r) => (r.bodyUsed ? undefined : r.arrayBuffer())));
      // afterwards the place is free again
      assert.equal((await fetch(`${base}/api/v2/networks/${priv}/export?format=csv`, { headers: bearer(token) })).status, 200);
      // anonymous callers from 4 addresses at once: 2 built, 2 refused (each address is under its own cap)
      const anon = await Promise.all(['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map((ip) => fetch(`${base}/api/v2/networks/${pub}/export?format=xlsx`, { headers: { 'x-forwarded-for': ip } })));
      assert.equal(tally(anon), '200,200,429,429');
      await Promise.all(anon.map((r) => r.arrayBuffer()));
      // a signed-in caller is not held by the anonymous cap
      assert.equal((await fetch(`${base}/api/v2/networks/${pub}/export?format=csv`, { headers: bearer(token) })).status, 200);
    });

    test('Public exports are cached by networkUUID: built once for concurrent and later requests, rebuilt after a change; Private ones never cached', async () => {
      const { t, base } = await started(dialect, { NETLOOM_EXPORT_CACHE_MIN_BYTES: '0' });
      apps.push(t);
      const token = await t.token((await t.user()).id);
      const pub = await create(base, token, 'Public', baNetwork(2000, 3));
      const before = t.app.networkExports.cachedBytes;
      const first = await Promise.all([0, 1].map(() => fetch(`${base}/api/v2/networks/${pub}/export?format=json`)));
      assert.deepEqual(first.map((r) => r.status), [200, 200]);
      const [a, b] = await Promise.all(first.map(async (r) => Buffer.from(await r.arrayBuffer())));
      assert.ok(a.equals(b));
      assert.equal(t.app.networkExports.cachedBytes - before, a.length, 'one file cached');
      const again = Buffer.from(await (await fetch(`${base}/api/v2/networks/${pub}/export?format=json`)).arrayBuffer());
      assert.ok(again.equals(a));
      assert.equal(t.app.networkExports.cachedBytes - before, a.length, 'served from the cache');
      // a change (new name → the file's content changes) is a new entry, not the old file
      const renamed = await fetch(`${base}/api/v2/networks/${pub}`, { method: 'PUT', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'renamed network', networkJSON: baNetwork(2000, 3) }) });
      assert.equal(renamed.status, 200, await renamed.clone().text());
      const after = await fetch(`${base}/api/v2/networks/${pub}/export?format=json`);
      assert.match(String(after.headers.get('content-disposition')), /renamed-network\.json/);
      const body = Buffer.from(await after.arrayBuffer());
      assert.ok(body.toString('utf8').includes('renamed network'));
      assert.ok(!a.toString('utf8').includes('renamed network'));
      const priv = await create(base, token, 'Private', baNetwork(2000, 3));
      const cachedNow = t.app.networkExports.cachedBytes;
      assert.equal((await fetch(`${base}/api/v2/networks/${priv}/export?format=json`, { headers: bearer(token) })).status, 200);
      assert.equal(t.app.networkExports.cachedBytes, cachedNow, 'a Private export is not cached');
    });
  });
}
