// U+0000 and deeply nested JSON through the real HTTP stack, on SQLite and PostgreSQL (issue 9 items 7
// and 8; docs/security.md "Input at the edge"). PostgreSQL cannot store U+0000 in text, so a NUL anywhere
// — path, query, any string or key of a JSON body — is refused with 400 naming where it is, on both
// databases alike, with or without a credential; stored data is never touched. JSON nested deeper than
// the parser's limit is 400 (it used to overflow the stack in code that walks the value).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, smallNetwork } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, VIEW, type EmbedFixture } from './helpers/embed.ts';
import { MAX_JSON_DEPTH } from '../src/http/json-body.ts';
import { nestsDeeperThan } from '@netloom/engine/graph/json-limits.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every variant of `value` with U+0000 put into exactly one string (value or key), with the pointer of that place. */
function nulVariants(value: Json): { at: string; value: Json }[] {
  const out: { at: string; value: Json }[] = [];
  const walk = (v: Json, path: string, replace: (nv: Json) => Json): void => {
    if (typeof v === 'string') {
      out.push({ at: path, value: replace(`${v.slice(0, 1)}\u0000${v.slice(1)}`) });
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}/${i}`, (nv) => replace(v.map((y, j) => (j === i ? nv : y)))));
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        walk(v[k], `${path}/${k}`, (nv) => replace({ ...v, [k]: nv }));
        const renamed = `${k}\u0000`;
        out.push({ at: `${path}/${renamed}`, value: replace(Object.fromEntries(Object.entries(v).map(([kk, vv]) => [kk === k ? renamed : kk, vv]))) });
      }
    }
  };
  walk(value, '', (nv) => nv);
  return out;
}

for (const dialect of DIALECTS) {
  describe(`U+0000 and deep JSON are 400 at the edge (${dialect})`, () => {
    let f: EmbedFixture;
    let viewerToken: string;
    let sessionId: string;
    before(async () => {
      f = await embedFixture(dialect);
      const s = await openSession(f, { externalId: 'nul-user', permission: 'Edit' });
      sessionId = s.sessionId;
      viewerToken = await accessToken(f, s.sessionId, s.launchToken);
    });
    after(async () => f.t.close());

    test('U+0000 in a path or query: 400 with and without a credential, never a 500', async () => {
      const urls = [
        '/api/v2/networks/%00',
        `/api/v2/networks/${f.networkId}%00`,
        `/api/v2/networks/${f.networkId}/views?x=%00`,
        '/api/v2/networks?q=a%00b',
        '/api/v2/embed/users/%00',
        '/api/v2/embed/sessions/%00/status',
        '/api/v2/embed/data/%00?network=a&exp=1&sig=b',
        '/embed/%00',
        '/api/v2/embed/viewer/views/%00',
        '/api/v2/organization/members?%00=1',
      ];
      for (const url of urls) {
        const credential = url.includes('/viewer/') ? viewerToken : f.orgToken;
        const r = await f.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${credential}` } });
        assert.equal(r.statusCode, 400, `${url}: ${r.body}`);
        assert.equal(r.json().code, 'INVALID_ARGS');
        assert.match(r.json().detail, /U\+0000/);
        // without a credential: 400, or 401 where the route needs one — never a 500
        const anon = await f.app.inject({ method: 'GET', url });
        assert.ok(anon.statusCode === 400 || anon.statusCode === 401, `${url} anonymous: ${anon.body}`);
      }
      const anonymous = await f.app.inject({ method: 'GET', url: '/api/v2/networks/%00' });
      assert.equal(anonymous.statusCode, 400, anonymous.body);
      assert.deepEqual(anonymous.json().errors, [{ path: '/params/id', message: 'must not contain U+0000' }]);
      const put = await f.app.inject({ method: 'PUT', url: '/api/v2/embed/users/a%00b', headers: { authorization: `Bearer ${f.orgToken}` }, payload: { displayName: 'x' } });
      assert.equal(put.statusCode, 400, put.body);
      assert.deepEqual(put.json().errors, [{ path: '/params/externalId', message: 'must not contain U+0000' }]);
    });

    test('U+0000 in each text field and key of every stored body: 400 naming the field; nothing stored changes', async () => {
      const before = await f.host('GET', `/api/v2/networks/${f.networkId}`);
      const network = smallNetwork() as unknown as Json;
      const cases: { method: 'POST' | 'PUT'; url: string; body: Json; token?: string }[] = [
        { method: 'POST', url: '/api/v2/networks', body: { name: 'Team', description: 'about', networkJSON: network } },
        { method: 'PUT', url: `/api/v2/networks/${f.networkId}`, body: { name: 'Team 2', description: 'new', networkJSON: network } },
        { method: 'POST', url: '/api/v2/metrics/nodes/inDegree', body: { networkJSON: network } },
        { method: 'PUT', url: '/api/v2/embed/users/nul-user', body: { displayName: 'Viewer' } },
        { method: 'PUT', url: `/api/v2/embed/users/nul-user/networks/${f.networkId}`, body: { permission: 'Edit' } },
        { method: 'PUT', url: '/api/v2/embed/settings', body: { allowedOrigins: ['https://host.example.com'] } },
        { method: 'POST', url: '/api/v2/embed/sessions', body: { externalId: 'nul-user', networkIds: [f.networkId], origin: 'https://host.example.com', header: 'title' } },
        { method: 'PUT', url: `/api/v2/embed/networks/${f.networkId}/chat`, body: { presetQuestions: ['Who bridges teams?'] } },
        { method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens`, body: { launchToken: 'nll_x' } },
        { method: 'POST', url: '/api/v2/embed/viewer/views', body: VIEW as unknown as Json, token: viewerToken },
        { method: 'POST', url: '/api/v2/embed/viewer/chat/ask', body: { message: 'Who bridges teams?' }, token: viewerToken },
      ];
      let checked = 0;
      for (const c of cases) {
        for (const v of nulVariants(c.body)) {
          const r = await f.app.inject({ method: c.method, url: c.url, headers: { authorization: `Bearer ${c.token ?? f.orgToken}`, 'content-type': 'application/json' }, payload: JSON.stringify(v.value) });
          assert.equal(r.statusCode, 400, `${c.method} ${c.url} ${JSON.stringify(v.at)}: ${r.body}`);
          const p = r.json();
          assert.equal(p.code, 'INVALID_ARGS');
          assert.equal(p.errors[0].path, v.at.replaceAll('~', '~0'), `${c.url}: ${r.body}`);
          checked++;
        }
      }
      assert.ok(checked > 60, `checked ${checked} fields`);
      // the escaped backslash followed by "u0000" is text, not U+0000: accepted
      const text = await f.host('POST', '/api/v2/networks', { name: 'back\\u0000slash', networkJSON: { nodes: [] } });
      assert.equal(text.statusCode, 200, text.body);
      assert.equal(text.json().name, 'back\\u0000slash');
      const after = await f.host('GET', `/api/v2/networks/${f.networkId}`);
      assert.deepEqual(after.json(), before.json());
    });

    test(`JSON nested deeper than ${MAX_JSON_DEPTH} is 400 on every route that takes a body; ${MAX_JSON_DEPTH} deep is parsed`, async () => {
      const deep = (n: number, open = '[', close = ']') => open.repeat(n) + close.repeat(n);
      const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
      const targets: { method: 'POST' | 'PUT'; url: string; token?: string }[] = [
        { method: 'POST', url: '/api/v2/networks' },
        { method: 'PUT', url: `/api/v2/networks/${f.networkId}` },
        { method: 'POST', url: '/api/v2/metrics/nodes/inDegree' },
        { method: 'POST', url: '/api/v2/metrics/network/diameter' },
        { method: 'PUT', url: '/api/v2/embed/users/deep-user' },
        { method: 'PUT', url: '/api/v2/embed/settings' },
        { method: 'POST', url: '/api/v2/embed/sessions' },
        { method: 'PUT', url: `/api/v2/embed/networks/${f.networkId}/chat` },
        { method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens` },
        { method: 'POST', url: '/api/v2/embed/viewer/views', token: viewerToken },
        { method: 'POST', url: '/api/v2/embed/viewer/chat/ask', token: viewerToken },
        { method: 'POST', url: '/api/v2/embed/viewer/metrics/nodes/inDegree', token: viewerToken },
      ];
      for (const body of [deep(200_000), objects(200_000), `{"name":"x","networkJSON":{"nodes":[{"id":1,"attributes":{"a":${deep(MAX_JSON_DEPTH)}}}]}}`]) {
        for (const tg of targets) {
          const r = await f.app.inject({ method: tg.method, url: tg.url, headers: { authorization: `Bearer ${tg.token ?? f.orgToken}`, 'content-type': 'application/json' }, payload: body });
          if (tg.url.endsWith('/access-tokens') && body.length > f.t.config.limits.maxAnonymousBodyBytes) {
            // The exchange has no credential before its body: a body over the anonymous limit is not even read (docs/security.md).
            assert.equal(r.statusCode, 413, `${tg.method} ${tg.url}: ${r.body.slice(0, 300)}`);
            assert.match(r.json().detail, /without a credential/);
            continue;
          }
          assert.equal(r.statusCode, 400, `${tg.method} ${tg.url}: ${r.body.slice(0, 300)}`);
          assert.equal(r.json().code, 'INVALID_ARGS');
          assert.match(r.json().detail, /nested deeper than/);
        }
      }
      // at the limit the body is parsed and reaches the route's own validation (not the depth check)
      const atLimit = await f.host('POST', '/api/v2/networks', JSON.parse(`{"name":"x","networkJSON":{"nodes":[{"id":1,"attributes":{"a":${deep(MAX_JSON_DEPTH - 5)}}}]}}`));
      assert.ok(atLimit.statusCode === 200 || atLimit.statusCode === 400, atLimit.body.slice(0, 300));
      assert.doesNotMatch(atLimit.body, /nested deeper than/);
      // brackets inside strings do not count
      const inString = await f.host('POST', '/api/v2/networks', { name: '['.repeat(10_000), networkJSON: { nodes: [{ id: '{'.repeat(10_000) }] } });
      assert.equal(inString.statusCode, 200, inString.body.slice(0, 300));
    });
  });
}

describe('nestsDeeperThan', () => {
  test('counts brackets outside strings only, with escaped quotes and backslashes', () => {
    assert.equal(nestsDeeperThan('[[1]]', 2), false);
    assert.equal(nestsDeeperThan('[[[1]]]', 2), true);
    assert.equal(nestsDeeperThan('["[[[[", {"a": "]]]]"}]', 2), false);
    assert.equal(nestsDeeperThan('["a\\"[[[["]', 1), false); // escaped quote: still inside the string
    assert.equal(nestsDeeperThan('["a\\\\", [[1]]]', 2), true); // escaped backslash ends the string
    assert.equal(nestsDeeperThan('{"a":{"b":{"c":[]}}}', 4), false);
    assert.equal(nestsDeeperThan('{"a":{"b":{"c":[[]]}}}', 4), true);
    assert.equal(nestsDeeperThan('["unterminated', 0), true);
    assert.equal(nestsDeeperThan('"unterminated [[[[', 1), false);
  });
});
