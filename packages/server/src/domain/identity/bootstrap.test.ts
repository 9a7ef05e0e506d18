import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openTestDatabase } from '../../../test/helpers/db.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import { getUserByEmail } from '../../store/users.ts';
import { bootstrapOwner, formatBanner } from './bootstrap.ts';
import { authenticateBearer } from './credentials/authenticate.ts';
import { FULL_ACCESS } from './credentials/scopes.ts';
import { createUser } from './users.ts';
import { verifyPassword } from './passwords.ts';

test('first start creates an enterprise owner with its organization, password and full-access token, once', async () => {
  const t = await openTestDatabase('sqlite');
  try {
    const r = await bootstrapOwner(t.db, t.config, { email: 'boss@example.com' });
    assert.ok(r);
    assert.equal(r.email, 'boss@example.com');
    const u = await getUserByEmail(t.db, 'boss@example.com');
    assert.equal(u?.plan, 'enterprise');
    assert.ok(await verifyPassword(r.password, u!.password_hash));
    const m = await getMembershipOfUser(t.db, u!.id);
    assert.equal(m?.role, 'Owner');
    assert.equal(m?.org_id, r.orgId);
    const p = await authenticateBearer(t.db, r.token);
    assert.equal(p?.userId, u!.id);
    assert.equal(p?.orgId, null, 'a user token');
    assert.deepEqual([...p!.scopes].sort(), [...FULL_ACCESS].sort());
    assert.equal(await bootstrapOwner(t.db, t.config), null, 'only once');
  } finally {
    await t.close();
  }
});

test('a database that already has users is not bootstrapped', async () => {
  const t = await openTestDatabase('sqlite');
  try {
    await createUser(t.db, { email: 'first@example.com', name: 'First' });
    assert.equal(await bootstrapOwner(t.db, t.config), null);
  } finally {
    await t.close();
  }
});

test('the first-run banner names the web app URL, e-mail, password, organization and token', async () => {
  const t = await openTestDatabase('sqlite');
  try {
    const r = await bootstrapOwner(t.db, t.config, { email: 'boss@example.com' });
    const text = formatBanner(r!, 'https://netloom.example.com');
    assert.match(text, /sign in at: +https:\/\/netloom\.example\.com\/\n/);
    assert.match(text, /e-mail: +boss@example\.com\n/);
    assert.ok(text.includes(r!.password) && text.includes(r!.token));
    assert.match(text, /organization: +Owner's organization\n/);
    assert.equal(r!.orgName, "Owner's organization");
  } finally {
    await t.close();
  }
});
