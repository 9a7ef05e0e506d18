import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openTestDatabase } from '../../../test/helpers/db.ts';
import { fixture } from '../../../test/helpers/fixture.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import { getUserById } from '../../store/users.ts';
import { DomainError } from '../errors.ts';
import { isId, newId } from '../ids.ts';
import {
  ROLES,
  activateUser,
  addMember,
  canOwnNetworks,
  createOrganization,
  createUser,
  isOrgAdmin,
  normalizeEmail,
  parsePlan,
  parseRole,
  requireUserByEmail,
  resolveOrganization,
  setUserPlan,
  suspendUser,
  unverifyUser,
} from './users.ts';
import { verifyPassword } from './passwords.ts';

const code = (c: string) => (e: unknown) => e instanceof DomainError && e.code === c;

test('ids are 24 lowercase hex, random', () => {
  const a = newId();
  assert.match(a, /^[0-9a-f]{24}$/);
  assert.notEqual(a, newId());
  assert.ok(isId(a) && !isId('XYZ') && !isId(a.toUpperCase()));
});

test('e-mail normalisation and validation', () => {
  assert.equal(normalizeEmail('  Ann.Lee+x@Example.COM '), 'ann.lee+x@example.com');
  for (const bad of ['', 'ann', 'ann@', '@x.com', 'a b@x.com', 'ann@x', 42, null, `${'a'.repeat(250)}@x.com`]) {
    assert.throws(() => normalizeEmail(bad), code('INVALID_ARGS'), String(bad));
  }
});

test('plans and roles are exactly the spec values', () => {
  assert.deepEqual([...ROLES], ['Owner', 'Admin', 'Standard User', 'Access-only', 'Simplified Access-only']);
  for (const r of ROLES) assert.equal(parseRole(r), r);
  assert.throws(() => parseRole('admin'), code('INVALID_ARGS'));
  assert.throws(() => parseRole('Member'), code('INVALID_ARGS'));
  for (const p of ['free', 'pro', 'enterprise', 'partner']) assert.equal(parsePlan(p), p);
  assert.throws(() => parsePlan('gold'), code('INVALID_ARGS'));
});

test('canOwnNetworks: active + verified + not Access-only / Simplified Access-only', () => {
  const active = { status: 'active' as const };
  assert.equal(canOwnNetworks(active, null), true);
  assert.equal(canOwnNetworks(active, { role: 'Owner' }), true);
  assert.equal(canOwnNetworks(active, { role: 'Admin' }), true);
  assert.equal(canOwnNetworks(active, { role: 'Standard User' }), true);
  assert.equal(canOwnNetworks(active, { role: 'Access-only' }), false);
  assert.equal(canOwnNetworks(active, { role: 'Simplified Access-only' }), false);
  assert.equal(canOwnNetworks({ status: 'suspended' }, null), false);
  assert.equal(canOwnNetworks({ status: 'unverified' }, { role: 'Owner' }), false);
  assert.equal(isOrgAdmin({ role: 'Admin' }), true);
  assert.equal(isOrgAdmin({ role: 'Standard User' }), false);
  assert.equal(isOrgAdmin(null), false);
});

describe('identity (sqlite)', () => {
  const t = fixture(() => openTestDatabase('sqlite'));

  test('createUser lowercases, hashes the password, refuses a taken e-mail', async () => {
    const u = await createUser(t.db, { email: 'Mixed@Example.com', name: ' Mixed ', plan: 'pro', password: 'hunter22hunter' });
    assert.equal(u.email, 'mixed@example.com');
    assert.equal(u.name, 'Mixed');
    assert.equal(u.plan, 'pro');
    assert.equal(u.status, 'active');
    assert.match(u.password_hash!, /^scrypt\$32768\$8\$1\$/);
    assert.ok(await verifyPassword('hunter22hunter', u.password_hash));
    await assert.rejects(createUser(t.db, { email: 'MIXED@example.com', name: 'Dup' }), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'CONFLICT');
      assert.equal(e.status, 409);
      return true;
    });
    await assert.rejects(createUser(t.db, { email: 'short@example.com', name: 'S', password: 'short' }), code('INVALID_ARGS'));
    await assert.rejects(createUser(t.db, { email: 'noname@example.com', name: '  ' }), code('INVALID_ARGS'));
    assert.equal((await requireUserByEmail(t.db, 'MIXED@EXAMPLE.COM')).id, u.id);
    await assert.rejects(requireUserByEmail(t.db, 'none@example.com'), code('NOT_FOUND'));
  });

  test('plan and status changes', async () => {
    const u = await createUser(t.db, { email: 'status@example.com', name: 'St' });
    assert.equal((await setUserPlan(t.db, u.id, 'enterprise')).plan, 'enterprise');
    assert.equal((await suspendUser(t.db, u.id)).status, 'suspended');
    assert.equal((await unverifyUser(t.db, u.id)).status, 'unverified');
    assert.equal((await activateUser(t.db, u.id)).status, 'active');
    await assert.rejects(suspendUser(t.db, newId()), code('NOT_FOUND'));
  });

  test('organizations: owner membership, one organization per user, add member / change role', async () => {
    const owner = await createUser(t.db, { email: 'o@example.com', name: 'O' });
    const m = await createUser(t.db, { email: 'm@example.com', name: 'M' });
    const { org, membership } = await createOrganization(t.db, { name: 'Acme', plan: 'enterprise', ownerUserId: owner.id });
    assert.equal(membership.role, 'Owner');
    assert.equal(org.created_by, owner.id);
    await assert.rejects(createOrganization(t.db, { name: 'Second', plan: 'free', ownerUserId: owner.id }), code('CONFLICT'));
    assert.equal((await resolveOrganization(t.db, 'Second').catch((e) => e)).code, 'NOT_FOUND', 'failed creation rolled back');

    assert.equal((await addMember(t.db, { orgId: org.id, userId: m.id, role: 'Access-only' })).role, 'Access-only');
    assert.equal((await addMember(t.db, { orgId: org.id, userId: m.id, role: 'Admin' })).role, 'Admin');
    assert.equal((await getMembershipOfUser(t.db, m.id))?.role, 'Admin');
    const other = await createUser(t.db, { email: 'x@example.com', name: 'X' });
    const { org: org2 } = await createOrganization(t.db, { name: 'Acme', plan: 'free', ownerUserId: other.id });
    await assert.rejects(addMember(t.db, { orgId: org2.id, userId: m.id, role: 'Owner' }), code('CONFLICT'));
    await assert.rejects(addMember(t.db, { orgId: newId(), userId: m.id, role: 'Owner' }), code('NOT_FOUND'));

    assert.equal((await resolveOrganization(t.db, org.id)).id, org.id);
    await assert.rejects(resolveOrganization(t.db, 'Acme'), code('INVALID_ARGS'), 'two organizations named Acme');
    assert.ok(await getUserById(t.db, owner.id));
  });
});
