import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { openTestDatabase, testDialects } from '../../../../test/helpers/db.ts';
import { fixture } from '../../../../test/helpers/fixture.ts';
import { getCredentialById } from '../../../store/credentials.ts';
import { authenticateBasic, authenticateBearer } from './authenticate.ts';
import { createBasicKey } from './basic-keys.ts';
import { listCredentials, revokeCredential } from './listing.ts';
import { FULL_ACCESS, SCOPES, parseScopes, requiredScope } from './scopes.ts';
import { randomBase62, sha256Hex } from './secrets.ts';
import { createToken, generateToken, parseToken, tokenChecksum } from './tokens.ts';
import { DomainError } from '../../errors.ts';
import { addMember, createOrganization, createUser, setOrganizationPlanOf, suspendUser } from '../users.ts';

const code = (c: string) => (e: unknown) => e instanceof DomainError && e.code === c;

describe('token format', () => {
  test('nl_<43 base62>_<6 base62 crc32>', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const tok = generateToken();
      assert.match(tok, /^nl_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
      const random = tok.slice(3, 46);
      const sum = tok.slice(47);
      // The checksum is the CRC-32 of the random part, in base62.
      let v = 0;
      for (const ch of sum) v = v * 62 + '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.indexOf(ch);
      assert.equal(v, crc32(random));
      assert.deepEqual(parseToken(tok), { random, prefix: `nl_${random.slice(0, 8)}` });
      seen.add(tok);
    }
    assert.equal(seen.size, 200);
  });

  test('a mistyped, truncated or foreign token fails the checksum without a database', () => {
    const tok = generateToken();
    const flipped = tok.slice(0, 10) + (tok[10] === 'a' ? 'b' : 'a') + tok.slice(11);
    assert.equal(parseToken(flipped), null);
    assert.equal(parseToken(tok.slice(0, -1)), null);
    assert.equal(parseToken('nl_short_000000'), null);
    assert.equal(parseToken(`xx_${tok.slice(3)}`), null);
    assert.equal(parseToken(''), null);
  });

  test('checksum is fixed length, zero padded', () => {
    assert.equal(tokenChecksum('').length, 6);
    assert.equal(tokenChecksum(''), '000000'); // crc32('') = 0
    assert.equal(randomBase62(50).length, 50);
  });

  test('sha256Hex', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('scopes', () => {
  test('13 scopes; full access is all of them', () => {
    assert.equal(SCOPES.length, 13);
    assert.deepEqual([...FULL_ACCESS], [...SCOPES]);
    assert.ok(SCOPES.includes('embed:manage') && SCOPES.includes('customFields:write'));
  });
  test('parseScopes: default full, lists, dedup, canonical order, every unknown reported', () => {
    assert.deepEqual(parseScopes(undefined), [...SCOPES]);
    assert.deepEqual(parseScopes('full'), [...SCOPES]);
    assert.deepEqual(parseScopes('networks:write, networks:read,networks:read'), ['networks:read', 'networks:write']);
    assert.deepEqual(parseScopes(['embed:manage', 'metrics:write']), ['metrics:write', 'embed:manage']);
    assert.throws(() => parseScopes('networks:read,bogus,networks:admin'), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'INVALID_ARGS');
      assert.equal(e.errors?.length, 2);
      assert.match(e.detail, /"bogus".*"networks:admin"/);
      return true;
    });
    assert.throws(() => parseScopes(''), code('INVALID_ARGS'));
    assert.throws(() => parseScopes([]), code('INVALID_ARGS'));
    assert.throws(() => parseScopes('NETWORKS:READ'), code('INVALID_ARGS'), 'case-sensitive');
  });
  test('requiredScope: GET reads, everything else writes', () => {
    assert.equal(requiredScope('networks', 'GET'), 'networks:read');
    assert.equal(requiredScope('networks', 'head'), 'networks:read');
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.equal(requiredScope('metrics', m), 'metrics:write');
  });
});

