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

test('the CLI takes the API metric paths as well as registry ids', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-cli-metric-paths-'));
  try {
    const net = smallNetwork();
    const file = join(dir, 'net.json');
    writeFileSync(file, JSON.stringify(net));
    const run = (...args: string[]) => spawnSync(process.execPath, [main, 'metrics', 'run', ...args, file, '--directed', 'false'], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    const byId = run('diameter');
    assert.equal(byId.status, 0, byId.stderr);
    assert.match(byId.stdout, /^\d+\n$/);
    for (const path of ['network/diameter', '/api/v2/metrics/network/diameter', 'metrics/network/diameter']) {
      const res = run(path);
      assert.equal(res.status, 0, `${path}: ${res.stderr}`);
      assert.equal(res.stdout, byId.stdout, path);
    }
    const node = run('nodes/betweennessCentrality');
    assert.equal(node.status, 0, node.stderr);
    const nodeById = run('betweennessCentrality');
    assert.deepEqual(JSON.parse(node.stdout).values, JSON.parse(nodeById.stdout).values);
    assert.equal(JSON.parse(node.stdout).meta.metric, 'betweennessCentrality');
    // a path of the wrong kind or an unknown one: INVALID_ARGS naming the right path, exit 1
    const wrong = run('network/betweennessCentrality');
    assert.equal(wrong.status, 1);
    const err = JSON.parse(wrong.stderr).error;
    assert.equal(err.code, 'INVALID_ARGS');
    assert.match(err.detail, /nodes\/betweennessCentrality/);
    const unknown = run('nodes/noSuchMetric');
    assert.equal(unknown.status, 1);
    assert.match(JSON.parse(unknown.stderr).error.detail, /unknown metric path "nodes\/noSuchMetric"/);
    // `metrics list` shows each metric's path
    const list = spawnSync(process.execPath, [main, 'metrics', 'list'], { encoding: 'utf8', env: { ...process.env, NETLOOM_DATA_DIR: dir } });
    const listed = JSON.parse(list.stdout) as { id: string; path: string }[];
    assert.equal(listed.find((m) => m.id === 'diameter')?.path, 'network/diameter');
    assert.equal(listed.find((m) => m.id === 'pageRank')?.path, 'nodes/pageRank');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
