/**
 * Store contract: the same cases on SQLite and PostgreSQL (a schema of its own per run).
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { inTransaction, isUniqueViolation } from '../src/store/db.ts';
import { migrate, MIGRATIONS } from '../src/store/migrations/index.ts';
import { countUsers, getUserByEmail, getUserById, insertUser, updateUser } from '../src/store/users.ts';
import {
  getMembershipOfUser,
  getOrganizationsByName,
  insertMembership,
  insertOrganization,
  listMemberIds,
  listMembers,
} from '../src/store/organizations.ts';
import {
  countActiveCredentialsOfUser,
  findCredentialByPrefix,
  insertCredential,
  listCredentials,
  revokeCredentialRow,
  touchCredential,
  type CredentialRecord,
} from '../src/store/credentials.ts';
import {
  countNetworksByOwner,
  deleteNetwork,
  getNetwork,
  getNetworkForUser,
  getNetworkJSONGzip,
  getNetworkJSONText,
  getNetworkWithJSONText,
  getShare,
  insertNetwork,
  listNetworksForOrg,
  listNetworksForUser,
  listPublicNetworks,
  listShares,
  setHandpicked,
  updateNetwork,
  updateNetworkIf,
  upsertShare,
  deleteShare,
  type NewNetwork,
} from '../src/store/networks.ts';
import { incrementWindow, pruneWindows } from '../src/store/rate-limits.ts';
import { getMeta, setMeta } from '../src/store/meta.ts';
import { newId } from '../src/domain/ids.ts';
import { openTestDatabase, testDialects } from './helpers/db.ts';
import { fixture } from './helpers/fixture.ts';
import { schemaAndSnapshot } from './helpers/schema.ts';

const now = () => new Date().toISOString();

function user(email: string) {
  return { id: newId(), email, name: email.split('@')[0], password_hash: null, plan: 'free' as const, status: 'active' as const, kind: 'regular' as const };
}

function network(ownerId: string, over: Partial<NewNetwork> = {}): NewNetwork {
  return {
    id: newId(),
    owner_id: ownerId,
    name: 'N',
    description: '',
    is_directed: 1,
    status: 'Private',
    file_type: 'JSON',
    original_file_type: 'JSON',
    network_uuid: newId(),
    max_views: 5,
    node_count: 2,
    edge_count: 1,
    json: '{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"id":1,"source":"a","target":"b"}]}',
    ...over,
  };
}

function credential(userId: string, over: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    id: newId(), kind: 'token', user_id: userId, org_id: null, name: 't', prefix: `nl_${newId().slice(0, 8)}`,
    secret_hash: 'ab'.repeat(32), scopes: '["networks:read"]', created: now(), last_used_at: null, revoked_at: null, ...over,
  };
}

for (const { dialect, skip } of await testDialects()) {
  describe(`store contract (${dialect})`, { skip }, () => {
    const t = fixture(() => openTestDatabase(dialect));

    test('migrations are idempotent and leave the schema current', async () => {
      const again = await migrate(t.db);
      assert.deepEqual(again.applied, []);
      assert.equal(again.current, Object.keys(MIGRATIONS).sort().at(-1));
      if (dialect === 'postgres') {
        const r = await sql<{ s: string }>`select current_schema() as s`.execute(t.db);
        assert.equal(r.rows[0].s, t.schema, 'search_path points at the run schema');
      }
    });

    test('migrations produce exactly the pinned schema (helpers/schema.ts)', async () => {
      const { actual, pinned } = await schemaAndSnapshot(t);
      assert.equal(actual, pinned);
    });

    test('users: insert, lookups, unique e-mail, update, count', async () => {
      const before = await countUsers(t.db);
      const u = await insertUser(t.db, user('alice@example.com'));
      assert.deepEqual(await getUserById(t.db, u.id), u);
      assert.deepEqual(await getUserByEmail(t.db, 'alice@example.com'), u);
      assert.equal(await getUserByEmail(t.db, 'nobody@example.com'), null);
      await assert.rejects(insertUser(t.db, user('alice@example.com')), (e) => isUniqueViolation(e));
      const up = await updateUser(t.db, u.id, { plan: 'pro', status: 'suspended' });
      assert.equal(up?.plan, 'pro');
      assert.equal(up?.status, 'suspended');
      assert.ok(up!.modified >= u.modified);
      assert.equal(await updateUser(t.db, newId(), { plan: 'pro' }), null);
      assert.equal(await countUsers(t.db), before + 1);
    });

    test('organizations: memberships unique per user, members listed', async () => {
      const a = await insertUser(t.db, user('org-a@example.com'));
      const b = await insertUser(t.db, user('org-b@example.com'));
      const o1 = await insertOrganization(t.db, { id: newId(), name: 'Acme', plan: 'enterprise', created_by: a.id });
      const o2 = await insertOrganization(t.db, { id: newId(), name: 'Other', plan: 'free', created_by: b.id });
      await insertMembership(t.db, { org_id: o1.id, user_id: a.id, role: 'Owner' });
      await insertMembership(t.db, { org_id: o1.id, user_id: b.id, role: 'Access-only' });
      await assert.rejects(insertMembership(t.db, { org_id: o2.id, user_id: b.id, role: 'Owner' }), (e) => isUniqueViolation(e));
      assert.equal((await getMembershipOfUser(t.db, b.id))?.role, 'Access-only');
      const members = await listMembers(t.db, o1.id);
      assert.deepEqual(members.map((m) => [m.user.email, m.role]).sort(), [['org-a@example.com', 'Owner'], ['org-b@example.com', 'Access-only']]);
      assert.deepEqual((await listMemberIds(t.db, o1.id)).sort(), [a.id, b.id].sort());
      assert.deepEqual((await getOrganizationsByName(t.db, 'Acme')).map((o) => o.id), [o1.id]);
    });

    test('foreign keys are enforced', async () => {
      await assert.rejects(insertMembership(t.db, { org_id: newId(), user_id: newId(), role: 'Owner' }));
      await assert.rejects(insertNetwork(t.db, network(newId())));
    });

    test('credentials: unique prefix, joined lookup, conditional touch, revoke, count', async () => {
      const u = await insertUser(t.db, user('cred@example.com'));
      const o = await insertOrganization(t.db, { id: newId(), name: 'CredOrg', plan: 'enterprise', created_by: u.id });
      await insertMembership(t.db, { org_id: o.id, user_id: u.id, role: 'Admin' });
      const c1 = await insertCredential(t.db, credential(u.id));
      const c2 = await insertCredential(t.db, credential(u.id, { kind: 'basic', prefix: `pk_${newId()}`, org_id: o.id }));
      await assert.rejects(insertCredential(t.db, credential(u.id, { prefix: c1.prefix })), (e) => isUniqueViolation(e));

      const f1 = await findCredentialByPrefix(t.db, c1.prefix);
      assert.deepEqual(f1?.credential, c1);
      assert.equal(f1?.user.id, u.id);
      assert.equal(f1?.membership?.role, 'Admin');
      assert.equal(f1?.org, null, 'user credential has no owning organization');
      const f2 = await findCredentialByPrefix(t.db, c2.prefix);
      assert.equal(f2?.org?.id, o.id);
      assert.equal(await findCredentialByPrefix(t.db, 'nl_unknown0'), null);

      const t0 = '2026-01-01T00:00:00.000Z';
      await touchCredential(t.db, c1.id, t0, '2025-12-31T23:59:00.000Z');
      assert.equal((await findCredentialByPrefix(t.db, c1.prefix))?.credential.last_used_at, t0);
      // Not stale yet: a second touch within the interval does nothing.
      await touchCredential(t.db, c1.id, '2026-01-01T00:00:30.000Z', '2025-12-31T23:59:30.000Z');
      assert.equal((await findCredentialByPrefix(t.db, c1.prefix))?.credential.last_used_at, t0);

      assert.equal(await countActiveCredentialsOfUser(t.db, u.id), 2);
      assert.equal(await revokeCredentialRow(t.db, c1.id, now()), true);
      assert.equal(await revokeCredentialRow(t.db, c1.id, now()), false, 'revoking twice reports false');
      assert.equal(await countActiveCredentialsOfUser(t.db, u.id), 1);
      assert.deepEqual((await listCredentials(t.db, { userId: u.id })).map((c) => c.id), [c2.id]);
      assert.equal((await listCredentials(t.db, { userId: u.id, includeRevoked: true })).length, 2);
      assert.deepEqual((await listCredentials(t.db, { orgId: o.id })).map((c) => c.id), [c2.id]);
    });

    test('networks: JSON stored gzip-compressed and returned byte-exact; metadata never carries it', async () => {
      const u = await insertUser(t.db, user('net@example.com'));
      const json = JSON.stringify({ nodes: [{ id: 'ä', attributes: { name: 'Zoë 🌐' } }, { id: 2 }], edges: [] });
      const rec = await insertNetwork(t.db, network(u.id, { json, name: 'Unicode' }));
      assert.equal(rec.owner_name, 'net');
      assert.equal(rec.version, 1);
      assert.equal(rec.json_bytes, Buffer.byteLength(json));
      assert.ok(!('json_gz' in rec));
      assert.equal(await getNetworkJSONText(t.db, rec.id), json);
      const gz = await getNetworkJSONGzip(t.db, rec.id);
      assert.equal(gunzipSync(gz!.gz).toString('utf8'), json);
      const both = await getNetworkWithJSONText(t.db, rec.id);
      assert.equal(both?.jsonText, json);
      assert.equal(both?.network.id, rec.id);
      assert.equal(await getNetworkJSONText(t.db, newId()), null);
      assert.equal(await getNetwork(t.db, newId()), null);

      // A large, repetitive network compresses well.
      const nodes = Array.from({ length: 20_000 }, (_, i) => ({ id: `n${i}`, attributes: { team: `T${i % 7}` } }));
      const big = JSON.stringify({ nodes, edges: [] });
      const bigRec = await insertNetwork(t.db, network(u.id, { json: big, node_count: nodes.length, edge_count: 0 }));
      const stored = await getNetworkJSONGzip(t.db, bigRec.id);
      assert.ok(stored!.gz.length * 4 < big.length, `compressed ${stored!.gz.length} of ${big.length}`);
      for (const row of await listNetworksForUser(t.db, u.id)) assert.ok(!('json_gz' in row), 'list rows never carry the JSON');
    });

    test('networks: update bumps version; updateNetworkIf is optimistic', async () => {
      const u = await insertUser(t.db, user('occ@example.com'));
      const rec = await insertNetwork(t.db, network(u.id));
      const up = await updateNetwork(t.db, rec.id, { name: 'Renamed', json: '{"nodes":[]}', node_count: 0, edge_count: 0 });
      assert.equal(up?.name, 'Renamed');
      assert.equal(up?.version, 2);
      assert.equal(up?.json_bytes, 12);
      assert.equal(await getNetworkJSONText(t.db, rec.id), '{"nodes":[]}');
      assert.equal(await updateNetworkIf(t.db, rec.id, 1, { name: 'stale' }), false, 'stale version is refused');
      assert.equal((await getNetwork(t.db, rec.id))?.name, 'Renamed');
      assert.equal(await updateNetworkIf(t.db, rec.id, 2, { name: 'fresh', json: '{"nodes":[{"id":1}]}' }), true);
      const after = await getNetwork(t.db, rec.id);
      assert.equal(after?.name, 'fresh');
      assert.equal(after?.version, 3);
      assert.equal(await getNetworkJSONText(t.db, rec.id), '{"nodes":[{"id":1}]}');
      // Two concurrent conditional writers on the same version: exactly one wins.
      const results = await Promise.all([updateNetworkIf(t.db, rec.id, 3, { name: 'x' }), updateNetworkIf(t.db, rec.id, 3, { name: 'y' })]);
      assert.deepEqual(results.filter(Boolean).length, 1);
      assert.equal(await updateNetwork(t.db, newId(), { name: 'z' }), null);
      assert.equal(await updateNetworkIf(t.db, newId(), 1, { name: 'z' }), false);
    });

    test('networks: visibility lists, shares, counts, handpicked, delete cascades shares', async () => {
      const owner = await insertUser(t.db, user('vis-owner@example.com'));
      const other = await insertUser(t.db, user('vis-other@example.com'));
      const outsider = await insertUser(t.db, user('vis-outsider@example.com'));
      const org = await insertOrganization(t.db, { id: newId(), name: 'VisOrg', plan: 'enterprise', created_by: owner.id });
      await insertMembership(t.db, { org_id: org.id, user_id: owner.id, role: 'Owner' });
      await insertMembership(t.db, { org_id: org.id, user_id: other.id, role: 'Standard User' });

      // created while members (org_id set); a network of the owner's from before joining stays personal
      const pub = await insertNetwork(t.db, network(owner.id, { name: 'pub', status: 'Public', org_id: org.id }));
      const priv = await insertNetwork(t.db, network(owner.id, { name: 'priv', org_id: org.id }));
      const priv2 = await insertNetwork(t.db, network(owner.id, { name: 'priv2', org_id: org.id }));
      const othersNet = await insertNetwork(t.db, network(other.id, { name: 'others', org_id: org.id }));
      const personal = await insertNetwork(t.db, network(owner.id, { name: 'personal' }));
      const outsiderNet = await insertNetwork(t.db, network(outsider.id, { name: 'outsider', status: 'Public' }));

      assert.deepEqual(await countNetworksByOwner(t.db, owner.id), { public: 1, private: 3 });
      assert.deepEqual(await countNetworksByOwner(t.db, newId()), { public: 0, private: 0 });

      await upsertShare(t.db, priv.id, other.id, 'View');
      await upsertShare(t.db, priv.id, other.id, 'Edit'); // upsert changes the permission
      assert.equal(await getShare(t.db, priv.id, other.id), 'Edit');
      assert.equal(await getShare(t.db, priv2.id, other.id), null);
      assert.equal((await listShares(t.db, priv.id)).length, 1);

      const forOther = await listNetworksForUser(t.db, other.id);
      assert.deepEqual(forOther.map((n) => n.name).sort(), ['others', 'priv']);
      assert.equal(forOther.find((n) => n.name === 'priv')?.share_permission, 'Edit');
      assert.equal(forOther.find((n) => n.name === 'others')?.share_permission, null);
      assert.equal(forOther.find((n) => n.name === 'priv')?.owner_name, 'vis-owner');

      const g = await getNetworkForUser(t.db, priv.id, other.id);
      assert.equal(g?.share_permission, 'Edit');
      assert.equal((await getNetworkForUser(t.db, priv2.id, other.id))?.share_permission, null);

      const forOrg = await listNetworksForOrg(t.db, org.id);
      assert.deepEqual(forOrg.map((n) => n.name).sort(), ['others', 'priv', 'priv2', 'pub']);
      assert.ok(!forOrg.some((n) => n.id === outsiderNet.id));
      assert.ok(!forOrg.some((n) => n.id === personal.id), 'a personal network is outside the organization (docs/security.md)');

      assert.equal(await setHandpicked(t.db, outsiderNet.id, true), true);
      const publics = await listPublicNetworks(t.db);
      assert.equal(publics[0].id, outsiderNet.id, 'handpicked first');
      assert.ok(publics.some((n) => n.id === pub.id));
      assert.ok(!publics.some((n) => n.id === priv.id));

      assert.equal(await deleteShare(t.db, priv.id, other.id), true);
      await upsertShare(t.db, priv.id, other.id, 'View');
      assert.equal(await deleteNetwork(t.db, priv.id), true);
      assert.equal(await deleteNetwork(t.db, priv.id), false);
      assert.equal(await getNetwork(t.db, priv.id), null);
      assert.equal((await listShares(t.db, priv.id)).length, 0, 'shares deleted with the network');
      void othersNet;
    });

    test('rate limits: atomic fixed-window increments', async () => {
      const hour = 3_600_000;
      const base = Date.UTC(2026, 0, 1, 10, 0, 0);
      const counts = await Promise.all(Array.from({ length: 40 }, () => incrementWindow(t.db, 'cred:x', hour, base + 1000)));
      assert.deepEqual(counts.map((c) => c.count).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1));
      assert.ok(counts.every((c) => c.windowStart === base && c.resetAt === base + hour));
      const next = await incrementWindow(t.db, 'cred:x', hour, base + hour + 5);
      assert.deepEqual(next, { count: 1, windowStart: base + hour, resetAt: base + 2 * hour });
      const late = await incrementWindow(t.db, 'cred:x', hour, base + 10); // a late request of the old window
      assert.equal(late.count, 2);
      assert.equal(late.windowStart, base + hour);
      assert.equal((await incrementWindow(t.db, 'cred:y', hour, base)).count, 1, 'keys are independent');
      assert.equal(await pruneWindows(t.db, base + hour), 1);
    });

    test('meta and transactions', async () => {
      assert.equal(await getMeta(t.db, 'k'), null);
      await setMeta(t.db, 'k', 'v1');
      await setMeta(t.db, 'k', 'v2');
      assert.equal(await getMeta(t.db, 'k'), 'v2');
      await assert.rejects(
        inTransaction(t.db, async (trx) => {
          await setMeta(trx, 'k', 'rolled-back');
          await insertUser(trx, user('tx@example.com'));
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal(await getMeta(t.db, 'k'), 'v2');
      assert.equal(await getUserByEmail(t.db, 'tx@example.com'), null);
    });
  });
}
