// The real service as a process (what `npm start` runs): first-run owner bootstrap printed once,
// structured logs that never contain tokens, and graceful shutdown on SIGTERM that finishes in-flight
// requests.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
/** Waiting for a process to start is not a timing assertion: generous, so a busy machine cannot fail it. */
const START_MS = 60_000;
// A failed assertion must not leave a service running (it would keep this file's process alive).
const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function spawnService(dataDir: string, port: number): { child: ChildProcess; out: () => string; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  let out = '';
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout!.on('data', (d) => ((out += d), (stdout += d)));
  child.stderr!.on('data', (d) => ((out += d), (stderr += d)));
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return { child, out: () => out, stdout: () => stdout, stderr: () => stderr, exited };
}

async function waitFor(fn: () => Promise<boolean> | boolean, ms = 15000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if (await fn()) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}

/**
 * A data dir and a port of one test's own for its service processes: `start()` starts the service on them
 * (a second start finds the first one's data) and waits until `ready` answers. The dir is removed after `body`.
 */
async function withService(prefix: string, body: (svc: { base: string; port: number; start(ready?: '/healthz' | '/readyz'): Promise<ReturnType<typeof spawnService>> }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  try {
    await body({
      base,
      port,
      async start(ready = '/healthz') {
        const s = spawnService(dir, port);
        await waitFor(async () => (await fetch(`${base}${ready}`)).ok, START_MS);
        return s;
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('first start prints the owner once; logs hold no secrets; SIGTERM finishes in-flight requests', () =>
  withService('netloom-proc-', async ({ base, port, start }) => {
    const s1 = await start();
    const printed = s1.out();
    const token = /API token \(full access\): (nl_\S+)/.exec(printed)?.[1];
    assert.ok(token, `owner token printed:\n${printed}`);
    assert.match(printed, /password: +\S{12,}/);
    // the banner (issue 9 item 10) goes to stderr, never to stdout where the JSON logs go
    const password = /password: +(\S+)/.exec(printed)![1];
    assert.ok(s1.stderr().includes(token) && s1.stderr().includes(password), 'banner on stderr');
    assert.ok(!s1.stdout().includes(token) && !s1.stdout().includes(password), 'no first-start secret on stdout (the log stream)');
    assert.match(s1.stderr(), new RegExp(`sign in at: +http://localhost:${port}/\\n`));
    assert.match(s1.stderr(), /organization: +Owner's organization/);

    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers, body: JSON.stringify({ name: 'secret-name-xyz', networkJSON: { nodes: [{ id: 'secret-node-id' }] } }) });
    assert.equal(created.status, 200);
    const id = (await created.json())._id as string;
    const gz = await fetch(`${base}/api/v2/networks/${id}`, { headers: { ...headers, 'accept-encoding': 'gzip' } });
    assert.equal(gz.status, 200);
    assert.equal((await gz.json()).networkJSON.nodes[0].id, 'secret-node-id');
    const bad = await fetch(`${base}/api/v2/networks`, { headers: { authorization: 'Bearer nl_wrongtokenvalue' } });
    assert.equal(bad.status, 401);

    // a large upload in flight when SIGTERM arrives still completes
    const nodes = Array.from({ length: 100_000 }, (_, i) => ({ id: i, attributes: { name: `n${i}` } }));
    const body = gzipSync(JSON.stringify({ name: 'inflight', networkJSON: { nodes } }));
    const inflight = fetch(`${base}/api/v2/networks`, { method: 'POST', headers: { ...headers, 'content-encoding': 'gzip' }, body });
    await new Promise((r) => setTimeout(r, 30));
    s1.child.kill('SIGTERM');
    const res = await inflight;
    assert.equal(res.status, 200);
    const code = await s1.exited;
    assert.equal(code, 0, s1.out().split("\n").slice(-8).join("\n"));

    const logs = s1.out().split('\n').filter((l) => l.startsWith('{'));
    assert.ok(logs.length > 3, 'JSON logs were written');
    for (const line of logs) {
      assert.ok(!line.includes(token), 'no token in logs');
      assert.ok(!line.includes('nl_wrongtokenvalue'), 'no presented token in logs');
      assert.ok(!line.includes('secret-node-id') && !line.includes('secret-name-xyz'), 'no network content in logs');
      const rec = JSON.parse(line);
      assert.ok(rec.level && rec.time);
    }
    assert.ok(logs.some((l) => JSON.parse(l).reqId), 'request ids in logs');

    // second start on the same data: no new owner printed, data still there
    const s2 = await start();
    assert.doesNotMatch(s2.out(), /API token/);
    const list = await fetch(`${base}/api/v2/networks`, { headers });
    assert.equal((await list.json()).length, 2);
    s2.child.kill('SIGTERM');
    await s2.exited;
  }));

test('SIGKILL during a burst of writes loses no acknowledged write; the database stays readable', () =>
  withService('netloom-kill-', async ({ base, start }) => {
    const s1 = await start();
    const token = /API token \(full access\): (nl_\S+)/.exec(s1.out())![1];
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const acknowledged: { id: string; name: string }[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        try {
          const nodes = Array.from({ length: 200 }, (_, k) => ({ id: k, attributes: { name: `${name}-${k}` } }));
          const res = await fetch(`${base}/api/v2/networks`, { method: 'POST', headers, body: JSON.stringify({ name, networkJSON: { nodes } }) });
          if (res.status === 200) acknowledged.push({ id: ((await res.json()) as { _id: string })._id, name });
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await waitFor(() => acknowledged.length >= 40);
    s1.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await s1.exited;
    assert.ok(acknowledged.length >= 40);

    const s2 = await start('/readyz');
    for (const a of acknowledged) {
      const res = await fetch(`${base}/api/v2/networks/${a.id}`, { headers });
      assert.equal(res.status, 200, `acknowledged network ${a.name} is readable`);
      const body = (await res.json()) as { name: string; networkJSON: { nodes: unknown[] } };
      assert.equal(body.name, a.name);
      assert.equal(body.networkJSON.nodes.length, 200);
    }
    const list = (await (await fetch(`${base}/api/v2/networks`, { headers })).json()) as unknown[];
    assert.ok(list.length >= acknowledged.length);
    s2.child.kill('SIGTERM');
    await s2.exited;
  }));
