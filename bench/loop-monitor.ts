// Preloaded into the service by bench/slow-bodies.ts (`--import`): records every event-loop turn longer
// than 20 ms — when it started (epoch ms), how long it took and how much CPU the process used meanwhile
// (a long turn with little CPU is the machine's other work; one with CPU ≈ duration is the service's own) —
// and writes them as JSON to NETLOOM_BENCH_LOOP_OUT when the process exits.
import { writeFileSync } from 'node:fs';

const out = process.env.NETLOOM_BENCH_LOOP_OUT;
if (out) {
  const turns: { at: number; ms: number; cpuMs: number }[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (now - last > 20) {
      const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
      turns.push({ at: Date.now() - Math.round(now - last), ms: Math.round(now - last), cpuMs: Math.round(cpuMs) });
    }
    last = now;
    lastCpu = cpu;
  }, 5).unref();
  process.on('exit', () => writeFileSync(out, JSON.stringify(turns)));
}
