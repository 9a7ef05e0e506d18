// Survey e-mail (docs/api/people-and-surveys.md, "E-mail") through a real SMTP server in-process
// (smtp-server): launch sends one message per respondent with their own link; a reminder run sends only to
// those who have not submitted; killing the worker (SIGKILL) in the middle of a run and starting another
// sends nobody a step twice. The sending is scheduled on the job queue (domain/surveys/mailer.ts): on
// SQLite its table queue, on PostgreSQL BullMQ on Redis (REDIS_URL, a key prefix of its own).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createOrganization, createUser } from '../src/domain/identity/users.ts';
import { createToken } from '../src/domain/identity/credentials/tokens.ts';
import { openTestDatabase, TEST_DIALECTS, type TestDatabase } from './helpers/db.ts';
import { smtpCapture } from './helpers/smtp.ts';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const QUESTIONS = [{ id: 'advice', type: 'relationship', text: 'Who do you go to for advice?' }];
const REDIS = process.env.NETLOOM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

for (const dialect of TEST_DIALECTS) {
  describe(`survey e-mail (${dialect})`, () => {
    let tdb: TestDatabase;
    let token: string;
    before(async () => {
      // SQLite: the table queue; PostgreSQL: with Redis, the BullMQ queue
      tdb = await openTestDatabase(dialect, dialect === 'postgres' ? { REDIS_URL: REDIS, NETLOOM_REDIS_PREFIX: `t${process.pid}${Date.now().toString(36)}:` } : {});
      const owner = await createUser(tdb.db, { email: `owner-${Date.now()}@example.com`, name: 'Owner', plan: 'enterprise', password: 'correct horse battery staple' });
      const org = await createOrganization(tdb.db, { name: 'Mail org', plan: 'enterprise', ownerUserId: owner.id });
      token = (await createToken(tdb.db, { userId: owner.id, orgId: null, scopes: null })).token;
      void org;
    });
    after(async () => {
      await tdb.close();
      // the BullMQ keys of this run (PostgreSQL runs use a prefix of their own)
      const prefix = tdb.env.NETLOOM_REDIS_PREFIX;
      if (prefix) {
        const redis = new Redis(REDIS);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
    });

    async function appWith(env: Record<string, string>, now?: () => number) {
      const app = await buildApp(loadConfig({ ...tdb.env, LOG_LEVEL: 'silent', ...env }), { database: tdb.handle, logger: false, now });
      await app.ready();
      const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
        app.inject({ method, url: `/api/v2${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
      return { app, call };
    }

    test('launch: one message per respondent with their own link; reminders only to those who have not submitted', async () => {
      const server = await smtpCapture();
      let clock = Date.now();
      const { app, call } = await appWith({ SMTP_URL: server.url, NETLOOM_SURVEY_SCHEDULER_MS: '100' }, () => clock);
      try {
        const people = Array.from({ length: 6 }, (_, i) => ({ employeeId: `L${i + 1}`, name: `Lena ${i + 1}`, ...(i < 5 ? { email: `l${i + 1}@example.com` } : {}) }));
        await call('PUT', '/employees', { employees: people });
        const s = (await call('POST', '/surveys', { name: 'Mail', questions: QUESTIONS, respondents: { employeeIds: people.map((p) => p.employeeId) }, schedule: { reminders: { everyDays: 1, max: 2 } }, email: { launch: { subject: 'Please answer', body: 'Hi {{name}}: {{link}}' } } })).json();
        assert.equal(s.email.enabled, true);
        assert.equal((await call('PUT', `/surveys/${s._id}`, { status: 'collecting' })).statusCode, 200);
        await until('5 launch messages', () => server.received.length >= 5);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(server.received.length, 5, 'the person without an e-mail address gets none; nobody gets two');
        const links = new Map(((await call('GET', `/surveys/${s._id}/links`)).json().links as { employeeId: string; email: string | null; link: string; name: string }[]).map((l) => [l.email, l]));
        for (const m of server.received) {
          const l = links.get(m.to)!;
          assert.equal(m.subject, 'Please answer');
          assert.ok(m.body.includes(`Hi ${l.name}: ${l.link}`), `${m.to} got ${m.body}`);
        }
        // two people submit, one has started
        await call('PUT', `/surveys/${s._id}/responses/L1`, { answers: { advice: [{ employeeId: 'L2' }] }, submit: true });
        await call('PUT', `/surveys/${s._id}/responses/L2`, { answers: { advice: [] }, submit: true });
        await call('PUT', `/surveys/${s._id}/responses/L3`, { answers: { advice: [{ employeeId: 'L1' }] } });
        clock = Date.now() + 86_400_000 + 5000;
        await until('3 reminders', () => server.received.length >= 8);
        await new Promise((r) => setTimeout(r, 300));
        const reminders = server.received.slice(5);
        assert.deepEqual(reminders.map((m) => m.to).sort(), ['l3@example.com', 'l4@example.com', 'l5@example.com']);
        assert.ok(reminders.every((m) => m.subject === 'Reminder: your input is requested'));
        const deliveries = (await call('GET', `/surveys/${s._id}/deliveries`)).json();
        assert.equal(deliveries.enabled, true);
        assert.equal(deliveries.deliveries.filter((d: { status: string }) => d.status === 'sent').length, 8);
        const tr = (await call('GET', `/surveys/${s._id}/tracking`)).json();
        assert.deepEqual(tr.email, { enabled: true, launch: { sent: 5, failed: 0 }, reminders: { sent: 3, failed: 0, rounds: 1 } });
        // a third day with the same survey: reminder 2, still not to those who submitted
        clock = Date.now() + 2 * 86_400_000 + 5000;
        await until('reminder 2', () => server.received.length >= 11);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(server.received.length, 11);
        await call('PUT', `/surveys/${s._id}`, { status: 'completed' });
      } finally {
        await app.close();
        await server.close();
      }
    });

    test('killing the worker in the middle of a reminder run and starting another sends nobody a step twice', async () => {
      const server = await smtpCapture({ delayMs: 60 });
      const { app, call } = await appWith({});
      const workers: ChildProcess[] = [];
      try {
        const people = Array.from({ length: 30 }, (_, i) => ({ employeeId: `K${i + 1}`, name: `Kim ${i + 1}`, email: `k${i + 1}@example.com` }));
        await call('PUT', '/employees', { employees: people });
        const s = (await call('POST', '/surveys', { name: 'Kill', questions: QUESTIONS, respondents: { employeeIds: people.map((p) => p.employeeId) }, schedule: { reminders: { everyDays: 1, max: 1 } } })).json();
        assert.equal((await call('PUT', `/surveys/${s._id}`, { status: 'collecting' })).statusCode, 200);
        for (const eid of ['K1', 'K2', 'K3', 'K4', 'K5']) await call('PUT', `/surveys/${s._id}/responses/${eid}`, { answers: { advice: [] }, submit: true });
        // launched two days ago: the launch message and reminder 1 are both due when the worker starts
        await sql`update surveys set launched_at = ${new Date(Date.now() - 2 * 86_400_000).toISOString()} where id = ${s._id}`.execute(tdb.db);
        const env = { ...process.env, ...tdb.env, SMTP_URL: server.url, NETLOOM_SURVEY_SCHEDULER_MS: '200', NETLOOM_SURVEY_MAIL_LEASE_MS: '3000', LOG_LEVEL: 'info', NETLOOM_WORKERS: '0' };
        const start = () => {
          const w = spawn(process.execPath, [main, 'worker', '--threads', '1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
          w.stdout?.on('data', (d: Buffer) => (logs += d.toString()));
          w.stderr?.resume();
          workers.push(w);
          return w;
        };
        let logs = '';
        const first = start();
        await until('the first worker to send a few reminders', () => server.received.filter((m) => m.subject.startsWith('Reminder')).length >= 3, 90_000);
        if (dialect === 'sqlite') {
          // the table queue: the reminder run is a task row the first worker holds with a lease
          const held = await tdb.db.selectFrom('survey_mail_tasks').selectAll().where('survey_id', '=', s._id).execute();
          assert.ok(held.some((r) => r.step === 'reminder-1' && r.worker_id !== null && Number(r.lease_until) > Date.now()), JSON.stringify(held));
        }
        first.kill('SIGKILL');
        await new Promise((r) => first.once('exit', r));
        const atKill = server.received.length;
        const second = start();
        // 30 launch messages + 25 reminders, less at most the one the killed worker had claimed
        await until('the second worker to finish', () => server.received.length >= 54, 90_000);
        await new Promise((r) => setTimeout(r, 1500));
        second.kill('SIGTERM');
        await new Promise((r) => second.once('exit', r));
        assert.match(logs, dialect === 'postgres' ? /"mailQueue":"redis"/ : /"mailQueue":"table"/, 'the workers took the e-mail tasks from the job queue');
        if (dialect === 'sqlite') assert.deepEqual(await tdb.db.selectFrom('survey_mail_tasks').selectAll().where('survey_id', '=', s._id).execute(), [], 'the finished tasks left the queue');
        const seen = new Set<string>();
        for (const m of server.received) {
          const key = `${m.to} ${m.subject}`;
          assert.ok(!seen.has(key), `${key} arrived twice`);
          seen.add(key);
        }
        const reminded = server.received.filter((m) => m.subject.startsWith('Reminder')).map((m) => m.to);
        for (const eid of ['k1@', 'k2@', 'k3@', 'k4@', 'k5@']) assert.ok(!reminded.some((to) => to.startsWith(eid)), `${eid} submitted and was reminded`);
        assert.ok(atKill < 55, 'the kill came in the middle of the run');
        const rows = (await call('GET', `/surveys/${s._id}/deliveries`)).json().deliveries as { status: string }[];
        assert.equal(rows.length, 55, 'every message has its delivery row');
        assert.ok(rows.filter((r) => r.status === 'claimed').length <= 1, 'at most the message in flight at the kill is left claimed');
        assert.equal(rows.filter((r) => r.status === 'sent').length + rows.filter((r) => r.status === 'claimed').length, 55);
      } finally {
        for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
        await app.close();
        await server.close();
      }
    });
  });
}

test('without SMTP_URL the API says e-mail is off', async () => {
  const tdb = await openTestDatabase('sqlite');
  try {
    const owner = await createUser(tdb.db, { email: 'o@example.com', name: 'O', plan: 'enterprise', password: 'correct horse battery staple' });
    const tk = (await createToken(tdb.db, { userId: owner.id, orgId: null, scopes: null })).token;
    const app = await buildApp(loadConfig({ ...tdb.env, LOG_LEVEL: 'silent' }), { database: tdb.handle, logger: false });
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => app.inject({ method, url: `/api/v2${url}`, headers: { authorization: `Bearer ${tk}` }, ...(payload ? { payload: payload as object } : {}) });
    await call('PUT', '/employees', { employees: [{ employeeId: 'A', name: 'A', email: 'a@example.com' }, { employeeId: 'B', name: 'B' }] });
    const s = (await call('POST', '/surveys', { name: 'x', questions: QUESTIONS })).json();
    assert.equal(s.email.enabled, false);
    await call('PUT', `/surveys/${s._id}`, { status: 'collecting' });
    assert.equal((await call('GET', `/surveys/${s._id}/deliveries`)).json().enabled, false);
    assert.equal((await call('GET', `/surveys/${s._id}/tracking`)).json().email.enabled, false);
    await app.close();
  } finally {
    await tdb.close();
  }
});

for (const dialect of TEST_DIALECTS) {
  test(`forgot password and invitations are e-mailed; the same answer for unknown addresses; throttled like sign-in (${dialect})`, async () => {
    const tdb = await openTestDatabase(dialect);
    const server = await smtpCapture();
    const config = loadConfig({ ...tdb.env, LOG_LEVEL: 'silent', SMTP_URL: server.url });
    const app = await buildApp(config, { database: tdb.handle, logger: false });
    await app.ready();
    try {
      const origin = { origin: config.publicUrl };
      const owner = await createUser(tdb.db, { email: 'boss@example.com', name: 'Boss', plan: 'enterprise', password: 'correct horse battery staple' });
      await createOrganization(tdb.db, { name: 'Acme', plan: 'enterprise', ownerUserId: owner.id });
      assert.deepEqual((await app.inject({ method: 'GET', url: '/app/api/password-reset' })).json(), { enabled: true });
      const known = await app.inject({ method: 'POST', url: '/app/api/password-reset', headers: origin, payload: { email: 'Boss@example.com' } });
      const unknown = await app.inject({ method: 'POST', url: '/app/api/password-reset', headers: origin, payload: { email: 'nobody@example.com' } });
      assert.equal(known.statusCode, 202);
      assert.equal(unknown.statusCode, 202);
      assert.equal(known.body, unknown.body, 'the same answer whether or not the address has an account');
      await until('the reset message', () => server.received.length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(server.received.map((m) => m.to), ['boss@example.com'], 'nothing is sent to an address without an account');
      const token = /\/link\/(nlk_[A-Za-z0-9_-]{43})/.exec(server.received[0].body)?.[1];
      assert.ok(token, server.received[0].body);
      const info = await app.inject({ method: 'GET', url: `/app/api/links/${token}` });
      assert.equal(info.json().kind, 'reset');
      let limited = false;
      for (let i = 0; i < 15 && !limited; i++) limited = (await app.inject({ method: 'POST', url: '/app/api/password-reset', headers: origin, payload: { email: 'nobody@example.com' } })).statusCode === 429;
      assert.ok(limited, 'requests for one address are throttled like sign-in');

      const signIn = await app.inject({ method: 'POST', url: '/app/api/session', headers: { ...origin, 'x-forwarded-for': '1.2.3.4' }, remoteAddress: '10.1.1.1', payload: { email: 'boss@example.com', password: 'correct horse battery staple' } });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const cookie = /nl_session=([^;]*)/.exec(String(signIn.headers['set-cookie']))![1];
      const inv = await app.inject({ method: 'POST', url: '/app/api/organization/invitations', remoteAddress: '10.1.1.1', headers: { ...origin, cookie: `nl_session=${cookie}`, 'x-csrf-token': signIn.json().csrfToken }, payload: { email: 'new@example.com', role: 'Standard User' } });
      assert.equal(inv.statusCode, 201, inv.body);
      await until('the invitation', () => server.received.some((m) => m.to === 'new@example.com'));
      const m = server.received.find((x) => x.to === 'new@example.com')!;
      assert.match(m.subject, /Acme/);
      assert.ok(m.body.includes(inv.json().url), 'the invitation carries the link');
    } finally {
      await app.close();
      await server.close();
      await tdb.close();
    }
  });
}