describe('credentials (sqlite)', () => {
  const t = fixture(() => openTestDatabase('sqlite'));

  test('bearer: created once, stored hashed, authenticates, revocation effective at once', async () => {
    const u = await createUser(t.db, { email: 'tok@example.com', name: 'Tok', plan: 'pro' });
    const { token, credential } = await createToken(t.db, { userId: u.id, scopes: 'networks:read' });
    assert.equal(credential.secret_hash, sha256Hex(token));
    assert.ok(!JSON.stringify(await getCredentialById(t.db, credential.id)).includes(token.slice(12)), 'secret not stored');
    assert.equal(credential.prefix, token.slice(0, 11));

    const p = await authenticateBearer(t.db, token);
    assert.ok(p);
    assert.equal(p.credentialId, credential.id);
    assert.equal(p.kind, 'token');
    assert.equal(p.userId, u.id);
    assert.equal(p.orgId, null);
    assert.equal(p.org, null);
    assert.equal(p.plan, 'pro');
    assert.deepEqual([...p.scopes], ['networks:read']);

    // Unknown token with a valid checksum; wrong secret with a known prefix.
    assert.equal(await authenticateBearer(t.db, generateToken()), null);
    const random = token.slice(3, 46);
    const forged = random.slice(0, 8) + 'x'.repeat(35);
    assert.equal(await authenticateBearer(t.db, `nl_${forged}_${tokenChecksum(forged)}`), null, 'same prefix, different secret');
    assert.equal(await authenticateBearer(t.db, 'garbage'), null);

    await revokeCredential(t.db, credential.id, { userId: u.id });
    assert.equal(await authenticateBearer(t.db, token), null, 'revoked → null on the next call');
    await assert.rejects(revokeCredential(t.db, credential.id), code('NOT_FOUND'));
  });

  test('lastUsedAt is written on first use, not on every request', async () => {
    const u = await createUser(t.db, { email: 'touch@example.com', name: 'Touch' });
    const { token, credential } = await createToken(t.db, { userId: u.id });
    assert.equal(credential.last_used_at, null);
    await authenticateBearer(t.db, token);
    const first = (await getCredentialById(t.db, credential.id))!.last_used_at;
    assert.ok(first);
    await new Promise((r) => setTimeout(r, 5));
    await authenticateBearer(t.db, token);
    assert.equal((await getCredentialById(t.db, credential.id))!.last_used_at, first, 'within a minute: unchanged');
  });

  test('basic key pair: pk_/sk_, constant-time verified, revocable', async () => {
    const u = await createUser(t.db, { email: 'basic@example.com', name: 'Basic' });
    const { publicKey, privateKey, credential } = await createBasicKey(t.db, { userId: u.id });
    assert.match(publicKey, /^pk_[0-9a-f]{24}$/);
    assert.match(privateKey, /^sk_[0-9A-Za-z]{43}$/);
    assert.equal(credential.prefix, publicKey);
    assert.equal(credential.secret_hash, sha256Hex(privateKey));
    const p = await authenticateBasic(t.db, publicKey, privateKey);
    assert.equal(p?.kind, 'basic');
    assert.equal(p?.scopes.size, SCOPES.length);
    assert.equal(await authenticateBasic(t.db, publicKey, `sk_${'A'.repeat(43)}`), null);
    assert.equal(await authenticateBasic(t.db, `pk_${'0'.repeat(24)}`, privateKey), null);
    assert.equal(await authenticateBasic(t.db, publicKey, ''), null);
    // A token's prefix is not a public key, and vice versa.
    const { token } = await createToken(t.db, { userId: u.id });
    assert.equal(await authenticateBasic(t.db, token.slice(0, 11), token), null);
    await revokeCredential(t.db, credential.id);
    assert.equal(await authenticateBasic(t.db, publicKey, privateKey), null);
  });

  test('at most maxPerUser active credentials; revoking frees a slot', async () => {
    const u = await createUser(t.db, { email: 'max@example.com', name: 'Max' });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const mk = i % 2 ? createToken : createBasicKey;
      ids.push((await mk(t.db, { userId: u.id, maxPerUser: 20 })).credential.id);
    }
    await assert.rejects(createToken(t.db, { userId: u.id, maxPerUser: 20 }), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'CREDENTIAL_LIMIT_REACHED');
      assert.equal(e.status, 403);
      assert.match(e.detail, /max@example\.com.*20/);
      return true;
    });
    assert.equal((await listCredentials(t.db, { userId: u.id })).length, 20);
    await revokeCredential(t.db, ids[0]);
    await createToken(t.db, { userId: u.id, maxPerUser: 20 });
    // Concurrent creations cannot exceed the maximum.
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => createToken(t.db, { userId: u.id, maxPerUser: 21 })));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  });

  test('list never shows secrets; shows kind, prefix/public key, scopes, org', async () => {
    const u = await createUser(t.db, { email: 'list@example.com', name: 'List' });
    const { token } = await createToken(t.db, { userId: u.id, scopes: ['networks:read'], name: 'ci' });
    const { privateKey, publicKey } = await createBasicKey(t.db, { userId: u.id });
    const list = await listCredentials(t.db, { userId: u.id });
    const text = JSON.stringify(list);
    assert.ok(!text.includes(token) && !text.includes(privateKey) && !text.includes('secret'));
    const tok = list.find((c) => c.kind === 'token')!;
    const key = list.find((c) => c.kind === 'basic')!;
    assert.equal(list.length, 2);
    assert.deepEqual([tok.name, key.name], ['ci', 'API key']);
    assert.equal(key.publicKey, publicKey);
    assert.equal(key.prefix, null);
    assert.equal(tok.prefix, token.slice(0, 11));
    assert.equal(tok.publicKey, null);
    assert.deepEqual(tok.scopes, ['networks:read']);
    assert.deepEqual(key.scopes, [...SCOPES]);
  });

  test('organization credentials: Owner/Admin of an enterprise/partner organization; plan from the organization', async () => {
    const boss = await createUser(t.db, { email: 'boss@example.com', name: 'Boss', plan: 'free' });
    const std = await createUser(t.db, { email: 'std@example.com', name: 'Std' });
    const { org } = await createOrganization(t.db, { name: 'Ent', plan: 'enterprise', ownerUserId: boss.id });
    await addMember(t.db, { orgId: org.id, userId: std.id, role: 'Standard User' });
    const { token, credential } = await createToken(t.db, { userId: boss.id, orgId: org.id, scopes: 'embed:manage' });
    assert.equal(credential.org_id, org.id);
    const p = await authenticateBearer(t.db, token);
    assert.equal(p?.orgId, org.id);
    assert.equal(p?.org?.name, 'Ent');
    assert.equal(p?.plan, 'enterprise', "the organization's plan, not the creator's (free)");
    assert.equal(p?.membership?.role, 'Owner');
    assert.deepEqual((await listCredentials(t.db, { orgId: org.id })).map((c) => c._id), [credential.id]);

    await assert.rejects(createToken(t.db, { userId: std.id, orgId: org.id }), code('FORBIDDEN'));
    const outsider = await createUser(t.db, { email: 'outsider@example.com', name: 'Out' });
    await assert.rejects(createToken(t.db, { userId: outsider.id, orgId: org.id }), code('FORBIDDEN'));
    await setOrganizationPlanOf(t.db, org.id, 'pro');
    await assert.rejects(createToken(t.db, { userId: boss.id, orgId: org.id }), code('PLAN_REQUIRED'));
    await assert.rejects(createToken(t.db, { userId: boss.id, orgId: '0'.repeat(24) }), code('NOT_FOUND'));

    // A suspended creator's own tokens stop working; the organization's credential keeps working.
    await setOrganizationPlanOf(t.db, org.id, 'enterprise');
    const own = await createToken(t.db, { userId: boss.id });
    await suspendUser(t.db, boss.id);
    assert.equal(await authenticateBearer(t.db, own.token), null);
    assert.ok(await authenticateBearer(t.db, token));
    await assert.rejects(createToken(t.db, { userId: boss.id }), code('FORBIDDEN'));
  });

  test('unknown user and invalid scopes are refused at creation', async () => {
    await assert.rejects(createToken(t.db, { userId: '0'.repeat(24) }), code('NOT_FOUND'));
    const u = await createUser(t.db, { email: 'scopes@example.com', name: 'S' });
    await assert.rejects(createToken(t.db, { userId: u.id, scopes: 'networks:delete' }), code('INVALID_ARGS'));
  });
});

for (const { dialect, skip } of await testDialects()) {
  test(`concurrent creations never exceed the maximum (${dialect})`, { skip }, async () => {
    const t = await openTestDatabase(dialect);
    try {
      const u = await createUser(t.db, { email: 'race@example.com', name: 'Race' });
      for (let i = 0; i < 3; i++) await createToken(t.db, { userId: u.id, maxPerUser: 5 });
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => createToken(t.db, { userId: u.id, maxPerUser: 5 })));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
      assert.ok(results.every((r) => r.status === 'fulfilled' || (r.reason as DomainError).code === 'CREDENTIAL_LIMIT_REACHED'));
      assert.equal((await listCredentials(t.db, { userId: u.id })).length, 5);
    } finally {
      await t.close();
    }
  });
}
