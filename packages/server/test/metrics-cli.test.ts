// `netloom metrics run`: same validation and JSON as the API (networkJSON), parameters parsed as JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeMetricText, parseParam } from '../src/cli/commands/metrics.ts';
import { testApp, bearer, smallNetwork } from './helpers/app.ts';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

test('parseParam: JSON when possible, else a string', () => {
  assert.deepEqual(parseParam('kPercent=30'), ['kPercent', 30]);
  assert.deepEqual(parseParam('normalized=false'), ['normalized', false]);
  assert.deepEqual(parseParam('partition={"a":"x"}'), ['partition', { a: 'x' }]);
  assert.deepEqual(parseParam('metricEdgeWeights=strength'), ['metricEdgeWeights', 'strength']);
  assert.deepEqual(parseParam('attribute=a=b'), ['attribute', 'a=b']);
  assert.throws(() => parseParam('novalue'));
});

test('the CLI prints what the API answers for networkJSON', async () => {
  const t = await testApp('sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'netloom-cli-metrics-'));
  try {
    const u = await t.user({ plan: 'enterprise' });
    const token = await t.token(u.id);
    const net = smallNetwork();
    const file = join(dir, 'net.json');
    writeFileSync(file, JSON.stringify(net));
    const api = (await t.app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/inDegree', headers: bearer(token), payload: { networkJSON: net, isDirected: false, metricEdgeWeights: true } })).json();
    const cli = spawnSync(process.execPath, [main, 'metrics', 'run', 'inDegree', file, '--param', 'metricEdgeWeights=true', '--directed', 'false'], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    assert.equal(cli.status, 0, cli.stderr);
    const out = JSON.parse(cli.stdout);
    assert.deepEqual(out.values, api.values);
    assert.deepEqual({ ...out.meta, elapsedMs: 0 }, { ...api.meta, elapsedMs: 0 });
    // network metrics: a bare number
    assert.equal(computeMetricText('totalDegree', net, {}, true).startsWith('{'), true);
    if ((await import('@netloom/engine')).metrics.has('diameter')) assert.match(computeMetricText('diameter', net, {}, true), /^\d+(\.\d+)?$/);
    // errors: JSON on stderr, exit 1, the parameter named
    const bad = spawnSync(process.execPath, [main, 'metrics', 'run', 'inDegree', file, '-p', 'type=median'], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    assert.equal(bad.status, 1);
    assert.equal(JSON.parse(bad.stderr).error.errors[0].path, '/type');
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
