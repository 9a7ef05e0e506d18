/**
 * One fixture for the tests of a describe block (or of a file, called at its top level): `open` runs in a
 * `before` hook and the fixture's `close()` in an `after` hook, so a test file declares its set-up in one
 * line instead of a variable, a before and an after.
 */
import { after, before } from 'node:test';

/**
 * The object returned stands for the fixture: every property read goes to what `open` resolved with. Reading
 * it before the `before` hook finished, or when `skip` (e.g. no Chromium) kept the hook from opening it,
 * throws instead of answering undefined. `setup` runs on the opened fixture in the same hook (what the
 * file's tests need in it: networks, users…); when it fails, the fixture is closed again.
 */
export function fixture<T extends { close(): Promise<void> }>(open: () => Promise<T>, opts: { skip?: string | boolean; setup?: (fixture: T) => Promise<void> } = {}): T {
  let current: T | undefined;
  before(async () => {
    if (opts.skip) return;
    const opened = await open();
    try {
      await opts.setup?.(opened);
    } catch (err) {
      await opened.close();
      throw err;
    }
    current = opened;
  });
  after(async () => {
    await current?.close();
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (current === undefined) throw new Error(`the fixture was read (${String(key)}) before its before hook opened it`);
      return Reflect.get(current, key);
    },
  });
}
