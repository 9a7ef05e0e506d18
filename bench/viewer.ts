// Viewer benchmark (issue 5): time to first render and interaction frame time of the embedded viewer in
// headless Debian Chromium (playwright-core; software WebGL: SwiftShader through ANGLE, --disable-gpu),
// end to end through the real service (in process, SQLite) and a host page on another origin, exactly as
// the browser tests (packages/viewer/test/helpers/browser-env.ts).
//
//   npx node bench/viewer.ts [--sizes 10000x50000,100000x500000] [--runs 3] [--settle 3000] [--profile]
//
// Time to first render, per load (fresh page, fresh session): from Embed.create (which creates the iframe)
// to Embed.create resolving (viewer `ready`), and to the first animation frame after sigma drew the
// network (viewer mark `netloom:first-frame`); with the viewer's own steps (marks `netloom:*`: access
// token, session + network data fetched and parsed, model built, sigma display built and first draw,
// then engine, chat and menu mounted).
// Interaction frame time: requestAnimationFrame intervals inside the viewer while the camera moves —
// SDK-driven animations (nodes.focus zooming onto nodes, camera.fit back out; 400 ms each) and user input
// (mouse-wheel zooms at several pointer positions through Chromium's input pipeline; drag pans as mouse
// events on sigma's mouse layer); median and p95;
// with how the viewer chose to draw (mark `netloom:render-profile`, render-profile.ts) and how many full
// sigma refreshes (re-processing every node and edge; marks `netloom:full-refresh`) the moves caused.
// --profile: CPU profiles of the viewer frame (CDP Profiler through playwright-core) for the load and
// each interaction phase; `(program)` is native time, mostly waiting for software WebGL.
import { sdk, startBrowserEnv, viewerFrame, type Win } from '../packages/viewer/test/helpers/browser-env.ts';
import type { CDPSession, Frame, Page } from 'playwright-core';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('--sizes', '10000x50000,100000x500000').split(',').map((s) => s.split('x').map(Number) as [number, number]);
const RUNS = Number(arg('--runs', '3'));
/**
 * --settle <ms> (default 3000): pause after closing a load's page before the next load. Closing a page of
 * 100k nodes / 500k edges (its renderer process, its WebGL memory in the GPU process) keeps the 2 cores
 * busy for a while; a load started at once waited 0.4–3.7 s before the viewer's code ran, in a fresh
 * process (heap 2 MB) whose page and bundle had already arrived. 0 reproduces back-to-back loads.
 */
const SETTLE_MS = Number(arg('--settle', '3000'));
/** --profile: CPU profiles of the viewer frame (self time by function, top 25) during the load and during each interaction phase. */
const PROFILE = process.argv.includes('--profile');

function bigNetwork(n: number, m: number) {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  // Positions as a layout would give them: 50 clusters (one per team), nodes gathered around their centre.
  const centres = Array.from({ length: 50 }, () => [rnd() * 1000, rnd() * 1000]);
  const nodes = Array.from({ length: n }, (_, i) => {
    const [cx, cy] = centres[i % 50];
    const r = 60 * Math.sqrt(rnd());
    const a = rnd() * 2 * Math.PI;
    return { id: `n${i}`, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), attributes: { name: `Person ${i}`, team: `T${i % 50}`, score: i % 97 } };
  });
  // Mostly edges within a cluster, some across.
  const edges = Array.from({ length: m }, (_, i) => {
    const s = Math.floor(rnd() * n);
    const t = rnd() < 0.8 ? (Math.floor(rnd() * (n / 50)) * 50 + (s % 50)) % n : Math.floor(rnd() * n);
    return { id: i, source: `n${s}`, target: `n${t}` };
  });
  return { nodes, edges };
}

