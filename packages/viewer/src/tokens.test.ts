import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenManager } from './tokens.ts';

function setup() {
  let now = 1_000_000;
  const timers: { at: number; fn: () => void }[] = [];
  const asked: string[] = [];
  let n = 0;
  const tm = new TokenManager({
    requestLaunchToken: async (reason) => {
      asked.push(reason);
      return `nll_${++n}`;
    },
    exchange: async (launch) => ({ accessToken: launch.replace('nll_', 'nla_'), expiresAt: new Date(now + 15 * 60_000).toISOString() }),
    now: () => now,
    setTimer: (fn, ms) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      const i = timers.indexOf(t as (typeof timers)[number]);
      if (i >= 0) timers.splice(i, 1);
    },
  });
  const advance = async (ms: number) => {
    now += ms;
    for (const t of [...timers]) {
      if (t.at <= now) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    }
    await new Promise((r) => setImmediate(r));
  };
  return { tm, asked, advance };
}

test('initial launch token, then a refresh before expiry only after activity', async () => {
  const { tm, asked, advance } = setup();
  assert.equal(await tm.get(), 'nla_1');
  assert.equal(await tm.get(), 'nla_1', 'cached');
  assert.deepEqual(asked, ['initial']);
  await advance(60_000);
  tm.activity(); // e.g. a click a minute later
  await advance(13 * 60_000); // refresh margin: 1 minute before the 15-minute expiry
  assert.deepEqual(asked, ['initial', 'refresh']);
  assert.equal(await tm.get(), 'nla_2');
});

test('no activity: no refresh; the token lapses and the next use fetches one on demand', async () => {
  const { tm, asked, advance } = setup();
  await tm.get();
  await advance(14 * 60_000);
  assert.deepEqual(asked, ['initial'], 'idle: no launch token asked');
  await advance(2 * 60_000);
  assert.equal(await tm.get(), 'nla_2');
  assert.deepEqual(asked, ['initial', 'refresh']);
});

test('concurrent callers share one exchange; stop() refuses', async () => {
  const { tm, asked } = setup();
  const [a, b] = await Promise.all([tm.get(), tm.get()]);
  assert.equal(a, b);
  assert.equal(asked.length, 1);
  tm.stop();
  await assert.rejects(tm.get(), (e: { code?: string }) => e.code === 'SESSION_EXPIRED');
});
