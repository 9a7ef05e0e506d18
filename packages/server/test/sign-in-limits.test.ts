// Issue 19 findings 3 and 11 (docs/security.md "Sign-in"): attempt counters are reserved atomically
// before a password, TOTP code or recovery code is verified, so concurrent guesses cannot overtake the
// limit; the lock is keyed by (account, address), so a stranger cannot lock the owner out; guessing from
// many addresses is slowed per account except from addresses the account signed in from; scrypt work
// goes through a small bounded queue. Real HTTP (the service listening on a port, requests sent in
// parallel with Promise.all over fetch) behind a trusted proxy (X-Forwarded-For), on SQLite, PostgreSQL
// and PostgreSQL with the counters in Redis.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { testApp, type TestApp } from './helpers/app.ts';
import { PASSWORD } from './helpers/web.ts';
import { REDIS_URL, deleteRedisKeys, redisTestPrefix, storageModes } from './helpers/redis.ts';
import { enableMfa, setupMfa } from '../src/domain/identity/mfa.ts';
import { passwordQueue } from '../src/domain/identity/password-queue.ts';

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}

for (const mode of await storageModes()) {
  describe(`sign-in limits under concurrency (${mode.name})`, { skip: mode.skip }, () => {
    const prefix = redisTestPrefix();
    let t: TestApp;
    let base: string;
    let clock = Date.parse('2026-11-27T10:00:00Z');
    before(async () => {
      t = await testApp(
        mode.dialect,
        { NETLOOM_TRUSTED_PROXIES: '127.0.0.1', NETLOOM_WEB_SIGNIN_ACCOUNT_SLOWDOWN_AFTER: '30', ...(mode.redis ? { REDIS_URL, NETLOOM_REDIS_PREFIX: prefix } : {}) },
        { now: () => clock },
      );
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await t.close();
      if (mode.redis) await deleteRedisKeys(prefix);
    });

    async function signIn(from: string, body: Record<string, string>): Promise<Answer> {
      const started = performance.now();
      const res = await fetch(`${base}/app/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: t.config.publicUrl, 'x-forwarded-for': from },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code?: string };
      return { status: res.status, code: json.code, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
    }

    const tally = (answers: Answer[]) => {
      const out: Record<string, number> = {};
      for (const a of answers) out[`${a.status}${a.code ? ` ${a.code}` : ''}`] = (out[`${a.status}${a.code ? ` ${a.code}` : ''}`] ?? 0) + 1;
      return out;
    };

    /** A user with MFA on; returns its secret and a code for the clock's next time step. */
    async function mfaUser(): Promise<{ email: string; code: () => string; valid: () => Set<string>; recovery: string[] }> {
      const u = await t.user();
      const { secret } = await setupMfa(t.database.db, u, clock);
      const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
      const { recoveryCodes } = await enableMfa(t.database.db, u.id, totp.generate({ timestamp: clock }), clock);
      clock += 30_000; // the enrolment code's step is used; the sign-in code is the next one
      return {
        email: u.email,
        code: () => totp.generate({ timestamp: clock }),
        valid: () => new Set([-30_000, 0, 30_000].map((d) => totp.generate({ timestamp: clock + d }))),
        recovery: recoveryCodes,
      };
    }

    test('100 concurrent wrong passwords for one account from one address: 10 evaluated, 90 × 429; the owner signs in from another address with password and TOTP', async () => {
      const owner = await mfaUser();
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn('203.0.113.9', { email: owner.email, password: `wrong guess ${i}` })));
      const counts = tally(answers);
      assert.deepEqual(counts, { '401 INVALID_CREDENTIALS': 10, '429 RATE_LIMITED': 90 }, JSON.stringify(counts));
      assert.ok(answers.filter((a) => a.status === 429).every((a) => Number(a.retryAfter) > 0));
      // the same address is locked for this account — the right password too
      assert.equal((await signIn('203.0.113.9', { email: owner.email, password: PASSWORD, totp: owner.code() })).status, 429);
      // the owner, from elsewhere
      const mine = await signIn('198.51.100.7', { email: owner.email, password: PASSWORD, totp: owner.code() });
      assert.equal(mine.status, 200, JSON.stringify(mine));
    });

    test('200 concurrent wrong TOTP codes (right password) from one address: at most 10 evaluated; the owner still signs in', async () => {
      clock += t.config.web.signInWindowMs;
      const owner = await mfaUser();
      const valid = owner.valid();
      const wrongCodes: string[] = [];
      for (let n = 100_000; wrongCodes.length < 200; n += 7) if (!valid.has(String(n))) wrongCodes.push(String(n));
      const wrong = (i: number) => wrongCodes[i];
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn('203.0.113.10', { email: owner.email, password: PASSWORD, totp: wrong(i) })));
      const counts = tally(answers);
      assert.ok((counts['401 MFA_REQUIRED'] ?? 0) <= 10 && (counts['401 MFA_REQUIRED'] ?? 0) >= 1, JSON.stringify(counts));
      assert.equal((counts['401 MFA_REQUIRED'] ?? 0) + (counts['429 RATE_LIMITED'] ?? 0), 200, JSON.stringify(counts));
      const mine = await signIn('198.51.100.8', { email: owner.email, password: PASSWORD, totp: owner.code() });
      assert.equal(mine.status, 200, JSON.stringify(mine));
    });

    test('100 concurrent wrong recovery codes from one address: at most 10 evaluated; an unused recovery code then works from another address', async () => {
      clock += t.config.web.signInWindowMs;
      const owner = await mfaUser();
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn('203.0.113.11', { email: owner.email, password: PASSWORD, recoveryCode: `aaaaa-${String(i).padStart(5, 'b')}` })));
      const counts = tally(answers);
      assert.ok((counts['401 MFA_REQUIRED'] ?? 0) <= 10, JSON.stringify(counts));
      assert.equal((counts['401 MFA_REQUIRED'] ?? 0) + (counts['429 RATE_LIMITED'] ?? 0), 100, JSON.stringify(counts));
      const mine = await signIn('198.51.100.9', { email: owner.email, password: PASSWORD, recoveryCode: owner.recovery[0] });
      assert.equal(mine.status, 200, JSON.stringify(mine));
    });

    test('successful sign-ins never count: 11 in a row from one address all succeed', async () => {
      clock += t.config.web.signInWindowMs;
      const u = await t.user();
      for (let i = 0; i < 11; i++) assert.equal((await signIn('203.0.113.12', { email: u.email, password: PASSWORD })).status, 200, `sign-in ${i + 1}`);
    });

    test('guessing from many addresses slows the account down, but not for an address the owner signed in from; a new address waits one slot', async () => {
      clock += t.config.web.signInWindowMs;
      const u = await t.user();
      assert.equal((await signIn('198.51.100.20', { email: u.email, password: PASSWORD })).status, 200, 'the owner’s usual address');
      // 60 wrong passwords from 60 addresses at once: the first 30 are evaluated, then one per 3 s slot
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(`192.0.2.${i + 1}`, { email: u.email, password: `guess ${i}` })));
      const counts = tally(answers);
      assert.ok((counts['401 INVALID_CREDENTIALS'] ?? 0) <= 31, JSON.stringify(counts));
      assert.ok((counts['429 RATE_LIMITED'] ?? 0) >= 29, JSON.stringify(counts));
      // the owner's known address is not slowed
      assert.equal((await signIn('198.51.100.20', { email: u.email, password: PASSWORD })).status, 200);
      // a new address is told to wait for the next slot, then gets it
      clock += 1;
      const slotTaken = await signIn('198.51.100.21', { email: u.email, password: PASSWORD });
      if (slotTaken.status === 429) {
        assert.ok(Number(slotTaken.retryAfter) <= 3, JSON.stringify(slotTaken));
        // the slot is a lease: on the app's clock in the database, a real-time TTL in Redis
        clock += t.config.web.signInAccountSlowdownMs;
        if (mode.redis) await new Promise((r) => setTimeout(r, t.config.web.signInAccountSlowdownMs));
      }
      assert.equal((await signIn('198.51.100.21', { email: u.email, password: PASSWORD })).status, 200);
    });

    test('a burst of sign-ins to many accounts is bounded by the password queue: the excess is refused fast, nobody waits long', async () => {
      clock += t.config.web.signInWindowMs;
      const users = await Promise.all(Array.from({ length: 4 }, () => t.user()));
      const burst = Array.from({ length: 100 }, (_, i) => signIn(`10.${Math.floor(i / 40)}.0.${i % 40}`, { email: users[i % 4].email, password: `wrong ${i}` }));
      const someoneElse = (async () => {
        await new Promise((r) => setTimeout(r, 20));
        return signIn('198.51.100.30', { email: users[0].email, password: PASSWORD });
      })();
      const answers = await Promise.all(burst);
      const mine = await someoneElse;
      const counts = tally(answers);
      const busy = answers.filter((a) => a.status === 429);
      assert.ok(busy.length >= 50, `the queue (2 running + 16 waiting) refused the excess: ${JSON.stringify(counts)}`);
      assert.ok((counts['401 INVALID_CREDENTIALS'] ?? 0) >= 18, JSON.stringify(counts));
      // a refusal is immediate: no hash was waited for
      const refusedMs = busy.map((a) => a.ms).sort((a, b) => a - b);
      const evaluatedMs = answers.filter((a) => a.status === 401).map((a) => a.ms).sort((a, b) => a - b);
      assert.ok(refusedMs[Math.floor(refusedMs.length / 2)] < evaluatedMs[evaluatedMs.length - 1], `median refusal ${refusedMs[Math.floor(refusedMs.length / 2)]} ms vs slowest evaluation ${evaluatedMs[evaluatedMs.length - 1]} ms`);
      // the other person was either served or told at once to retry — never held for the whole burst
      assert.ok(mine.status === 200 || mine.status === 429, JSON.stringify(mine));
      if (mine.status === 429) assert.equal((await signIn('198.51.100.30', { email: users[0].email, password: PASSWORD })).status, 200);
    });
  });
}

describe('password queue', () => {
  test('runs at most `concurrency` at once, holds at most `queue`, refuses the rest at once with 429', async () => {
    const q = passwordQueue(2, 3);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const work = () =>
      q.run(
        () =>
          new Promise<void>((resolve) => {
            running++;
            peak = Math.max(peak, running);
            releases.push(() => {
              running--;
              resolve();
            });
          }),
      );
    const settled = Array.from({ length: 8 }, () => work().then(() => 'done', (e: { code?: string; headers?: Record<string, string> }) => `${e.code} ${e.headers?.['retry-after']}`));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(q.load, { running: 2, waiting: 3 });
    while (releases.length || q.load.running) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    const results = await Promise.all(settled);
    assert.deepEqual(results.sort(), ['RATE_LIMITED 1', 'RATE_LIMITED 1', 'RATE_LIMITED 1', 'done', 'done', 'done', 'done', 'done']);
    assert.equal(peak, 2);
    assert.deepEqual(q.load, { running: 0, waiting: 0 });
  });
});
