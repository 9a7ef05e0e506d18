// Issue 9 item 1 (docs/security.md, "Request bodies"): a stranger cannot make the server inflate or parse
// a big body. Viewer routes check the access token before the body is read (401 without decompressing
// it); the access-token exchange — whose credential is in the body — and every other request without a
// proved credential are held to NETLOOM_MAX_ANONYMOUS_BODY_BYTES (64 KiB) compressed and inflated.
// Measured on the real service as a process: 8 concurrent gzip bodies that each inflate to 250 MiB
// (ratio ≈ 140, under the bomb-ratio check) to the exchange and to four viewer routes. Before: ≈ +1 GiB
// RSS per request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createGzip, gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
const MiB = 1024 * 1024;

/** `{"launchToken":"…"}` whose string inflates to `mib` MiB: each MiB is 8 KiB of random base64 and 'a's. */
async function bomb(mib: number): Promise<Buffer> {
  const gz = createGzip({ level: 1 });
  const parts: Buffer[] = [];
  gz.on('data', (d: Buffer) => parts.push(d));
  const ended = new Promise((r) => gz.on('end', r));
  gz.write('{"launchToken":"');
  const filler = Buffer.alloc(MiB - 8192, 0x61);
  for (let i = 0; i < mib; i++) {
    gz.write(randomBytes(6144).toString('base64'));
    gz.write(filler);
    await new Promise((r) => setImmediate(r));
  }
  gz.end('"}');
  await ended;
  return Buffer.concat(parts);
}

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

function post(port: number, path: string, body: Buffer, headers: Record<string, string>, method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length), ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // The server may answer and stop reading before the whole body is sent.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? resolve({ status: -1, body: err.code }) : reject(err)));
    req.end(body);
  });
}

test('8 concurrent 250 MiB-inflating bodies to the token exchange and the viewer routes: peak RSS +< 64 MiB, memory back to baseline', { skip: process.platform !== 'linux' ? '/proc needed' : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-bodies-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dir, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', NETLOOM_METRIC_WORKERS: '1' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > until) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const body = await bomb(250);
    assert.ok(body.length > 1 * MiB && body.length < 4 * MiB, `bomb is ${body.length} bytes`);
    const sessionId = '0123456789abcdef01234567';
    const routes: [string, string, Record<string, string>][] = [
      ['POST', `/api/v2/embed/sessions/${sessionId}/access-tokens`, {}],
      ['POST', '/api/v2/embed/viewer/views', { authorization: 'Bearer nla_' + 'x'.repeat(43) }],
      ['POST', '/api/v2/embed/viewer/metrics/nodes/degreeCentrality', {}],
      ['PUT', '/api/v2/embed/viewer/network/positions', { authorization: 'Bearer nla_wrong' }],
      ['POST', '/api/v2/embed/viewer/chat/ask', {}],
    ];
    // Warm up every route (code paths loaded, allocator settled) with a small body, then measure.
    const small = gzipSync('{"launchToken":"nll_x"}');
    for (const [method, path, headers] of routes) await post(port, path, small, headers, method);
    if (global.gc) global.gc();
    await new Promise((r) => setTimeout(r, 500));
    const before = memory(child.pid!);
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5'); // resets VmHWM (the peak) to the current RSS
    const results = await Promise.all(routes.flatMap(([method, path, headers]) => Array.from({ length: 8 }, () => post(port, path, body, headers, method))));
    const during = memory(child.pid!);
    for (const [i, r] of results.entries()) {
      const [, path] = routes[Math.floor(i / 8)];
      if (path.endsWith('/access-tokens')) {
        assert.ok(r.status === 413 || r.status === -1, `${path}: ${r.status} ${r.body}`);
        if (r.status === 413) assert.match(r.body, /over the limit of 65536 bytes for a request without a credential/);
      } else {
        assert.ok(r.status === 401 || r.status === -1, `${path}: ${r.status} ${r.body}`);
      }
    }
    assert.ok(results.some((r) => r.status !== -1), 'answers were received');
    const peak = during.hwm - before.rss;
    await new Promise((r) => setTimeout(r, 2000));
    const after = memory(child.pid!);
    console.log(`RSS before ${(before.rss / MiB).toFixed(1)} MiB, peak +${(peak / MiB).toFixed(1)} MiB, after ${(after.rss / MiB).toFixed(1)} MiB`);
    assert.ok(peak < 64 * MiB, `peak RSS rose by ${(peak / MiB).toFixed(1)} MiB`);
    assert.ok(after.rss - before.rss < 32 * MiB, `RSS after is ${((after.rss - before.rss) / MiB).toFixed(1)} MiB above the baseline`);
    assert.ok((await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
