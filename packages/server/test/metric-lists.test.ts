// The lists of metrics and formats the web app and the embedded viewer show come from the registries, with
// no list kept by hand (issue 20): GET /app/api/metrics and GET /api/v2/embed/viewer/metrics serve the engine
// registry's offeredMetrics(), so a metric added to the registry (here a fake one, in-process) appears in both
// with no other edit, and one that cannot run with its defaults does not; the web app's formats are the
// contract's FILE_FORMATS, which must be exactly the server's format registry; and no source file of the
// web app or the viewer spells a metric id or the format list out.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'typebox';
import { metrics, type AnyMetric } from '@netloom/engine';
import { FILE_FORMATS, FORMAT_IDS } from '@netloom/protocol/http';
import { FORMATS } from '../src/domain/formats/index.ts';
import { DIALECTS } from './helpers/app.ts';
import { embedFixture, openSession, accessToken, viewer, type EmbedFixture } from './helpers/embed.ts';
import { webClient } from './helpers/web.ts';

const registry = metrics as Map<string, AnyMetric>;
const fake: AnyMetric = {
  id: 'fakeListedMetric',
  title: 'Fake listed metric',
  kind: 'node',
  summary: 'A metric added by a test.',
  params: Type.Object({ scale: Type.Number({ default: 1 }) }, { additionalProperties: false }),
  attributes: ['Fake'],
  run: () => ({ values: { Fake: [] } }),
};
const needsInput: AnyMetric = { ...fake, id: 'fakeMetricWithRequiredParam', title: 'Needs input', params: Type.Object({ attribute: Type.String() }, { additionalProperties: false }) };
const fakeNetworkMetric: AnyMetric = { id: 'fakeNetworkMetric', title: 'Fake network metric', kind: 'network', summary: 'A network metric added by a test.', params: Type.Object({}, { additionalProperties: false }), run: () => 1 };

type Listed = { id: string; title: string; kind: string };

for (const dialect of DIALECTS) {
  describe(`metric lists come from the engine registry (${dialect})`, () => {
    let f: EmbedFixture;
    before(async () => {
      for (const m of [fake, needsInput, fakeNetworkMetric]) registry.set(m.id, m);
      f = await embedFixture(dialect);
    });
    after(async () => {
      for (const m of [fake, needsInput, fakeNetworkMetric]) registry.delete(m.id);
      await f.t.close();
    });

    test("a metric added to the registry is in the web app's list and the viewer's, with its title; one needing input is not", async () => {
      const c = webClient(f.app);
      assert.equal((await c.signIn((await f.t.user()).email)).statusCode, 200);
      const web = await c.request('GET', '/app/api/metrics');
      assert.equal(web.statusCode, 200, web.body);
      const webList = web.json().metrics as Listed[];
      assert.deepEqual(webList.find((m) => m.id === fake.id), { id: fake.id, title: fake.title, kind: 'node' });
      assert.deepEqual(webList.find((m) => m.id === fakeNetworkMetric.id), { id: fakeNetworkMetric.id, title: fakeNetworkMetric.title, kind: 'network' });
      assert.equal(webList.some((m) => m.id === needsInput.id), false);
      assert.ok(webList.some((m) => m.id === 'pageRank') && webList.some((m) => m.id === 'diameter'));

      const s = await openSession(f);
      const v = await viewer(f.app, await accessToken(f, s.sessionId, s.launchToken), 'GET', 'metrics');
      assert.equal(v.statusCode, 200, v.body);
      const viewerList = v.json().metrics as Listed[];
      assert.deepEqual(viewerList.find((m) => m.id === fake.id), { id: fake.id, title: fake.title, kind: 'node' });
      // the viewer's Metrics panel adds node attributes and shows network-level numbers: the same list
      assert.deepEqual(viewerList.find((m) => m.id === fakeNetworkMetric.id), { id: fakeNetworkMetric.id, title: fakeNetworkMetric.title, kind: 'network' });
      assert.deepEqual(viewerList, webList);
    });

    test('both lists need their credential', async () => {
      assert.equal((await f.app.inject({ method: 'GET', url: '/app/api/metrics' })).statusCode, 401);
      assert.equal((await f.app.inject({ method: 'GET', url: '/api/v2/embed/viewer/metrics' })).statusCode, 401);
    });
  });
}

test("the web app's formats are exactly the server's format registry, in its order", () => {
  assert.deepEqual(Object.keys(FORMATS), FORMAT_IDS);
  assert.deepEqual(Object.keys(FILE_FORMATS), FORMAT_IDS);
  for (const id of FORMAT_IDS) assert.ok((FORMATS[id].extensions as readonly string[]).includes(`.${FILE_FORMATS[id].ext}`), `${id}: the export ending .${FILE_FORMATS[id].ext} is one the import accepts`);
});

test('no source file of the web app or the viewer spells out a metric id or the format list', () => {
  const roots = [join(import.meta.dirname, '../../web/src'), join(import.meta.dirname, '../../viewer/src')];
  const files = roots.flatMap((r) => readdirSync(r, { recursive: true, encoding: 'utf8' }).filter((p) => /\.tsx?$/.test(p) && !p.endsWith('.test.ts')).map((p) => join(r, p)));
  assert.ok(files.length > 20);
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // A report (the group report) is no entry of a list: it has a panel of its own (viewer menu/groups-panel.ts)
    // that names the one endpoint it calls. Every metric that belongs in a list must come from the registry.
    for (const [id, m] of metrics) if (m.kind !== 'report' && (text.includes(`'${id}'`) || text.includes(`"${id}"`))) found.push(`${file}: '${id}'`);
    if (/['"]graphml['"]/.test(text)) found.push(`${file}: a format id`);
  }
  assert.deepEqual(found, []);
});