const median = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pct = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN; };
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** CDP session on the viewer frame (out-of-process iframe: its own target), for --profile. */
let phaseCdp: CDPSession | null = null;
async function startFrameRecorder(page: Page, frame: Frame): Promise<void> {
  if (PROFILE) {
    phaseCdp = await page.context().newCDPSession(frame);
    await phaseCdp.send('Profiler.enable');
    await phaseCdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await phaseCdp.send('Profiler.start');
  }
  await frame.evaluate(() => {
    // One recording loop at a time: a loop of an earlier phase stops at its next frame (its generation is
    // no longer current), so it cannot add a second timestamp per frame.
    const w = window as unknown as { __frames: number[]; __gen?: number };
    const gen = (w.__gen ?? 0) + 1;
    w.__gen = gen;
    w.__frames = [];
    const loop = (ts: number) => {
      if (w.__gen !== gen) return;
      w.__frames.push(ts);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

async function stopFrameRecorder(frame: Frame, what: string): Promise<number[]> {
  const intervals = await frame.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __gen: number };
    w.__gen++;
    const f = w.__frames;
    return f.slice(1).map((t, i) => t - f[i]);
  });
  if (phaseCdp) {
    const { profile } = await phaseCdp.send('Profiler.stop');
    printProfile(profile as unknown as CpuProfile, what);
    await phaseCdp.detach();
    phaseCdp = null;
  }
  return intervals;
}

interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[]; samples: number[]; timeDeltas: number[] }
function printProfile(p: CpuProfile, what: string): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  p.samples.forEach((id, k) => {
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[k] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.error(`CPU profile of the viewer frame (${what}), ${fmt(total)} sampled; self time:`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.error(`  ${fmt(v).padStart(8)}  ${k}`);
}

/** The load's steps, each timed from the one before (Embed.create for the first): the iframe's page received; the viewer's bundle received; its code running; the private port from the host; the launch token from the host's backend; the access token exchanged; session + network fetched and parsed; model; sigma display (graph + first draw); engine, chat, menu. */
const STEPS = ['page', 'bundle', 'script', 'connected', 'launch-token', 'token', 'data', 'model', 'display', 'drawn'];
const ids: string[] = [];
const sizesLabel = (n: number, m: number) => `${n / 1000}k nodes / ${m / 1000}k edges`;
console.error(`generating and uploading ${SIZES.map(([n, m]) => sizesLabel(n, m)).join(', ')}…`);
const h = await startBrowserEnv(PROFILE ? { minify: false } : {});
for (const [n, m] of SIZES) ids.push(await h.network(sizesLabel(n, m), bigNetwork(n, m)));
await h.user('viewer-1', ids, { permission: 'Edit' });

interface Row { label: string; create: number[]; firstFrame: number[]; steps: Record<string, number[]>; sdkFrames: number[]; inputFrames: number[]; dragFrames: number[]; colorMs: number[]; heapMB: number[]; refreshes: number[]; profile: string }

/** Full sigma refreshes so far (the viewer marks each `netloom:full-refresh`). */
const fullRefreshes = (frame: Frame) => frame.evaluate(() => performance.getEntriesByName('netloom:full-refresh').length);
const rows: Row[] = [];

try {
  for (let k = 0; k < SIZES.length; k++) {
    const [n, m] = SIZES[k];
    const row: Row = { label: sizesLabel(n, m), create: [], firstFrame: [], steps: {}, sdkFrames: [], inputFrames: [], dragFrames: [], colorMs: [], heapMB: [], refreshes: [], profile: '' };
    rows.push(row);
    for (let run = 0; run < RUNS; run++) {
      const sessionId = await h.session('viewer-1', ids[k]);
      const page = await h.openHost();
      page.on('crash', () => console.error('[the page crashed]'));
      const created = h.embed(page, sessionId, { timeoutMs: 600_000 });
      if (PROFILE) {
        let fr: Frame | undefined;
        while (!(fr = page.frames().find((x) => x.url().includes('/embed/')))) await new Promise((r) => setTimeout(r, 5));
        const cdp = await page.context().newCDPSession(fr);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
        await cdp.send('Profiler.start');
        await created;
        await fr.waitForFunction(() => performance.getEntriesByName('netloom:first-frame').length > 0, undefined, { timeout: 600_000 });
        const { profile } = await cdp.send('Profiler.stop');
        printProfile(profile as unknown as CpuProfile, 'load');
      }
      await created;
      const frame = viewerFrame(page);
      await frame.waitForFunction(() => performance.getEntriesByName('netloom:first-frame').length > 0, undefined, { timeout: 600_000 });
      const timing = await page.evaluate(() => (window as unknown as Win).timing);
      const marks = await frame.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        const bundle = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/viewer.js'));
        return {
          // the embed page's HTML received, and the viewer's bundle
          page: performance.timeOrigin + (nav?.responseEnd ?? 0),
          bundle: performance.timeOrigin + (bundle ? bundle.startTime + bundle.duration : 0),
          ...Object.fromEntries(performance.getEntriesByType('mark').filter((e) => e.name.startsWith('netloom:')).map((e) => [e.name.slice(8), performance.timeOrigin + e.startTime])),
        } as Record<string, number>;
      });
      const t0 = timing.createStart as number;
      row.create.push((timing.createResolved as number) - t0);
      row.firstFrame.push(marks['first-frame'] - t0);
      let prev = t0;
      for (const step of STEPS) {
        (row.steps[step] ??= []).push(marks[step] - prev);
        prev = marks[step];
      }
      const heapAtStart = await frame.evaluate(() => ((performance.getEntriesByName('netloom:script')[0] as PerformanceMark | undefined)?.detail as { heapMB?: number } | undefined)?.heapMB ?? 0);
      console.error(`${row.label} run ${run + 1}: JS heap of the viewer's process when its code started: ${heapAtStart.toFixed(0)} MB`);
      row.heapMB.push(await frame.evaluate(() => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 2 ** 20));
      console.error(`${row.label} run ${run + 1}: Embed.create ${fmt(row.create.at(-1)!)}, first frame ${fmt(row.firstFrame.at(-1)!)} (${Object.entries(row.steps).map(([s, v]) => `${s} ${fmt(v.at(-1)!)}`).join(', ')})`);

      const rp = await frame.evaluate(() => (performance.getEntriesByName('netloom:render-profile')[0] as PerformanceMark | undefined)?.detail as Record<string, boolean> | undefined);
      row.profile = rp ? [rp.software ? 'software WebGL' : 'GPU', rp.fastPrograms ? 'points + lines' : 'instanced programs', rp.hideEdgesOnMove ? 'edges hidden while moving' : '', rp.hideLabelsOnMove ? 'labels hidden while moving' : ''].filter(Boolean).join(', ') : '?';
      const refreshesBefore = await fullRefreshes(frame);

      // Interaction: SDK-driven camera animations.
      await startFrameRecorder(page, frame);
      // n1, n777, n4242 (modulo the node count, so that small sizes run too).
      for (const node of [1, 777, 4242].map((i) => `n${i % n}`)) {
        const r = await sdk(page, 'nodes.focus', { id: node }, { zoom: 0.15, timeoutMs: 120_000 });
        if (!r.ok) throw new Error(JSON.stringify(r));
        const f = await sdk(page, 'camera.fit', undefined, { timeoutMs: 120_000 });
        if (!f.ok) throw new Error(JSON.stringify(f));
      }
      row.sdkFrames.push(...(await stopFrameRecorder(frame, `${row.label}: SDK camera animations`)));

      // Interaction: user input (wheel zooms in and out) on the canvas.
      const box = (await page.locator('#viewer iframe').boundingBox())!;
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      await page.mouse.move(cx, cy);
      await startFrameRecorder(page, frame);
      for (let i = 0; i < 6; i++) {
        await page.mouse.wheel(0, -240);
        await page.waitForTimeout(60);
      }
      // Zooms at moving pointer positions (shift+wheel is not a sigma gesture: plain wheel zooms around the
      // pointer). Drag pans follow, as dispatched mouse events.
      for (let i = 0; i < 6; i++) {
        await page.mouse.move(cx + Math.sin(i) * 200, cy + Math.cos(i) * 120);
        await page.mouse.wheel(0, i % 2 ? 240 : -240);
        await page.waitForTimeout(60);
      }
      for (let i = 0; i < 6; i++) {
        await page.mouse.wheel(0, 240);
        await page.waitForTimeout(60);
      }
      await page.waitForTimeout(300);
      row.inputFrames.push(...(await stopFrameRecorder(frame, `${row.label}: mouse-wheel zooms`)));
      // Interaction: drag pans, as mouse events dispatched on sigma's mouse layer inside the viewer (a
      // Playwright drag through Chromium's input pipeline closed the whole browser in this setup): four
      // drags of eight moves, one per animation frame, each followed by 400 ms (inertia, edges drawn again).
      await startFrameRecorder(page, frame);
      await frame.evaluate(async () => {
        const c = document.querySelector('.sigma-mouse') as HTMLElement;
        const r = c.getBoundingClientRect();
        const fire = (type: string, x: number, y: number) => c.dispatchEvent(new MouseEvent(type, { clientX: r.left + x, clientY: r.top + y, bubbles: true, button: 0, buttons: 1 }));
        const nextFrame = () => new Promise((res) => requestAnimationFrame(res));
        for (const [dx, dy] of [[12, 0], [-12, 0], [0, 8], [0, -8]]) {
          let x = r.width / 2, y = r.height / 2;
          fire('mousedown', x, y);
          for (let i = 0; i < 8; i++) {
            x += dx;
            y += dy;
            fire('mousemove', x, y);
            await nextFrame();
          }
          fire('mouseup', x, y);
          await new Promise((res) => setTimeout(res, 400));
        }
      });
      row.dragFrames.push(...(await stopFrameRecorder(frame, `${row.label}: drag pans`)));
      row.refreshes.push((await fullRefreshes(frame)) - refreshesBefore);
      // A change that is drawn: a color layer (SDK round trip; the viewer re-processes the whole drawing once).
      const c0 = performance.now();
      const colored = await sdk(page, 'layers.color', { attribute: 'team' }, { timeoutMs: 120_000 });
      if (!colored.ok) throw new Error(JSON.stringify(colored));
      row.colorMs.push(performance.now() - c0);
      console.error(`${row.label} run ${run + 1}: camera frames median ${fmt(median(row.sdkFrames))}, wheel frames median ${fmt(median(row.inputFrames))}, drag frames median ${fmt(median(row.dragFrames))}, full sigma refreshes while moving ${row.refreshes.at(-1)} (${row.profile})`);
      await page.close();
      await h.api('DELETE', `/api/v2/embed/sessions/${sessionId}`);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    }
  }
} finally {
  await h.close();
}

