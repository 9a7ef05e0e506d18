// Uploads at the edge (issue 19, Low items; docs/security.md "Input at the edge"), through a listening
// server on SQLite and PostgreSQL (which cannot store U+0000 in text):
// - U+0000 in a form field, in the file name, or in what the file says about the network (its name or
//   description) → 400 naming the place, never a 500, nothing stored;
// - a multipart upload with Content-Encoding: gzip → 415 at once (it waited for the 300 s request timeout).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { userApp, bearer, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';

const EDGES = 'Source,Target\na,b\nb,c\n';

for (const dialect of DIALECTS) {
  describe(`upload edges (${dialect})`, () => {
    const t = fixture(() => userApp(dialect));
    let base: string;
    before(async () => {
      base = await t.listen();
    });

    const form = (file: { body: Uint8Array | string; name: string }, fields: Record<string, string> = {}) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('file', new Blob([typeof file.body === 'string' ? file.body : Buffer.from(file.body)]), file.name);
      return f;
    };
    const count = async () => ((await (await fetch(`${base}/api/v2/networks`, { headers: bearer(t.ownerToken) })).json()) as unknown[]).length;

    test('U+0000 in a form field, the file name or the file\'s network name/description: 400 naming it, nothing stored', async () => {
      const before = await count();
      const cases: { what: string; body: FormData; path: string }[] = [
        { what: 'name field', body: form({ body: EDGES, name: 'e.csv' }, { name: 'a\u0000b' }), path: '/name' },
        { what: 'description field', body: form({ body: EDGES, name: 'e.csv' }, { description: '\u0000' }), path: '/description' },
        { what: 'owner field', body: form({ body: EDGES, name: 'e.csv' }, { owner: 'x\u0000@example.com' }), path: '/owner' },
        { what: 'file name', body: form({ body: EDGES, name: 'ev\u0000il.csv' }), path: '/file' },
        { what: 'network name in the file', body: form({ body: zipSync({ 'edges.csv': strToU8(EDGES), 'network.csv': strToU8('Property,Value\r\nName,bad\u0000name\r\n') }), name: 'n.csv.zip' }), path: '/file' },
        { what: 'description in the file', body: form({ body: zipSync({ 'edges.csv': strToU8(EDGES), 'network.csv': strToU8('Property,Value\r\nDescription,d\u0000\r\n') }), name: 'n.csv.zip' }), path: '/file' },
      ];
      for (const c of cases) {
        const res = await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: bearer(t.ownerToken), body: c.body });
        const text = await res.text();
        assert.equal(res.status, 400, `${c.what}: ${text}`);
        const p = JSON.parse(text) as { code: string; errors?: { path: string }[] };
        assert.equal(p.code, 'INVALID_ARGS', c.what);
        assert.ok(p.errors?.some((e) => e.path === c.path), `${c.what}: ${text}`);
      }
      assert.equal(await count(), before, 'nothing stored');
      // the same upload without U+0000 is stored
      assert.equal((await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: bearer(t.ownerToken), body: form({ body: EDGES, name: 'e.csv' }, { name: 'ok' }) })).status, 200);
    });

    test('a multipart upload with Content-Encoding: gzip is 415 at once, not a wait for the request timeout', async () => {
      const req = new Request('http://x/', { method: 'POST', body: form({ body: EDGES, name: 'e.csv' }) });
      const raw = Buffer.from(await req.arrayBuffer());
      const started = performance.now();
      const res = await fetch(`${base}/api/v2/networks/import`, {
        method: 'POST',
        headers: { ...bearer(t.ownerToken), 'content-type': String(req.headers.get('content-type')), 'content-encoding': 'gzip' },
        body: gzipSync(raw),
        signal: AbortSignal.timeout(20_000),
      });
      assert.equal(res.status, 415);
      assert.equal(((await res.json()) as { code: string }).code, 'UNSUPPORTED_ENCODING');
      assert.ok(performance.now() - started < 10_000);
      // uncompressed, the same form is accepted
      assert.equal((await fetch(`${base}/api/v2/networks/import`, { method: 'POST', headers: { ...bearer(t.ownerToken), 'content-type': String(req.headers.get('content-type')) }, body: raw })).status, 200);
    });
  });
}
