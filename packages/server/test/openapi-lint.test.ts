// `redocly lint` (Redocly's recommended rules, redocly.yaml) of both generated OpenAPI documents — the
// public API (/api/v2/openapi.json) and the web application's (/app/api/openapi.json): no error and no
// warning (docs/spec/contract.md). Runs with the tests, so CI lints what the code generates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { testApp } from './helpers/app.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

test('redocly lint: both OpenAPI documents are valid with no warnings', async () => {
  // a real public URL (the default http://localhost:8080 is what the no-server-example.com rule is about)
  const t = await testApp('sqlite', { NETLOOM_PUBLIC_URL: 'https://netloom.test' });
  const dir = mkdtempSync(join(tmpdir(), 'netloom-openapi-'));
  try {
    const files: string[] = [];
    for (const [url, name] of [['/api/v2/openapi.json', 'api.json'], ['/app/api/openapi.json', 'web-app.json']]) {
      const r = await t.app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 200)}`);
      writeFileSync(join(dir, name), r.body);
      files.push(join(dir, name));
    }
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', ...files, '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 120_000,
    });
    const out = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, out);
    assert.doesNotMatch(out, /\bwarning\b/, out);
    assert.match(out, /valid/, out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  }
});
