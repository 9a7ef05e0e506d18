// /docs/ as a documentation site: rendered Markdown with an overview, navigation, heading anchors,
// highlighted code and site links; the raw Markdown stays available; /api/v2 points to the reference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testApp, type TestApp } from './helpers/app.ts';
import { renderMarkdown, slugify, describe as describeDoc } from '../src/presenters/docs-site.ts';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs');
let t: TestApp;
before(async () => {
  t = await testApp('sqlite');
});
after(() => t.close());

test('the overview lists every page under docs/ with its title, and the pages are HTML without script', async () => {
  const r = await t.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(r.statusCode, 200);
  assert.match(String(r.headers['content-type']), /^text\/html/);
  assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
  assert.doesNotMatch(r.body, /<script/i);
  const top = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''));
  for (const slug of [...top, 'api/credentials']) assert.ok(r.body.includes(`href="/docs/${slug}"`), `overview links ${slug}`);
  assert.ok(r.body.includes('href="/api/v2/docs"'), 'links the API reference');
  assert.equal((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode, 200);
});

test('a page: title, navigation with the current page marked, anchors, highlighted code', async () => {
  const r = await t.app.inject({ method: 'GET', url: '/docs/errors' });
  assert.equal(r.statusCode, 200);
  assert.match(r.body, /<title>Errors · Netloom documentation<\/title>/);
  assert.match(r.body, /<a href="\/docs\/errors" aria-current="page">/);
  assert.match(r.body, /<h1 id="errors">Errors<\/h1>/);
  const m = await t.app.inject({ method: 'GET', url: '/docs/metrics' });
  assert.match(m.body, /<h2 id="pagerank">/);
  assert.ok(m.body.includes('href="#pagerank"'), 'in-page anchor links resolve to heading ids');
  const credentials = await t.app.inject({ method: 'GET', url: '/docs/api/credentials' });
  assert.equal(credentials.statusCode, 200);
  assert.match(credentials.body, /Deprecat/);
});

test('raw Markdown at .md; unknown pages and traversal are 404 problems', async () => {
  const raw = await t.app.inject({ method: 'GET', url: '/docs/errors.md' });
  assert.equal(raw.statusCode, 200);
  assert.match(String(raw.headers['content-type']), /^text\/markdown/);
  assert.match(raw.body, /^# Errors/);
  for (const url of ['/docs/nope', '/docs/..%2F..%2Fpackage', '/docs/../package.json', '/docs/a.b']) {
    const r = await t.app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 404, url);
    assert.match(String(r.headers['content-type']), /problem\+json/);
  }
});

test('rendering: site links from relative .md links, GitHub heading ids, code highlighted or escaped', () => {
  const html = renderMarkdown('# T\n\nSee [the API](../embedding-api.md#ai-chat) and [sibling](decisions.md) and [x](https://example.com/a.md).\n\n## AI chat & more\n\n```ts\nconst a = 1;\n```\n\n```\n<b>raw</b>\n```\n', 'api/credentials');
  assert.ok(html.includes('href="/docs/embedding-api#ai-chat"'), html);
  assert.ok(html.includes('href="/docs/api/decisions"'));
  assert.ok(html.includes('href="https://example.com/a.md"'));
  assert.match(html, /<h2 id="ai-chat--more">/);
  assert.match(html, /<span class="hljs-keyword">const<\/span>/);
  assert.ok(html.includes('&lt;b&gt;raw&lt;/b&gt;'));
  assert.equal(slugify('Time to first render (10k)'), 'time-to-first-render-10k');
  assert.deepEqual(describeDoc('# The `x` page\n\nFirst *para* [link](a.md).\n\n## Next', 'x'), { title: 'The x page', summary: 'First para link.' });
});

test('/api/v2 points to the API reference (JSON; browsers are redirected)', async () => {
  const j = await t.app.inject({ method: 'GET', url: '/api/v2' });
  assert.equal(j.statusCode, 200);
  assert.equal(j.json().reference, '/api/v2/docs');
  assert.match(String(j.headers.link), /<\/api\/v2\/docs>; rel="service-doc"/);
  const h = await t.app.inject({ method: 'GET', url: '/api/v2', headers: { accept: 'text/html,application/xhtml+xml' } });
  assert.equal(h.statusCode, 302);
  assert.equal(h.headers.location, '/api/v2/docs');
});