const cpu = (await import('node:os')).cpus();
const out: string[] = [];
out.push(`Headless Debian Chromium ${h.browser ? '' : ''}(playwright-core, \`--headless --disable-gpu\`, software WebGL: SwiftShader through ANGLE) on ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}; viewer 800 × 600; real service in process (SQLite); host page on another origin; ${RUNS} loads per size (median), ${SETTLE_MS} ms between loads.`);
out.push('');
out.push('| network | Embed.create resolves | first frame drawn | iframe page | viewer bundle | its code running | port from host | launch token (host backend) | access token | data (session + network fetched and parsed) | model | sigma display (graph + first draw) | engine, chat, menu | JS heap |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  out.push(`| ${r.label} | ${fmt(median(r.create))} | ${fmt(median(r.firstFrame))} | ${STEPS.map((s) => fmt(median(r.steps[s]))).join(' | ')} | ${median(r.heapMB).toFixed(0)} MB |`);
}
out.push('');
out.push('| network | drawing | camera animations (SDK): median / p95 frame | frames | mouse-wheel zooms: median / p95 frame | frames | drag pans: median / p95 frame | frames | full sigma refreshes while moving (per load) | `layers.color` round trip (one full refresh) |');
out.push('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const cell = (f: number[]) => `${fmt(median(f))} / ${fmt(pct(f, 95))} | ${f.length}`;
  out.push(`| ${r.label} | ${r.profile} | ${cell(r.sdkFrames)} | ${cell(r.inputFrames)} | ${cell(r.dragFrames)} | ${r.refreshes.join(', ')} | ${fmt(median(r.colorMs))} |`);
}
console.log(out.join('\n'));
