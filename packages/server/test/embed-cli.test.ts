// netloom embedding enable | disable | show | settings | limits through the real CLI binary.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openTestDatabase, testDialects, type TestDatabase } from './helpers/db.ts';
import { createOrganization, createUser } from '../src/domain/identity/users.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'netloom.js');

function cli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: any; err: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, NETLOOM_DB_SCHEMA: env.NETLOOM_DB_SCHEMA ?? '', DATABASE_URL: env.DATABASE_URL ?? '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, out: stdout ? JSON.parse(stdout) : null, err: stderr ? JSON.parse(stderr) : null });
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`netloom embedding CLI (${dialect})`, { skip }, () => {
    let t: TestDatabase;
    let orgId: string;
    before(async () => {
      t = await openTestDatabase(dialect);
      const u = await createUser(t.db, { email: 'cli-owner@example.com', name: 'Owner', plan: 'enterprise' });
      orgId = (await createOrganization(t.db, { name: 'CLI Org', plan: 'enterprise', ownerUserId: u.id })).org.id;
    });
    after(async () => t?.close());

    test('enable with seats, settings, limits, show, disable; organization tokens carry embed:manage', async () => {
      const en = await cli(t.env, ['embedding', 'enable', '--org', 'CLI Org', '--seats', '3']);
      assert.equal(en.code, 0, JSON.stringify(en.err));
      assert.equal(en.out.orgId, orgId);
      assert.equal(en.out.enabled, true);
      assert.equal(en.out.seats, 3);
      const st = await cli(t.env, ['embedding', 'settings', '--org', orgId, '--origins', 'https://a.example.com,https://B.example.com:443', '--accept-data-disclosure', '--all-owned-networks', 'off', '--networks', '']);
      assert.equal(st.code, 0, JSON.stringify(st.err));
      assert.deepEqual(st.out.allowedOrigins, ['https://a.example.com', 'https://b.example.com']);
      assert.equal(st.out.dataDisclosureAccepted, true);
      assert.equal(st.out.allOwnedNetworks, false);
      const bad = await cli(t.env, ['embedding', 'settings', '--org', orgId, '--origins', 'https://*.example.com']);
      assert.equal(bad.code, 1);
      assert.equal(bad.err.error.code, 'INVALID_ARGS');
      assert.match(bad.err.error.detail, /wildcard/);
      const lim = await cli(t.env, ['embedding', 'limits', '--org', orgId, '--metrics', '10', '--redemptions', '5']);
      assert.equal(lim.code, 0, JSON.stringify(lim.err));
      assert.equal(lim.out.limits.metricsPerHour, 10);
      assert.equal(lim.out.limits.redemptionsPerSessionPerHour, 5);
      assert.equal(lim.out.limits.provisioningPerHour, 600);
      const reset = await cli(t.env, ['embedding', 'limits', '--org', orgId, '--reset']);
      assert.equal(reset.out.limits.metricsPerHour, 3000);
      const dis = await cli(t.env, ['embedding', 'disable', '--org', orgId]);
      assert.equal(dis.code, 0);
      assert.equal(dis.out.enabled, false);
      const show = await cli(t.env, ['embedding', 'show', '--org', orgId]);
      assert.equal(show.out.enabled, false);
      assert.equal(show.out.seats, 3);
      const tok = await cli(t.env, ['tokens', 'create', '--email', 'cli-owner@example.com', '--org', orgId]);
      assert.equal(tok.code, 0, JSON.stringify(tok.err));
      assert.ok(tok.out.scopes.includes('embed:manage'));
      const audit = await t.db.selectFrom('embed_audit').select(['action', 'actor_kind']).where('org_id', '=', orgId).execute();
      assert.ok(audit.some((a) => a.action === 'embedding.enable' && a.actor_kind === 'cli'));
      assert.ok(audit.some((a) => a.action === 'embedding.disable'));
      const unknown = await cli(t.env, ['embedding', 'enable', '--org', 'No Such Org']);
      assert.equal(unknown.err.error.code, 'NOT_FOUND');
    });
  });
}
