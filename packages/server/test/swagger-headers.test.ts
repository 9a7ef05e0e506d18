// Issue 19, Low (docs/security.md "Secrets in logs"/"Pages"): the Swagger UI at /api/v2/docs has a CSP
// (no script from elsewhere, no inline handlers) and cannot be framed by anyone (frame-ancestors 'none'
// and X-Frame-Options DENY), on the page and its static files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp } from './helpers/app.ts';

test('Swagger UI: CSP with frame-ancestors none, X-Frame-Options DENY', async () => {
  const t = await testApp('sqlite');
  try {
    for (const url of ['/api/v2/docs', '/api/v2/docs/', '/api/v2/docs/static/swagger-initializer.js']) {
      const r = await t.app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 200, url);
      const csp = String(r.headers['content-security-policy']);
      const directives = csp.split(';').map((d) => d.trim()).filter(Boolean);
      const frame = directives.filter((d) => d.startsWith('frame-ancestors'));
      assert.deepEqual(frame, ["frame-ancestors 'none'"], csp);
      assert.ok(directives.some((d) => /^script-src 'self'/.test(d)), csp);
      assert.ok(directives.includes("object-src 'none'"), csp);
      assert.equal(r.headers['x-frame-options'], 'DENY', url);
    }
  } finally {
    await t.close();
  }
});
