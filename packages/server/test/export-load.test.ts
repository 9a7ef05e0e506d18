// Issue 19 finding 4, acceptance: two anonymous xlsx exports at once of a 50,000-node / 250,000-edge
// Public network. The files are built in a worker thread (formats/export-pool.ts) and the second request
// waits for the first's build (the cache of Public exports), so `/healthz` answers every request within
// 1 s throughout and the process grows by at most 512 MiB (before: one export held /healthz 25.8 s and
// added ~2 GiB). Heavy: run on its own (scripts/test.ts SERIAL_FILES). SQLite and PostgreSQL.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { userApp, bearer, DIALECTS } from './helpers/app.ts';
import { baNetwork } from './helpers/graphs.ts';
import { underLoad } from './helpers/load.ts';

for (const dialect of DIALECTS) {
  describe(`export under load (${dialect})`, () => {
    test('2 concurrent anonymous xlsx exports of a 50k-node / 250k-edge Public network: /healthz within 1 s throughout, RSS +≤ 512 MiB', { timeout: 600_000 }, async () => {
      const t = await userApp(dialect);
      try {
        const base = await t.listen();
        let body: string | null = JSON.stringify({ name: 'big public', status: 'Public', networkJSON: baNetwork(50_000, 5) });
        const created = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...bearer(t.ownerToken), 'content-type': 'application/json' }, body });
        body = null;
        assert.equal(created.status, 200, await created.clone().text());
        const net = (await created.json()) as { _id: string; nodeCount: number; edgeCount: number };
        assert.equal(net.nodeCount, 50_000);
        assert.ok(net.edgeCount >= 249_000, String(net.edgeCount));
        const load = await underLoad(base, { sampleMs: 25, healthzTimeoutMs: 5_000, healthzPauseMs: 50 }, () =>
          Promise.all([0, 1].map(async () => {
            const res = await fetch(`${base}/api/v2/networks/${net._id}/export?format=xlsx`);
            assert.equal(res.status, 200, res.status === 200 ? '' : await res.text());
            return Buffer.from(await res.arrayBuffer());
          })),
        );
        const { result: files, elapsedMs: elapsed, growthMiB, latencies } = load;
        const slowest = Math.max(...latencies);
        console.log(`# ${dialect}: 2 xlsx exports in ${(elapsed / 1000).toFixed(1)} s, ${files[0].length} bytes each; /healthz ${latencies.length} requests, slowest ${slowest.toFixed(0)} ms; RSS +${growthMiB.toFixed(0)} MiB at peak`);
        assert.equal(files[0].subarray(0, 2).toString('latin1'), 'PK');
        assert.ok(files[0].equals(files[1]));
        assert.ok(latencies.length >= 3, `${latencies.length} /healthz answers`);
        assert.ok(load.statuses.every((status) => status === 200), `/healthz: ${load.statuses.join(',')}`);
        assert.ok(slowest < 1000, `slowest /healthz ${slowest.toFixed(0)} ms`);
        assert.ok(growthMiB <= 512, `RSS grew ${growthMiB.toFixed(0)} MiB`);
      } finally {
        await t.close();
      }
    });
  });
}
