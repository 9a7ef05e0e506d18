// Group report and network compare benchmark (issue 22: "group report and compare on a 100k-node /
// 500k-edge network, target ≤ 2 s each end to end"). A real server process is started here (as
// bench/metrics.ts does: first-run token from its output, SQLite in a temp dir); the clock runs from the
// request being sent to the answer being parsed by the client.
//   1. POST /api/v2/metrics/network/groups with the network in the body (networkJSON, ~30 MB);
//   2. the same with networkId (stored network, read and parsed by the service);
//   3. POST /api/v2/networks/compare of two stored waves (10 % of the ties and 2 % of the people changed),
//      with attribute; and with attribute + metrics ['totalDegree'].
// Usage: npx node bench/analysis.ts [--nodes 100000] [--edges 500000] [--repeats 3]
// Prints a Markdown table (the first call apart — for compare it prepares both networks, the repeats find
// them kept — and the median of the repeats; the machine is shared, so the load average is printed) with
// the CPU time the server process spent per call (all its threads, from /proc/<pid>/stat on Linux): on a
// loaded machine the wall time is mostly waiting for a core, the CPU time is the work.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../packages/engine/src/kernels/random.ts';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const N = arg('--nodes', 100_000);
const M = arg('--edges', 500_000);
const REPEATS = arg('--repeats', 3);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

interface Net {
  nodes: { id: string; attributes: Record<string, string | number> }[];
  edges: { id: number; source: string; target: string; attributes: Record<string, number> }[];
}

/** N people in 40 departments (sizes 1..~5000, a few below 5), M weighted ties, 70 % within the department. */
function organisation(seed: number): Net {
  const rng = createRng(seed);
  const dept = new Int32Array(N);
  for (let i = 0; i < N; i++) dept[i] = i < 3 ? 39 : Math.floor(Math.sqrt(rng.random()) * 39);
  const byDept: number[][] = Array.from({ length: 40 }, () => []);
  for (let i = 0; i < N; i++) byDept[dept[i]].push(i);
  const nodes = Array.from({ length: N }, (_, i) => ({ id: `p${i}`, attributes: { department: `D${String(dept[i]).padStart(2, '0')}`, level: rng.int(5) } }));
  const edges: Net['edges'] = [];
  for (let e = 0; e < M; e++) {
    const u = rng.int(N);
    const same = byDept[dept[u]];
    const v = rng.random() < 0.7 ? same[rng.int(same.length)] : rng.int(N);
    edges.push({ id: e, source: `p${u}`, target: `p${v}`, attributes: { weight: 1 + rng.int(5) } });
  }
  return { nodes, edges };
}

/** The next wave: 2 % of the people leave and as many join, 10 % of the ties go, new ones come, some weights change. */
function nextWave(a: Net, seed: number): Net {
  const rng = createRng(seed);
  const leaving = new Set<string>();
  for (let i = 0; i < N / 50; i++) leaving.add(`p${rng.int(N)}`);
  const nodes = a.nodes.filter((n) => !leaving.has(n.id));
  for (let i = 0; i < leaving.size; i++) nodes.push({ id: `q${i}`, attributes: { department: `D${String(rng.int(39)).padStart(2, '0')}`, level: 0 } });
  const edges = a.edges.filter((e) => !leaving.has(e.source) && !leaving.has(e.target) && rng.random() > 0.1).map((e) => (rng.random() < 0.05 ? { ...e, attributes: { weight: e.attributes.weight + 1 } } : e));
  while (edges.length < M) edges.push({ id: M + edges.length, source: nodes[rng.int(nodes.length)].id, target: nodes[rng.int(nodes.length)].id, attributes: { weight: 1 } });
  return { nodes, edges };
}

/** CPU seconds (user + system, all threads) a process has used so far, or NaN where /proc is absent. */
function cpuSeconds(pid: number | undefined): number {
  const path = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(path)) return NaN;
  // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
  const rest = readFileSync(path, 'utf8').split(') ').pop()!.split(' ');
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (Number(rest[11]) + Number(rest[12])) / ticks;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'netloom-bench-analysis-'));
  const port = 18093;
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', NETLOOM_DATA_DIR: dir, LOG_LEVEL: 'warn', DATABASE_URL: '', NETLOOM_RATE_LIMIT_PER_HOUR: '100000000', NETLOOM_METRIC_TIMEOUT_MS: '600000' };
  const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'packages', 'server', 'src', 'main.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // the first-run banner (with the token) is written to stderr, logs to stdout
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    const deadline = Date.now() + 240_000;
    while (!/API token \(full access\): (nl_\S+)/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start (exit ${child.exitCode}, ${child.signalCode}):\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const token = /API token \(full access\): (nl_\S+)/.exec(out)![1];
    for (;;) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error('server did not answer /healthz');
      await new Promise((r) => setTimeout(r, 100));
    }
    const post = async (path: string, body: string) => {
      const c0 = cpuSeconds(child.pid);
      const t0 = performance.now();
      const res = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
      const json = await res.json();
      const ms = performance.now() - t0;
      const cpu = cpuSeconds(child.pid) - c0;
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return { ms, cpu, json };
    };
    const a = organisation(1);
    const b = nextWave(a, 2);
    const textA = JSON.stringify(a);
    const idA = (await post('/api/v2/networks', JSON.stringify({ name: 'Wave 1', networkJSON: a }))).json._id as string;
    const idB = (await post('/api/v2/networks', JSON.stringify({ name: 'Wave 2', networkJSON: b }))).json._id as string;
    const rows: [string, string][] = [
      ['group report, networkJSON in the body', `{"networkJSON":${textA},"attribute":"department","minGroupSize":5}`],
      ['group report, networkId (weighted)', JSON.stringify({ networkId: idA, attribute: 'department', minGroupSize: 5, metricEdgeWeights: true })],
      ['compare, attribute', JSON.stringify({ a: idA, b: idB, attribute: 'department', minGroupSize: 5 })],
      ['compare, attribute + metrics [totalDegree]', JSON.stringify({ a: idA, b: idB, attribute: 'department', minGroupSize: 5, metrics: ['totalDegree'] })],
    ];
    const table = ['| call | first call | median of the repeats | runs (s) | server CPU per run (s) | answer |', '|---|---|---|---|---|---|'];
    for (const [name, body] of rows) {
      const path = name.startsWith('compare') ? '/api/v2/networks/compare' : '/api/v2/metrics/network/groups';
      const times: number[] = [];
      const cpus: number[] = [];
      let summary = '';
      for (let r = 0; r < REPEATS; r++) {
        const { ms, cpu, json } = await post(path, body);
        times.push(ms);
        cpus.push(cpu);
        summary = path.includes('compare')
          ? `${json.ties.added.length} added, ${json.ties.removed.length} removed, ${json.ties.kept} kept, ${json.ties.weightChanged.length} reweighted, ${json.nodes.joined.length} joined`
          : `${json.groups.length} groups, ${json.ties} ties, ${json.suppressed} suppressed`;
      }
      // the first call of each row is the cold one for compare (no prepared side kept for these parameters)
      table.push(`| ${name} | **${(times[0] / 1000).toFixed(2)} s** | **${(med(times.slice(1)) / 1000).toFixed(2)} s** | ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} | ${cpus.map((c) => c.toFixed(2)).join(', ')} | ${summary} |`);
      console.error(table[table.length - 1]);
    }
    console.log(`${N.toLocaleString('en')} nodes / ${M.toLocaleString('en')} edges (body ${(textA.length / 1e6).toFixed(1)} MB), load average ${loadavg()[0].toFixed(1)}:\n`);
    console.log(table.join('\n'));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
