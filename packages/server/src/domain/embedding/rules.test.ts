// Unit tests of the pure embedding rules and the token/link helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isExternalId, normalizeUi, parseOrigin, parseOrigins, parseViewBody, sessionEndReason, parseLimitOverrides, effectiveLimits, MENU_ITEMS, type SessionFacts } from './rules.ts';
import { isAccessTokenFormat, isLaunchTokenFormat, newAccessToken, newLaunchToken, secretsEqual, signDataLink, tokenHash, verifyDataLink } from './tokens.ts';
import { DomainError } from '../errors.ts';

test('externalId: 1–128 of letters, digits and . _ : @ | -', () => {
  for (const ok of ['a', 'A.b_c:d@e|f-9', 'x'.repeat(128), 'user@example.com']) assert.ok(isExternalId(ok), ok);
  for (const bad of ['', 'x'.repeat(129), 'a b', 'a/b', 'é', 'a#b', 'a+b', 'a%b', 42, null]) assert.ok(!isExternalId(bad), String(bad));
});

test('origins: exact scheme://host[:port]; normalised like a browser; wildcards, paths, queries, user info refused', () => {
  assert.deepEqual(parseOrigin('https://app.example.com'), { origin: 'https://app.example.com' });
  assert.deepEqual(parseOrigin('HTTPS://App.Example.COM:443'), { origin: 'https://app.example.com' });
  assert.deepEqual(parseOrigin('http://localhost:3000'), { origin: 'http://localhost:3000' });
  assert.deepEqual(parseOrigin('https://[::1]:8443'), { origin: 'https://[::1]:8443' });
  const errs: [string, RegExp][] = [
    ['https://*.example.com', /wildcard/],
    ['*', /wildcard/],
    ['https://example.com/', /path/],
    ['https://example.com/x', /path/],
    ['https://example.com?x=1', /query/],
    ['https://example.com#x', /fragment/],
    ['https://user@example.com', /user/],
    ['ftp://example.com', /scheme/],
    ['javascript:alert(1)', /scheme/],
    ['example.com', /origin/],
    ['', /non-empty/],
  ];
  for (const [v, why] of errs) {
    const r = parseOrigin(v);
    assert.ok('error' in r, v);
    assert.match((r as { error: string }).error, why, v);
  }
  assert.deepEqual(parseOrigins(['https://a.com', 'https://A.com', 'https://b.com']), ['https://a.com', 'https://b.com']);
  assert.throws(() => parseOrigins(['https://a.com', 'https://*.b.com', 'x']), (e: DomainError) => e.code === 'INVALID_ARGS' && e.errors!.length === 2 && e.errors![0].path === '/allowedOrigins/1');
});

test('ui: defaults, viewer order, duplicates, every problem reported', () => {
  assert.deepEqual(normalizeUi(undefined), { menu: [...MENU_ITEMS], aiChat: true });
  assert.deepEqual(normalizeUi({}), { menu: [...MENU_ITEMS], aiChat: true });
  assert.deepEqual(normalizeUi({ menu: ['export', 'layout', 'export'], aiChat: false }), { menu: ['layout', 'export'], aiChat: false });
  assert.deepEqual(normalizeUi({ menu: [] }), { menu: [], aiChat: true });
  assert.throws(() => normalizeUi({ menu: ['layout', 'chat', 3], aiChat: 'yes', theme: 1 }), (e: DomainError) => {
    assert.equal(e.code, 'INVALID_ARGS');
    assert.deepEqual(e.errors!.map((x) => x.path).sort(), ['/ui/aiChat', '/ui/menu/1', '/ui/menu/2', '/ui/theme']);
    return true;
  });
  for (const bad of [null, [], 'x', 1]) assert.throws(() => normalizeUi(bad), DomainError);
});

test('session end conditions, first match wins', () => {
  const base: SessionFacts = { now: 1000, endedReason: null, expiresAt: 2000, lastActivityAt: 900, inactivityMs: 500, userActive: true, embeddingEnabled: true, originAllowed: true, permission: 'View', networkEmbeddable: true };
  assert.equal(sessionEndReason(base), null);
  assert.equal(sessionEndReason({ ...base, endedReason: 'revoked' }), 'revoked');
  assert.equal(sessionEndReason({ ...base, endedReason: 'something-old' }), 'revoked');
  assert.equal(sessionEndReason({ ...base, now: 2000 }), 'lifetime');
  assert.equal(sessionEndReason({ ...base, now: 1399 }), null);
  assert.equal(sessionEndReason({ ...base, now: 1400 }), 'inactivity');
  assert.equal(sessionEndReason({ ...base, userActive: false }), 'user-deactivated');
  assert.equal(sessionEndReason({ ...base, embeddingEnabled: false, userActive: false }), 'embedding-disabled');
  assert.equal(sessionEndReason({ ...base, originAllowed: false }), 'origin-removed');
  assert.equal(sessionEndReason({ ...base, permission: null }), 'access-removed');
  assert.equal(sessionEndReason({ ...base, networkEmbeddable: false }), 'network-not-embeddable');
});

