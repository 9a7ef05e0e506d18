// Summarises a V8 .cpuprofile (`node --cpu-prof`): self time by function and by package/file, and the
// total ("inclusive") time of the functions that matter, optionally only in a window of the run.
//
//   node bench/cpuprofile-summary.ts <file.cpuprofile> [--top 40] [--from-ms A --to-ms B] [--busiest-ms N]
// --busiest-ms N: only the N ms of the run with the most non-idle samples (e.g. the burst of a bench).
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const file = process.argv[2];
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const TOP = Number(arg('--top', '40'));
const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const idle = (n: Node) => ['(idle)', '(program)'].includes(n.callFrame.functionName) && n.callFrame.url === '';

// sample times (ms from the start) and durations
const times: number[] = [];
let t = 0;
for (const d of prof.timeDeltas) times.push((t += d / 1000));
const dur = prof.samples.map((_, i) => (i + 1 < times.length ? times[i + 1] - times[i] : 0));
let from = Number(arg('--from-ms', '0'));
let to = Number(arg('--to-ms', String(Infinity)));
const busiest = Number(arg('--busiest-ms', '0'));
if (busiest > 0) {
  let best = 0;
  let sum = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    if (!idle(byId.get(prof.samples[i])!)) sum += dur[i];
    while (times[i] - times[j] > busiest) {
      if (!idle(byId.get(prof.samples[j])!)) sum -= dur[j];
      j++;
    }
    if (sum > best) [best, from, to] = [sum, times[j], times[i]];
  }
}
const where = (n: Node) => {
  const u = n.callFrame.url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1];
  if (u.startsWith('node:')) return u;
  const s = /packages\/(.*)$/.exec(u);
  return s ? s[1] : u || '(native)';
};
const self = new Map<string, number>();
const pkg = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;
let busy = 0;
for (let i = 0; i < prof.samples.length; i++) {
  if (times[i] < from || times[i] > to) continue;
  const n = byId.get(prof.samples[i])!;
  total += dur[i];
  if (idle(n)) continue;
  busy += dur[i];
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dur[i]);
  pkg.set(where(n), (pkg.get(where(n)) ?? 0) + dur[i]);
  const seen = new Set<string>();
  for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
    const a = byId.get(id)!;
    const k = `${a.callFrame.functionName || '(anonymous)'} ${where(a)}:${a.callFrame.lineNumber + 1}`;
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + dur[i]);
  }
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n## ${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${v.toFixed(1).padStart(9)} ms ${((v / busy) * 100).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`window ${from.toFixed(0)}–${to === Infinity ? 'end' : to.toFixed(0)} ms: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms busy`);
show('self time by package / file', pkg);
show('self time by function', self);
show('total time (inclusive) by function', incl);
