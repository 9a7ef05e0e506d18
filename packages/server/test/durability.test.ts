/**
 * Durability (SQLite, WAL + synchronous=NORMAL): a child process writes in a loop and acknowledges each
 * committed write on stdout; it is SIGKILLed mid-burst; every acknowledged write must then be readable
 * and the database must pass `PRAGMA integrity_check`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { newId } from '../src/domain/ids.ts';
import { openDatabase } from '../src/store/db.ts';
import { getNetwork, getNetworkJSONText } from '../src/store/networks.ts';
import { getUserById, insertUser } from '../src/store/users.ts';
import { openTestDatabase } from './helpers/db.ts';

const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'durable-writer.ts');

for (const round of [1, 2]) {
  test(`no acknowledged write is lost on SIGKILL (round ${round})`, async () => {
    const t = await openTestDatabase('sqlite');
    const owner = await insertUser(t.db, { id: newId(), email: 'owner@example.com', name: 'Owner', password_hash: null, plan: 'enterprise', status: 'active', kind: 'regular' });
    // Keep our own connection open (as a running server would) while the child writes.
    const acked: string[] = [];
    const renamed: string[] = [];
    const users: string[] = [];
    const child = spawn(process.execPath, [WRITER], { env: { ...process.env, ...t.env, OWNER_ID: owner.id }, stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    const target = 150 + Math.floor(Math.random() * 200);
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const [kind, id] = buf.slice(0, nl).split(' ');
          buf = buf.slice(nl + 1);
          (kind === 'ack' ? acked : kind === 'renamed' ? renamed : users).push(id);
        }
        if (acked.length >= target && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
        }
      });
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited without SIGKILL (${signal})`))));
      child.on('error', reject);
    });
    await t.handle.close();

    const reopened = await openDatabase(t.config);
    try {
      const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(reopened.db);
      assert.equal(check.rows[0].integrity_check, 'ok');
      assert.ok(acked.length >= target);
      for (const id of acked) {
        const n = await getNetwork(reopened.db, id);
        assert.ok(n, `acknowledged network ${id} is present`);
        assert.equal(JSON.parse((await getNetworkJSONText(reopened.db, id))!).nodes.length, 50);
      }
      for (const id of renamed) assert.match((await getNetwork(reopened.db, id))!.name, /-renamed$/);
      for (const id of users) assert.ok(await getUserById(reopened.db, id));
    } finally {
      await reopened.close();
      await t.close();
    }
  });
}