test('limit overrides', () => {
  const d = { provisioningPerHour: 600, launchTokensPerHour: 6000, metricsPerHour: 3000, redemptionsPerSessionPerHour: 60, aiQuestionsPerMonth: 1000 };
  const o = parseLimitOverrides({ metricsPerHour: 10 });
  assert.deepEqual(effectiveLimits(d, o).metricsPerHour, 10);
  assert.deepEqual(parseLimitOverrides({ metricsPerHour: null }, o), {});
  for (const bad of [{ nope: 1 }, { metricsPerHour: 0 }, { metricsPerHour: 1.5 }, { metricsPerHour: '5' }, null, []]) assert.throws(() => parseLimitOverrides(bad), DomainError);
});

test('EmbedView v1 validation', () => {
  const ok = {
    name: ' A ',
    layers: [
      { id: '1', operation: 'Filter', appliedTo: 'nodes', attribute: 'age', attType: 'number', hidden: false, min: 1, max: 5 },
      { id: '2', operation: 'Color', appliedTo: 'nodes', attribute: 'team', attType: 'string', hidden: true },
      { id: '3', operation: 'Rollup', summary: 'Rolled up by team', readOnly: true },
    ],
    camera: { x: 0, y: 0, ratio: 1, angle: 0 },
    display: { backgroundColor: 'white', showLabels: 'always', showEdges: false },
  };
  const r = parseViewBody(ok, { partial: false });
  assert.equal(r.name, 'A');
  assert.equal(r.content!.layers.length, 3);
  assert.throws(() => parseViewBody({ ...ok, name: '' }, { partial: false }), DomainError);
  assert.throws(() => parseViewBody({ ...ok, layers: [{ id: '1', operation: 'Filter', appliedTo: 'nodes', attribute: 'a', attType: 'number', hidden: false }] }, { partial: false }), /values/);
  assert.throws(() => parseViewBody({ ...ok, layers: [{ id: '1', operation: 'Calculate' }] }, { partial: false }), /readOnly|summary/);
  assert.throws(() => parseViewBody({ ...ok, camera: { x: 0, y: 0, ratio: 'a', angle: 0 } }, { partial: false }), /camera/);
  assert.throws(() => parseViewBody({ ...ok, version: 2 }, { partial: false }), /version/);
  assert.throws(() => parseViewBody({ ...ok, extra: 1 }, { partial: false }), /extra/);
  assert.deepEqual(parseViewBody({ description: 'only' }, { partial: true }), { description: 'only' });
});

test('tokens: formats, hashing, constant-time comparison, signed data links', () => {
  const lt = newLaunchToken();
  const at = newAccessToken();
  assert.ok(isLaunchTokenFormat(lt) && !isLaunchTokenFormat(at));
  assert.ok(isAccessTokenFormat(at) && !isAccessTokenFormat(lt));
  assert.notEqual(newLaunchToken(), lt);
  assert.match(tokenHash(lt), /^[0-9a-f]{64}$/);
  assert.ok(secretsEqual('abc', 'abc'));
  assert.ok(!secretsEqual('abc', 'abd'));
  assert.ok(!secretsEqual('abc', 'abcd'));
  const key = Buffer.from('k'.repeat(32));
  const sig = signDataLink(key, 's1', 'n1', 5000);
  assert.ok(verifyDataLink(key, 's1', 'n1', 5000, sig, 4999));
  assert.ok(!verifyDataLink(key, 's1', 'n1', 5000, sig, 5000), 'expired');
  assert.ok(!verifyDataLink(key, 's2', 'n1', 5000, sig, 0), 'other session');
  assert.ok(!verifyDataLink(key, 's1', 'n2', 5000, sig, 0), 'other network');
  assert.ok(!verifyDataLink(key, 's1', 'n1', 6000, sig, 0), 'other expiry');
  assert.ok(!verifyDataLink(Buffer.from('x'.repeat(32)), 's1', 'n1', 5000, sig, 0), 'other key');
  assert.ok(!verifyDataLink(key, 's1', 'n1', 5000, sig.slice(1), 0));
});
