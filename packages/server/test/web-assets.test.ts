// The web application's static serving: index.html on the app's paths (no-cache, strict CSP), hashed
// assets cached as immutable, and no SPA fallback where the API, embed, SDK and docs live.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWeb, WEB_DIST } from '../../web/build.ts';
import { SERVER_APP_PATHS } from '@netloom/protocol/http';
import { testApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
before(async () => {
  await buildWeb();
  t = await testApp('sqlite');
});
after(() => t.close());

test('every app path answers index.html, revalidated on each load, under a strict CSP', async () => {
  const manifest = JSON.parse(readFileSync(join(WEB_DIST, 'manifest.json'), 'utf8')) as { js: string; css: string };
  for (const pattern of SERVER_APP_PATHS) {
    const url = pattern.replace(/:(\w+)/g, 'x1');
    const r = await t.app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 200, url);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.match(String(r.headers['content-security-policy']), /default-src 'self'.*frame-ancestors 'none'/);
    assert.ok(r.body.includes(`src="${manifest.js}"`) && r.body.includes(`href="${manifest.css}"`), 'names the hashed entry files');
    assert.equal(r.headers['set-cookie'], undefined);
  }
});

test('hashed assets are immutable for a year; unknown ones and traversal are 404 problems', async () => {
  const manifest = JSON.parse(readFileSync(join(WEB_DIST, 'manifest.json'), 'utf8')) as { js: string; css: string };
  for (const url of [manifest.js, manifest.css]) {
    const r = await t.app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 200, url);
    assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['ratelimit-limit'], undefined, 'static files count against no rate limit');
    assert.ok(r.body.length > 1000);
  }
  assert.match(String((await t.app.inject({ method: 'GET', url: manifest.js })).headers['content-type']), /javascript/);
  for (const url of ['/assets/nope-12345678.js', '/assets/../package.json', '/assets/..%2f..%2fpackage.json']) {
    const r = await t.app.inject({ method: 'GET', url });
    assert.ok(r.statusCode === 404 || r.statusCode === 400, `${url} → ${r.statusCode}`);
    assert.match(String(r.headers['content-type']), /problem\+json/);
  }
});

test('no SPA fallback outside the app: API, embed, SDK and docs paths keep JSON 404 problems', async () => {
  for (const url of ['/api/v2/nothing-here', '/app/api/nothing-here', '/embed/assets/nothing.js', '/sdk/nothing.js', '/assets/nothing.js']) {
    const r = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    assert.equal(r.statusCode, 404, url);
    assert.match(String(r.headers['content-type']), /application\/problem\+json/, url);
  }
});

test('an unknown page asked for by a browser: the app (its "Page not found" page) with status 404; other clients get the problem', async () => {
  for (const url of ['/nothing-here', '/networks/a/b/c']) {
    const r = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(r.statusCode, 404, url);
    assert.match(String(r.headers['content-type']), /text\/html/, url);
    assert.match(r.body, /<div id="root">|<script type="module"/, url);
    assert.match(String(r.headers['content-security-policy']), /default-src 'self'/, url);
    const json = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
    assert.equal(json.statusCode, 404, url);
    assert.match(String(json.headers['content-type']), /application\/problem\+json/, url);
  }
});
