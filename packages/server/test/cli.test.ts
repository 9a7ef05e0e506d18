/**
 * The real CLI (bin/netloom.js → src/cli/main.ts) against a temp data dir: JSON on stdout, JSON errors
 * on stderr with exit code 1, and usable while another process has the database open and writing.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { authenticateBasic, authenticateBearer } from '../src/domain/identity/credentials/authenticate.ts';
import { insertNetwork } from '../src/store/networks.ts';
import { getNetwork } from '../src/store/networks.ts';
import { setMeta } from '../src/store/meta.ts';
import { newId } from '../src/domain/ids.ts';
import { openTestDatabase, testDialects } from './helpers/db.ts';
import { fixture } from './helpers/fixture.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'netloom.js');

interface Result {
  code: number;
  out: unknown;
  err: { error: { code: string; detail: string } } | null;
}

function cli(env: Record<string, string>, args: string[], node = process.execPath): Promise<Result> {
  return new Promise((resolve) => {
    execFile(node, [BIN, ...args], { env: { ...process.env, ...env, NETLOOM_DB_SCHEMA: env.NETLOOM_DB_SCHEMA ?? '', DATABASE_URL: env.DATABASE_URL ?? '' } }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, out: stdout ? JSON.parse(stdout) : null, err: stderr ? JSON.parse(stderr) : null });
    });
  });
}

for (const { dialect, skip } of await testDialects()) {
  describe(`netloom CLI (${dialect})`, { skip }, () => {
    const t = fixture(() => openTestDatabase(dialect));

    test('users, orgs, tokens, keys, revoke, migrate, handpick', async () => {
      const u = await cli(t.env, ['users', 'create', '--email', 'Ann@Example.com', '--name', 'Ann', '--plan', 'pro', '--password', 'long enough']);
      assert.equal(u.code, 0, JSON.stringify(u.err));
      const user = u.out as { _id: string; email: string; plan: string };
      assert.match(user._id, /^[0-9a-f]{24}$/);
      assert.equal(user.email, 'ann@example.com');
      assert.equal(user.plan, 'pro');
      assert.ok(!JSON.stringify(u.out).includes('scrypt'), 'no password hash printed');

      const o = await cli(t.env, ['orgs', 'create', '--name', 'Acme Corp', '--plan', 'enterprise', '--owner', 'ann@example.com']);
      assert.equal(o.code, 0, JSON.stringify(o.err));
      const org = o.out as { _id: string; name: string; owner: { role: string } };
      assert.equal(org.name, 'Acme Corp');
      assert.equal(org.owner.role, 'Owner');

      assert.equal((await cli(t.env, ['users', 'create', '--email', 'bob@example.com', '--name', 'Bob'])).code, 0);
      const am = await cli(t.env, ['orgs', 'add-member', '--org', 'Acme Corp', '--email', 'bob@example.com', '--role', 'Simplified Access-only']);
      assert.equal(am.code, 0, JSON.stringify(am.err));
      assert.equal((am.out as { role: string }).role, 'Simplified Access-only');
      const am2 = await cli(t.env, ['orgs', 'add-member', '--org', org._id, '--email', 'bob@example.com', '--role', 'Admin']);
      assert.equal((am2.out as { role: string }).role, 'Admin');

      // The operator never needs SQL to learn an organization's name or id (issue 11, CLI parity).
      const ls = await cli(t.env, ['orgs', 'list']);
      assert.equal(ls.code, 0, JSON.stringify(ls.err));
      const orgList = ls.out as { _id: string; name: string; plan: string; memberCount: number; embedding: { enabled: boolean; seats: number } }[];
      const acme = orgList.find((x) => x._id === org._id);
      assert.deepEqual(
        acme && { name: acme.name, plan: acme.plan, memberCount: acme.memberCount, enabled: acme.embedding.enabled },
        { name: 'Acme Corp', plan: 'enterprise', memberCount: 2, enabled: false },
      );
      const sh = await cli(t.env, ['orgs', 'show', 'Acme Corp']);
      assert.equal(sh.code, 0, JSON.stringify(sh.err));
      const shown = sh.out as { _id: string; memberCount: number; networkCounts: { public: number; private: number }; members: { email: string; role: string }[]; embedding: { enabled: boolean }; chat: { aiChat: boolean } };
      assert.equal(shown._id, org._id);
      assert.deepEqual(shown.members.map((m) => [m.email, m.role]), [['ann@example.com', 'Owner'], ['bob@example.com', 'Admin']]);
      assert.deepEqual(shown.networkCounts, { public: 0, private: 0 });
      assert.equal(shown.chat.aiChat, true);
      assert.equal((await cli(t.env, ['orgs', 'show', 'No Such Org'])).err?.error.code, 'NOT_FOUND');

      const tk = await cli(t.env, ['tokens', 'create', '--email', 'ann@example.com']);
      assert.equal(tk.code, 0, JSON.stringify(tk.err));
      const token = tk.out as { token: string; _id: string; scopes: string[]; orgId: string | null };
      assert.match(token.token, /^nl_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
      assert.equal(token.scopes.length, 13, 'full access by default');
      assert.equal(token.orgId, null);
      assert.equal((await authenticateBearer(t.db, token.token))?.credentialId, token._id);

      const otk = await cli(t.env, ['tokens', 'create', '--email', 'ann@example.com', '--org', 'Acme Corp', '--scopes', 'networks:read,embed:manage', '--name', 'embed']);
      assert.equal(otk.code, 0, JSON.stringify(otk.err));
      const orgToken = otk.out as { token: string; scopes: string[]; orgId: string };
      assert.deepEqual(orgToken.scopes, ['networks:read', 'embed:manage']);
      assert.equal(orgToken.orgId, org._id);
      assert.equal((await authenticateBearer(t.db, orgToken.token))?.orgId, org._id);

      const k = await cli(t.env, ['keys', 'create', '--email', 'ann@example.com', '--scopes', 'networks:read,networks:write']);
      assert.equal(k.code, 0, JSON.stringify(k.err));
      const keys = k.out as { publicKey: string; privateKey: string; _id: string };
      assert.match(keys.publicKey, /^pk_/);
      assert.match(keys.privateKey, /^sk_/);
      assert.ok(await authenticateBasic(t.db, keys.publicKey, keys.privateKey));

      const l = await cli(t.env, ['tokens', 'list', '--email', 'ann@example.com']);
      const listed = l.out as { _id: string; kind: string }[];
      assert.equal(listed.length, 3);
      assert.ok(!JSON.stringify(listed).includes(token.token) && !JSON.stringify(listed).includes(keys.privateKey));

      const r = await cli(t.env, ['tokens', 'revoke', '--id', token._id]);
      assert.equal(r.code, 0);
      assert.ok((r.out as { revokedAt: string }).revokedAt);
      assert.equal(await authenticateBearer(t.db, token.token), null, 'revoked for the running process at once');
      assert.equal((await cli(t.env, ['tokens', 'list', '--email', 'ann@example.com'])).out instanceof Array, true);

      assert.equal(((await cli(t.env, ['users', 'set-plan', '--email', 'ann@example.com', '--plan', 'partner'])).out as { plan: string }).plan, 'partner');
      const suspended = await cli(t.env, ['users', 'suspend', '--email', 'bob@example.com']);
      assert.equal(suspended.code, 0, JSON.stringify(suspended.err));
      assert.equal((suspended.out as { status: string }).status, 'suspended');

      const m = await cli(t.env, ['migrate']);
      assert.equal(m.code, 0);
      assert.deepEqual((m.out as { applied: string[] }).applied, []);

      const netId = newId();
      await insertNetwork(t.db, {
        id: netId, owner_id: user._id, name: 'Pub', description: '', is_directed: 1, status: 'Public', file_type: 'JSON',
        original_file_type: 'JSON', network_uuid: newId(), max_views: 5, node_count: 0, edge_count: 0, json: '{"nodes":[]}',
      });
      const h = await cli(t.env, ['networks', 'handpick', '--id', netId]);
      assert.equal(h.code, 0, JSON.stringify(h.err));
      assert.equal((await getNetwork(t.db, netId))?.handpicked, 1);
      await cli(t.env, ['networks', 'handpick', '--id', netId, '--off']);
      assert.equal((await getNetwork(t.db, netId))?.handpicked, 0);
    });

    test('errors are JSON on stderr with exit code 1', async () => {
      const cases: [string[], string][] = [
        // (run in parallel after dup@example.com exists)
        [['users', 'create', '--email', 'dup@example.com', '--name', 'D'], 'CONFLICT'],
        [['users', 'create', '--email', 'not-an-email', '--name', 'D'], 'INVALID_ARGS'],
        [['users', 'create', '--email', 'x@example.com'], 'INVALID_ARGS'],
        [['users', 'create', '--email', 'y@example.com', '--name', 'Y', '--plan', 'gold'], 'INVALID_ARGS'],
        [['tokens', 'create', '--email', 'nobody@example.com'], 'NOT_FOUND'],
        [['tokens', 'create', '--email', 'dup@example.com', '--scopes', 'networks:read,nope'], 'INVALID_ARGS'],
        [['orgs', 'add-member', '--org', 'No Such Org', '--email', 'dup@example.com', '--role', 'Admin'], 'NOT_FOUND'],
        [['tokens', 'revoke', '--id', '0'.repeat(24)], 'NOT_FOUND'],
        [['frobnicate'], 'INVALID_ARGS'],
      ];
      const first = await cli(t.env, ['users', 'create', '--email', 'dup@example.com', '--name', 'D']);
      assert.equal(first.code, 0, JSON.stringify(first.err));
      const results = await Promise.all(cases.map(([args]) => cli(t.env, args)));
      for (const [i, [args, expected]] of cases.entries()) {
        const r = results[i];
        assert.equal(r.code, 1, args.join(' '));
        assert.equal(r.out, null);
        assert.equal(r.err?.error.code, expected, `${args.join(' ')}: ${JSON.stringify(r.err)}`);
        assert.ok(r.err?.error.detail);
      }
    });

    test('works while another process keeps the database open and writing', async () => {
      let stop = false;
      let writes = 0;
      const writer = (async () => {
        while (!stop) {
          await setMeta(t.db, `busy-${writes % 10}`, String(writes++));
          await new Promise((r) => setImmediate(r));
        }
      })();
      try {
        const results = await Promise.all(
          Array.from({ length: 4 }, (_, i) => cli(t.env, ['users', 'create', '--email', `concurrent${i}@example.com`, '--name', `C${i}`])),
        );
        for (const r of results) assert.equal(r.code, 0, JSON.stringify(r.err));
      } finally {
        stop = true;
        await writer;
      }
      assert.ok(writes > 0);
    });
  });
}

/** The launcher re-executes itself on Node 24 when the shell's node is older. */
function olderNode(): string | null {
  for (const p of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(p)) continue;
    try {
      const v = execFileSync(p, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(v.slice(1).split('.')[0]) < 24) return p;
    } catch {
      /* not runnable */
    }
  }
  return null;
}
const old = olderNode();
test('bin/netloom.js runs on an older node by re-executing with Node 24', { skip: old ? false : 'no node < 24 on this machine' }, async () => {
  const t = await openTestDatabase('sqlite');
  try {
    const r = await cli(t.env, ['users', 'create', '--email', 'old@example.com', '--name', 'Old'], old!);
    assert.equal(r.code, 0, JSON.stringify(r.err));
    assert.equal((r.out as { email: string }).email, 'old@example.com');
    const e = await cli(t.env, ['users', 'create', '--email', 'old@example.com', '--name', 'Old'], old!);
    assert.equal(e.code, 1);
    assert.equal(e.err?.error.code, 'CONFLICT');
  } finally {
    await t.close();
  }
});
