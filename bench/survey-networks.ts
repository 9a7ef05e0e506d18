// Generating networks from a survey (issue 22: "generation from 5,000 respondents × 3 questions, target
// ≤ 5 s"). The service is built in this process (SQLite in a temp dir, as the tests do) and called through
// its HTTP stack (`inject`): 5,000 people bulk-upserted, a survey with 3 rated relationship questions
// launched to all of them, every respondent's 3 answers (8 nominations each, 120,000 ties) written
// straight into the store (the respondent API's own speed is bench/surveys.ts), then timed end to end:
//   1. POST /api/v2/surveys/:id/networks { dryRun: true } — the preview: all four non-respondent modes;
//   2. POST /api/v2/surveys/:id/networks { combined: true } — 4 networks built and stored (first run);
//   3. the same again — the update path (same _id, new networkUUID);
//   4. the same with nonRespondents: reconstruct, privacy pseudonymised.
// Usage: npx node bench/survey-networks.ts [--people 5000] [--repeats 3]   (median of repeats, load printed)
import { loadavg } from 'node:os';
import { testApp, bearer } from '../packages/server/test/helpers/app.ts';
import { createRng } from '../packages/engine/src/kernels/random.ts';

const args = process.argv.slice(2);
const arg = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const PEOPLE = arg('--people', 5000);
const REPEATS = arg('--repeats', 3);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

const t = await testApp('sqlite');
const owner = await t.user();
await t.org(owner.id);
const token = await t.token(owner.id);
const call = async (method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
};

await call('POST', '/customFields', { key: 'team', label: 'Team', type: 'category', options: Array.from({ length: 20 }, (_, i) => `T${i}`) });
const rng = createRng(7);
await call('PUT', '/employees', { mode: 'merge', employees: Array.from({ length: PEOPLE }, (_, i) => ({ employeeId: `E${i}`, name: `Person ${i}`, email: `p${i}@example.com`, fields: { team: `T${i % 20}` } })) });
const rating = { labels: ["I don't know this person", 'Rarely', 'Monthly', 'Weekly', 'Daily'], dontKnow: true };
const questions = ['advice', 'info', 'energy'].map((id) => ({ id, type: 'relationship', text: `Question ${id}`, rating }));

async function surveyWithAnswers(privacy: string): Promise<string> {
  const s = await call('POST', '/surveys', { name: `Bench ${privacy}`, privacy, questions: [...questions, { id: 'office', type: 'singleChoice', text: 'Office?', options: ['N', 'S'] }] });
  await call('PUT', `/surveys/${s._id}`, { status: 'collecting' });
  const rows = [];
  const at = new Date().toISOString();
  for (let i = 0; i < PEOPLE; i++) {
    for (const q of questions) {
      const named = new Set<number>();
      while (named.size < 8) {
        const j = rng.random() < 0.7 ? (i - (i % 20) + rng.int(20)) % PEOPLE : rng.int(PEOPLE);
        if (j !== i) named.add(j);
      }
      rows.push({ survey_id: s._id, employee_id: `E${i}`, question_id: q.id, value: JSON.stringify([...named].map((j) => ({ employeeId: `E${j}`, rating: rng.int(5) }))), version: 1, saved_at: at });
    }
  }
  for (let k = 0; k < rows.length; k += 500) await t.database.db.insertInto('survey_answers').values(rows.slice(k, k + 500)).execute();
  return s._id as string;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

const confidential = await surveyWithAnswers('confidential');
const pseudonymised = await surveyWithAnswers('pseudonymised');
const rowsOut: [string, number[], string][] = [];
const preview: number[] = [];
for (let r = 0; r < REPEATS; r++) preview.push(await timed(() => call('POST', `/surveys/${confidential}/networks`, { dryRun: true })));
rowsOut.push(['preview (dryRun, 3 questions × 4 modes)', preview, load()]);
const first = await timed(() => call('POST', `/surveys/${confidential}/networks`, { combined: true }));
rowsOut.push(['generate 3 + combined, first run (create)', [first], load()]);
const again: number[] = [];
for (let r = 0; r < REPEATS; r++) again.push(await timed(() => call('POST', `/surveys/${confidential}/networks`, { combined: true })));
rowsOut.push(['generate 3 + combined again (update)', again, load()]);
const pseudo: number[] = [];
for (let r = 0; r < REPEATS; r++) pseudo.push(await timed(() => call('POST', `/surveys/${pseudonymised}/networks`, { combined: true, nonRespondents: 'reconstruct' })));
rowsOut.push(['pseudonymised, reconstruct, 3 + combined', pseudo, load()]);
const s = await call('GET', `/surveys/${confidential}`);
const net = await call('GET', `/networks/${s.networks.find((n: { question: string }) => n.question === 'combined')._id}`);

console.log(`\n${PEOPLE} respondents × 3 questions (8 nominations each): combined network ${net.nodeCount} nodes, ${net.edgeCount} edges\n`);
console.log('| call | median | runs (s) | load average (1, 5, 15 min) |\n|---|---|---|---|');
for (const [what, runs, l] of rowsOut) console.log(`| ${what} | ${med(runs).toFixed(2)} s | ${runs.map((x) => x.toFixed(2)).join(', ')} | ${l} |`);
await t.close();
