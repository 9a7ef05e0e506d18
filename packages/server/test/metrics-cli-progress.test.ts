// `netloom metrics run` draws a progress bar with ETA on a terminal, and prints nothing extra when piped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { barLine } from '../src/cli/progress-bar.ts';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

function network(n: number) {
  return { nodes: Array.from({ length: n }, (_, i) => ({ id: i })), edges: Array.from({ length: n - 1 }, (_, i) => ({ id: i, source: i, target: i + 1 })) };
}

test('barLine: fraction, percent and ETA', () => {
  assert.equal(barLine('x', 0.5, 10, 10), 'x [#####-----]  50.0%  ETA 10 s');
  assert.match(barLine('x', 0, 0, 4), /\[----\] {3}0\.0% {2}ETA \?$/);
});

test('piped: only the answer; on a terminal: a progress bar with ETA on stderr', { skip: existsSync('/usr/bin/script') ? false : 'needs script(1) for a pseudo-terminal' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-cli-progress-'));
  try {
    const file = join(dir, 'net.json');
    writeFileSync(file, JSON.stringify(network(400)));
    const piped = spawnSync(process.execPath, [main, 'metrics', 'run', 'betweennessCentrality', file], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.stderr, '');
    assert.ok(JSON.parse(piped.stdout).values);
    // script(1) gives the command a pseudo-terminal for stdout and stderr
    const cmd = [process.execPath, main, 'metrics', 'run', 'betweennessCentrality', file].map((a) => `'${a}'`).join(' ');
    const tty = spawnSync('/usr/bin/script', ['-qfec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    assert.equal(tty.status, 0, tty.stdout);
    assert.match(tty.stdout, /betweennessCentrality \[#+-*\] +\d+\.\d% {2}ETA /);
    assert.match(tty.stdout, /100\.0%/);
    assert.match(tty.stdout, /\{"values":/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
