// Runs every test file of the workspace with Node's built-in test runner (on the project's Node 24).
// Usage: node scripts/test.ts [filter-substring ...]
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const filters = process.argv.slice(2);
const files = globSync('packages/*/{src,test}/**/*.test.ts')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(r.status ?? 1);
