// Betweenness on BA(n, m) as a metric job (docs/jobs.md), with 1 and then 2 `netloom worker` processes
// (one thread each) sharing a SQLite database; the API is in this process with NETLOOM_WORKERS=0, so all
// compute happens in the worker processes. Reports the wall time from submission to `succeeded`, the
// scaling ratio, each shard's time and worker, the merge, how often progress was updated, and a
// projection of the exact job on N machines from the measured seconds per source.
//
// The exact job on BA(100000, 5) (100,000 sources) needs tens of minutes of CPU on this shared 2-core
// machine, so by default the job is sampled: `kPercent` sources (a fixed seed), split into shards as the
// exact job would be. Every shard runs the same Brandes kernel per source as the exact job; the exact
// time is PROJECTED from seconds per source, and printed as a projection. `--kpercent 100` runs it exact.
// `--check`: after the first job, reads the stored network back and compares every node's
// 'Betweenness Centrality' with the unsplit in-process kernel (runMetric, same parameters); prints the
// largest relative difference and fails (exit code 1) above 1e-12 (docs/jobs.md: a split run equals the
// unsplit one within 1e-12).
// Usage: node bench/jobs.ts [n] [m] [--kpercent K] [--shard-sources S] [--workers 1,2] [--check]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { barabasiAlbert } from './kernels-paths.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { buildApp } from '../packages/server/src/app.ts';
import { openDatabase } from '../packages/server/src/store/db.ts';
import { migrate } from '../packages/server/src/store/migrations/index.ts';
import { createUser } from '../packages/server/src/domain/identity/users.ts';
import { createToken } from '../packages/server/src/domain/identity/credentials/tokens.ts';
import { runMetric } from '../packages/engine/src/metrics/run.ts';

