// Runs every test file of the workspace with Node's built-in test runner (on the project's Node 24).
// Files run two at a time; the few whose assertions involve wall-clock timing (deadlines, latency while
// a metric runs, graceful shutdown, browser tests) run afterwards one at a time so CPU contention cannot
// skew them.
// Prints a closing line "N passed, N failed" over both phases and exits non-zero on any failure.
// Usage: node scripts/test.ts [filter-substring ...]
import { spawnSync } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERIAL_FILES = ['packages/server/test/metrics.test.ts', 'packages/server/test/server-process.test.ts', 'packages/server/test/export-load.test.ts', 'packages/server/test/huge-json-body.test.ts'];
/** Browser tests (real Chromium, animations, deadlines) also run on their own. */
const isSerial = (f: string) => SERIAL_FILES.includes(f) || f.endsWith('-browser.test.ts');

const filters = process.argv.slice(2);
const files = globSync('packages/*/{src,test}/**/*.test.ts')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const tmp = mkdtempSync(join(tmpdir(), 'netloom-tests-'));
let passed = 0;
let failed = 0;
let status = 0;
const phases: [string[], number][] = [
  [files.filter((f) => !isSerial(f)), 2],
  [files.filter((f) => isSerial(f)), 1],
];
phases.forEach(([group, concurrency], i) => {
  if (group.length === 0) return;
  const tap = join(tmp, `phase${i}.tap`);
  const r = spawnSync(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...group],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
  );
  if (r.status !== 0) status = r.status ?? 1;
  const text = readFileSync(tap, 'utf8');
  passed += Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
  failed += Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(text)?.[1] ?? 0);
});
rmSync(tmp, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(status !== 0 || failed > 0 ? status || 1 : 0);
