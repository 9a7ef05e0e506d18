// Issue 19, Low (docs/security.md "Request bodies"): a 10M-node JSON body was parsed before its nodes
// were counted (+1 GiB, 2.2 s with the event loop held). Now the nodes and edges are counted on the text
// before it is parsed (engine graph/json-limits.ts networkElementsOver), stopping at the first element
// over NETLOOM_MAX_NODES / NETLOOM_MAX_EDGES: 413, with the process's RSS growth measured during the
// request and /healthz answering throughout. The same count guards metric bodies (in the worker) and
// JSON files (import reader). Heavy: run on its own (scripts/test.ts SERIAL_FILES). The store is not
// involved (nothing is stored), so SQLite only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createGzip } from 'node:zlib';
import { testApp, userApp, bearer } from './helpers/app.ts';
import { compressWhileWriting, underLoad } from './helpers/load.ts';

/** `{"name":…,"networkJSON":{"nodes":[{"id":0},…],"edges":[]}}` with `n` nodes, gzipped as it is written (never held whole). */
async function gzippedNetworkBody(n: number): Promise<{ gz: Buffer; bytes: number }> {
  const { data, bytes } = await compressWhileWriting(createGzip({ level: 1 }), async (write) => {
    await write('{"name":"ten million","networkJSON":{"nodes":[');
    const CHUNK = 100_000;
    for (let start = 0; start < n; start += CHUNK) {
      const parts: string[] = [];
      for (let i = start; i < Math.min(n, start + CHUNK); i++) parts.push(`{"id":${i}}`);
      await write((start > 0 ? ',' : '') + parts.join(','));
    }
    await write('],"edges":[]}}');
  });
  return { gz: data, bytes };
}

describe('a 10M-node JSON body', () => {
  test('POST /networks and a metric call: 413 before parsing, RSS +≤ 512 MiB, /healthz answers throughout', { timeout: 600_000 }, async () => {
    const t = await userApp('sqlite');
    try {
      const base = await t.listen();
      const { gz, bytes } = await gzippedNetworkBody(10_000_000);
      const body = new Uint8Array(gz);
      assert.ok(bytes < t.config.limits.maxInflatedBytes, `${bytes} bytes fit the body limits, so only the node count refuses it`);
      for (const [what, path] of [['POST /networks', '/api/v2/networks'], ['metric', '/api/v2/metrics/nodes/inDegree']] as const) {
        const load = await underLoad(base, { sampleMs: 10, healthzTimeoutMs: 10_000, healthzPauseMs: 25 }, async () => {
          const res = await fetch(base + path, { method: 'POST', headers: { ...bearer(t.ownerToken), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
          return { res, answer: (await res.json()) as { code: string; detail: string; errors?: { path: string }[] } };
        });
        const { result: { res, answer }, elapsedMs: elapsed, growthMiB, latencies, statuses } = load;
        const slowest = Math.max(...latencies);
        console.log(`# ${what}: ${(bytes / 2 ** 20).toFixed(0)} MiB body (${(gz.length / 2 ** 20).toFixed(0)} MiB gzipped) → ${res.status} in ${elapsed.toFixed(0)} ms; /healthz ${latencies.length} answers, slowest ${slowest.toFixed(0)} ms; RSS +${growthMiB.toFixed(0)} MiB at peak`);
        assert.equal(res.status, 413, JSON.stringify(answer));
        assert.equal(answer.code, 'PAYLOAD_TOO_LARGE');
        assert.match(answer.detail, /more than 1000000 nodes.*counted before parsing/);
        assert.deepEqual(answer.errors?.map((e) => e.path), ['/networkJSON/nodes']);
        assert.ok(statuses.length >= 1 && statuses.every((s) => s === 200), `/healthz: ${statuses.join(',')}`);
        assert.ok(growthMiB <= 512, `RSS grew ${growthMiB.toFixed(0)} MiB (before: +1 GiB)`);
      }
      assert.equal(((await (await fetch(`${base}/api/v2/networks`, { headers: bearer(t.ownerToken) })).json()) as unknown[]).length, 0, 'nothing stored');
    } finally {
      await t.close();
    }
  });

  test('a JSON file over the node limit is refused while being counted, before it is parsed (import reader)', async () => {
    const t = await testApp('sqlite', { NETLOOM_MAX_NODES: '1000' });
    try {
      const token = await t.token((await t.user()).id);
      const nodes = Array.from({ length: 5_000 }, (_, i) => ({ id: i }));
      for (const file of [JSON.stringify({ name: 'n', networkJSON: { nodes, edges: [] } }), JSON.stringify({ nodes, edges: [] })]) {
        const form = new FormData();
        form.append('file', new Blob([file]), 'big.json');
        const r = new Response(form);
        const res = await t.app.inject({ method: 'POST', url: '/api/v2/networks/import', headers: { ...bearer(token), 'content-type': String(r.headers.get('content-type')) }, payload: Buffer.from(await r.arrayBuffer()) });
        assert.equal(res.statusCode, 413, res.body);
        assert.match(res.json().detail, /big\.json: the network has more than 1000 nodes.*counted before parsing/);
      }
      // at the limit it is read and stored
      const form = new FormData();
      form.append('file', new Blob([JSON.stringify({ nodes: nodes.slice(0, 1000), edges: [] })]), 'ok.json');
      const r = new Response(form);
      const ok = await t.app.inject({ method: 'POST', url: '/api/v2/networks/import', headers: { ...bearer(token), 'content-type': String(r.headers.get('content-type')) }, payload: Buffer.from(await r.arrayBuffer()) });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().nodeCount, 1000);
    } finally {
      await t.close();
    }
  });
});