const args = process.argv.slice(2);
const nums = args.filter((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--'));
const n = Number(nums[0] ?? 100000);
const m = Number(nums[1] ?? 5);
const opt = (name: string, def: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
const kPercent = Number(opt('--kpercent', '4'));
const shardSources = Number(opt('--shard-sources', '25000'));
const workerCounts = opt('--workers', '1,2').split(',').map(Number);
const check = args.includes('--check');
const load = () => loadavg().map((x) => x.toFixed(1)).join(' / ');
const cli = fileURLToPath(new URL('../packages/server/src/cli/main.ts', import.meta.url));

type Shard = { index: number; status: string; workerId: string | null; attempts: number; startedAt: string | null; finishedAt: string | null };
type Job = { jobId: string; status: string; progress: number; etaSeconds: number | null; startedAt: string | null; finishedAt: string | null; error?: unknown; shards?: Shard[] };

const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-jobs-'));
const env: Record<string, string> = {
  NETLOOM_DATA_DIR: dir,
  LOG_LEVEL: 'warn',
  NETLOOM_JOB_SHARD_MIN_NODES: '1000',
  NETLOOM_JOB_SHARD_SOURCES: String(shardSources),
  NETLOOM_JOB_POLL_MS: '200',
  NETLOOM_METRIC_WORKERS: '1',
  NETLOOM_WORKERS: '0',
  NETLOOM_BOOTSTRAP_OWNER: 'false',
};
const config = loadConfig(env);
const database = await openDatabase(config);
await migrate(database.db);
const user = await createUser(database.db, { email: 'bench@example.com', name: 'Bench', plan: 'enterprise', password: 'correct horse battery staple' });
const auth = { authorization: `Bearer ${(await createToken(database.db, { userId: user.id, orgId: null, scopes: null })).token}` };
const app = await buildApp(config, { database, logger: false });
await app.ready();

const net = barabasiAlbert(n, m);
for (const e of net.edges ?? []) delete (e as { attributes?: unknown }).attributes; // unweighted
const header = `BA(${n}, ${m}): ${net.nodes.length} nodes, ${net.edges?.length} edges; betweenness kPercent ${kPercent} (${Math.round((kPercent / 100) * n)} sources), shards of ${shardSources} nodes' sources → ${Math.max(2, Math.ceil(n / shardSources))} shards; Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z; load avg ${load()}`;
console.log(header);
const created = await app.inject({ method: 'POST', url: '/api/v2/networks', headers: auth, payload: { name: 'ba', networkJSON: net, isDirected: false } });
if (created.statusCode !== 200) throw new Error(created.body);
const networkId = (created.json() as { _id: string })._id;

async function checkAgainstUnsplit(): Promise<void> {
  const res = await app.inject({ method: 'GET', url: `/api/v2/networks/${networkId}`, headers: auth });
  if (res.statusCode !== 200) throw new Error(res.body);
  const stored = (res.json() as { networkJSON: { nodes: { id: string | number; attributes?: Record<string, unknown> }[] } }).networkJSON;
  const t0 = Date.now();
  const out = runMetric({ metric: 'betweennessCentrality', network: net, networkDirected: false, params: kPercent < 100 ? { kPercent, seed: 1 } : {} });
  const seconds = (Date.now() - t0) / 1000;
  if (out.kind !== 'node') throw new Error('expected node values');
  const expected = out.values['Betweenness Centrality'];
  let worst = 0;
  let compared = 0;
  for (const node of stored.nodes) {
    const got = Number(node.attributes?.['Betweenness Centrality']);
    const want = Number(expected[String(node.id)]);
    if (!Number.isFinite(got) || !Number.isFinite(want)) throw new Error(`node ${node.id}: job ${got}, unsplit ${want}`);
    worst = Math.max(worst, Math.abs(got - want) / Math.max(Math.abs(want), 1e-300));
    compared++;
  }
  console.log(`check: job result vs the unsplit kernel in this process (${seconds.toFixed(1)} s): largest relative difference ${worst.toExponential(1)} over ${compared} nodes`);
  if (compared !== n || worst > 1e-12) process.exitCode = 1;
}

function startWorker(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [cli, 'worker', '--threads', '1', '--concurrency', '1'], { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker started')) resolve(proc);
    });
    proc.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
}

const results: { workers: number; wall: number; shards: { index: number; worker: string; seconds: number }[]; merge: number; maxGap: number; monotonic: boolean }[] = [];
for (const count of workerCounts) {
  const workers = await Promise.all(Array.from({ length: count }, startWorker));
  const loadBefore = load();
  const t0 = Date.now();
  const res = await app.inject({ method: 'POST', url: '/api/v2/metrics/nodes/betweennessCentrality', headers: { ...auth, prefer: 'respond-async' }, payload: { networkId, ...(kPercent < 100 ? { kPercent, seed: 1 } : {}) } });
  if (res.statusCode !== 202) throw new Error(res.body);
  const { jobId } = res.json() as Job;
  let job: Job;
  let lastProgress = -1;
  let lastChange = Date.now();
  let maxGap = 0;
  let monotonic = true;
  for (;;) {
    job = (await app.inject({ method: 'GET', url: `/api/v2/jobs/${jobId}`, headers: auth })).json() as Job;
    if (job.progress < lastProgress) monotonic = false;
    if (job.progress !== lastProgress) {
      if (lastProgress > 0) maxGap = Math.max(maxGap, Date.now() - lastChange);
      lastChange = Date.now();
      lastProgress = job.progress;
    }
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const wall = (Date.now() - t0) / 1000;
  if (job.status !== 'succeeded') throw new Error(JSON.stringify(job));
  const shards = (job.shards ?? []).map((s) => ({ index: s.index, worker: String(s.workerId?.split(':')[1]), seconds: (Date.parse(s.finishedAt ?? '') - Date.parse(s.startedAt ?? '')) / 1000 }));
  const lastShard = Math.max(...(job.shards ?? []).map((s) => Date.parse(s.finishedAt ?? '')));
  const merge = (Date.parse(job.finishedAt ?? '') - lastShard) / 1000;
  results.push({ workers: count, wall, shards, merge, maxGap: maxGap / 1000, monotonic });
  console.log(
    `${count} worker process(es): ${wall.toFixed(1)} s wall (submit → succeeded); shards ${shards.map((s) => `#${s.index} ${s.seconds.toFixed(1)} s on pid ${s.worker}`).join(', ')}; merge ${merge.toFixed(1)} s; progress monotonic ${monotonic}, longest wait between progress changes ${(maxGap / 1000).toFixed(1)} s; load avg before ${loadBefore}, after ${load()}`,
  );
  if (check && results.length === 1) await checkAgainstUnsplit();
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
}

if (results.length >= 2) console.log(`scaling 1 → ${results[1].workers} worker processes: ${(results[0].wall / results[1].wall).toFixed(2)}×`);
const one = results[0];
const sources = kPercent < 100 ? Math.round((kPercent / 100) * n) : n;
const shardSeconds = one.shards.reduce((s, x) => s + x.seconds, 0);
const perSource = shardSeconds / sources;
console.log(`seconds per source (1 worker, shard time incl. each shard's network parse): ${(perSource * 1000).toFixed(2)} ms`);
const exactOneThread = perSource * n;
const projection = [1, 2, 4, 8, 16].map((machines) => `${machines} machine(s) × 2 workers: ${((exactOneThread / (machines * 2) + one.merge) / 60).toFixed(1)} min`);
console.log(`PROJECTED exact job (all ${n} sources) from the measured seconds per source, shards spread evenly, plus the measured merge: 1 worker ${(exactOneThread / 60).toFixed(1)} min; ${projection.join('; ')}`);

await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
