// AI chat of embedded sessions (issue 5 item 5) through real HTTP (inject, SQLite): every rule of
// docs/embedding-api.md "AI chat" — size, ui.aiChat, chatAccess off / presetOnly, the organization switch,
// the monthly allowance (a question in progress counts), one question at a time (429), cancel, new
// conversation, messages, audit, preset questions of organization admins, the offline assistant's answers
// and actions, and the OpenAI-compatible provider against a local stub of /chat/completions.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { embedFixture, openSession, accessToken, viewer, type EmbedFixture } from './helpers/embed.ts';
import { teamNetwork } from './helpers/graphs.ts';


async function chatSession(f: EmbedFixture, networkId: string, opts: { chatAccess?: 'off' | 'presetOnly' | 'full'; ui?: unknown } = {}) {
  const externalId = `u-${Math.random().toString(36).slice(2, 10)}`;
  if (opts.chatAccess) {
    const r = await f.host('PUT', `/api/v2/embed/users/${externalId}`, { displayName: externalId, chatAccess: opts.chatAccess });
    assert.equal(r.statusCode, 201, r.body);
  }
  const s = await openSession(f, { externalId, networkId, ui: opts.ui });
  return { ...s, token: await accessToken(f, s.sessionId, s.launchToken) };
}

async function waitReply(f: EmbedFixture, token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const r = await viewer(f.app, token, 'GET', `chat/messages/${id}?waitMs=2000`);
    assert.equal(r.statusCode, 200, r.body);
    if (r.json().status !== 'pending') return r.json();
  }
  throw new Error('no answer');
}

async function ask(f: EmbedFixture, token: string, message: string, extra: Record<string, unknown> = {}) {
  return viewer(f.app, token, 'POST', 'chat/ask', { message, ...extra });
}

async function askAndWait(f: EmbedFixture, token: string, message: string) {
  const r = await ask(f, token, message);
  assert.equal(r.statusCode, 202, r.body);
  return waitReply(f, token, r.json().reply.id);
}

describe('AI chat: offline assistant (sqlite)', () => {
  let f: EmbedFixture;
  let net: string;
  before(async () => {
    f = await embedFixture('sqlite');
    const r = await f.host('POST', '/api/v2/networks', { name: 'Teams', networkJSON: teamNetwork() });
    assert.equal(r.statusCode, 200, r.body);
    net = r.json()._id;
  });
  after(async () => f.t.close());

  test('ask → 202 with the pending answer; the answer comes from the network; messages; audit', async () => {
    const s = await chatSession(f, net);
    const state = await viewer(f.app, s.token, 'GET', 'chat');
    assert.equal(state.statusCode, 200, state.body);
    assert.equal(state.json().available, true);
    assert.equal(state.json().assistant, 'offline');
    assert.equal(state.json().chatAccess, 'full');
    assert.deepEqual(state.json().allowance, { limit: 1000, used: 0, resetsAt: '2026-04-01T00:00:00.000Z' });

    const r = await ask(f, s.token, 'Who is most central?');
    assert.equal(r.statusCode, 202, r.body);
    const body = r.json();
    assert.equal(body.question.role, 'user');
    assert.equal(body.question.source, 'viewer');
    assert.equal(body.reply.status, 'pending');
    const reply = await waitReply(f, s.token, body.reply.id);
    assert.equal(reply.status, 'done');
    assert.equal(reply.isError, false);
    assert.equal(reply.replyTo, body.question.id);
    // Degree: the bridge ends (Bridget, P6) have 6 connections; betweenness (engine): the bridge ends lead.
    assert.match(reply.content, /\*\*Most central by degree\*\*[^]*1\. \*\*Bridget\*\* — 6 connections/);
    assert.match(reply.content, /\*\*Most central by betweenness\*\*[^]*1\. \*\*Bridget\*\*/);

    const msgs = await viewer(f.app, s.token, 'GET', 'chat/messages');
    assert.equal(msgs.statusCode, 200);
    assert.deepEqual(msgs.json().map((m: { id: string; role: string; isError: boolean }) => [m.id, m.role, m.isError]), [[body.question.id, 'user', false], [body.reply.id, 'assistant', false]]);
    for (const m of msgs.json()) for (const k of ['id', 'role', 'content', 'isError']) assert.ok(k in m);

    const audit = await f.host('GET', '/api/v2/embed/audit?action=chat.ask');
    const e = audit.json().entries.find((x: { details: { messageId: string } }) => x.details.messageId === body.question.id);
    assert.ok(e, 'audit entry for the question');
    assert.equal(e.details.sessionId, s.sessionId);
    assert.equal(e.details.source, 'viewer');
    assert.equal(JSON.stringify(e).includes('most central'), false, 'the audit log does not keep question text');
  });

  test('communities, counts, attributes, neighbours, actions (layers, views); source host', async () => {
    const s = await chatSession(f, net);
    const comm = await askAndWait(f, s.token, 'Which communities are there?');
    assert.match(comm.content, /\*\*2 communities\*\*/);
    assert.match(comm.content, /6 nodes/);
    const count = await askAndWait(f, s.token, 'How many nodes have team Sales?');
    assert.match(count.content, /\*\*6\*\* of 12 nodes \(50%\) have team = Sales/);
    const attrs = await askAndWait(f, s.token, 'What attributes do the nodes have?');
    assert.match(attrs.content, /\| score \| number \| 12 \| from 0 to 11 \|/);
    assert.match(attrs.content, /\| team \| text \| 12 \| Eng, Sales \|/);
    const nb = await askAndWait(f, s.token, 'Who is connected to Bridget?');
    assert.match(nb.content, /\*\*Bridget\*\* is connected to 6 nodes/);
    const color = await askAndWait(f, s.token, 'Color the nodes by team');
    assert.deepEqual(color.actions, [{ type: 'layer', operation: 'Color', attribute: 'team' }]);
    const size = await askAndWait(f, s.token, 'Size the nodes by score');
    assert.deepEqual(size.actions, [{ type: 'layer', operation: 'Size', attribute: 'score' }]);
    const filter = await askAndWait(f, s.token, 'Show only Eng');
    assert.deepEqual(filter.actions, [{ type: 'layer', operation: 'Filter', attribute: 'team', values: ['Eng'] }]);
    const v = await viewer(f.app, s.token, 'POST', 'views', { name: 'Sales team', layers: [], camera: { x: 0.5, y: 0.5, ratio: 1, angle: 0 }, display: { backgroundColor: '#ffffff', showLabels: 'always', showEdges: true } });
    assert.equal(v.statusCode, 201, v.body);
    const open = await askAndWait(f, s.token, 'Open the view Sales team');
    assert.deepEqual(open.actions, [{ type: 'openView', viewId: v.json().id, name: 'Sales team' }]);
    // Deterministic: the same question gives the same answer.
    assert.equal((await askAndWait(f, s.token, 'Which communities are there?')).content, comm.content);
    const host = await ask(f, s.token, 'How many nodes?', { source: 'host' });
    assert.equal(host.statusCode, 202);
    assert.equal(host.json().question.source, 'host');
    assert.match((await waitReply(f, s.token, host.json().reply.id)).content, /\*\*12 nodes\*\* and \*\*31 edges\*\*/);
  });

  test('message size and shape', async () => {
    const s = await chatSession(f, net);
    assert.equal((await ask(f, s.token, 'x'.repeat(4001))).statusCode, 400);
    assert.equal((await ask(f, s.token, '   ')).statusCode, 400);
    assert.equal((await viewer(f.app, s.token, 'POST', 'chat/ask', { message: 'hi', extra: 1 })).statusCode, 400);
    assert.equal((await viewer(f.app, s.token, 'POST', 'chat/ask', { message: 'hi', newChat: 'yes' })).statusCode, 400);
    const ok = await ask(f, s.token, 'y'.repeat(4000));
    assert.equal(ok.statusCode, 202, ok.body);
    await waitReply(f, s.token, ok.json().reply.id);
  });

  test('ui.aiChat false and chatAccess off refuse every chat call (403 CHAT_NOT_PERMITTED with the reason)', async () => {
    const hidden = await chatSession(f, net, { ui: { aiChat: false } });
    const off = await chatSession(f, net, { chatAccess: 'off' });
    for (const [s, why] of [[hidden, /ui\.aiChat is false/], [off, /chatAccess is off/]] as const) {
      const r = await ask(f, s.token, 'Who is most central?');
      assert.equal(r.statusCode, 403, r.body);
      assert.equal(r.json().code, 'CHAT_NOT_PERMITTED');
      assert.match(r.json().detail, why);
      for (const [m, p] of [['GET', 'chat/messages'], ['POST', 'chat/cancel'], ['POST', 'chat/new']] as const) assert.equal((await viewer(f.app, s.token, m, p, m === 'POST' ? {} : undefined)).statusCode, 403, p);
      const st = (await viewer(f.app, s.token, 'GET', 'chat')).json();
      assert.equal(st.available, false);
      assert.match(st.message, why);
      assert.deepEqual(st.presetQuestions, []);
    }
  });

  test('presetOnly: only the network\'s preset questions; default set from the attributes; admins set their own', async () => {
    const s = await chatSession(f, net, { chatAccess: 'presetOnly' });
    const st = (await viewer(f.app, s.token, 'GET', 'chat')).json();
    assert.equal(st.chatAccess, 'presetOnly');
    assert.deepEqual(st.presetQuestions, [
      'Who is most central?', 'Which communities are there?', 'What attributes do the nodes have?', 'How many nodes have team Eng?',
      'Color the nodes by team.', 'Size the nodes by score.', 'Who is connected to Bridget?',
    ]);
    const no = await ask(f, s.token, 'Tell me a joke');
    assert.equal(no.statusCode, 403);
    assert.match(no.json().detail, /preset questions \(chatAccess is presetOnly\)/);
    const yes = await ask(f, s.token, 'who is most central');
    assert.equal(yes.statusCode, 202, 'case, spacing and the final ? do not matter');
    await waitReply(f, s.token, yes.json().reply.id);

    const get = await f.host('GET', `/api/v2/embed/networks/${net}/chat`);
    assert.equal(get.statusCode, 200);
    assert.equal(get.json().custom, false);
    const put = await f.host('PUT', `/api/v2/embed/networks/${net}/chat`, { presetQuestions: ['Which communities are there?', ' Tell me a joke '] });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json(), { networkId: net, presetQuestions: ['Which communities are there?', 'Tell me a joke'], custom: true });
    assert.equal((await ask(f, s.token, 'Who is most central?')).statusCode, 403);
    const joke = await ask(f, s.token, 'Tell me a joke');
    assert.equal(joke.statusCode, 202);
    await waitReply(f, s.token, joke.json().reply.id);
    for (const bad of [{ presetQuestions: [] }, { presetQuestions: [''] }, { presetQuestions: ['x'.repeat(501)] }, { presetQuestions: 'x' }, {}, { presetQuestions: ['a'], x: 1 }]) {
      assert.equal((await f.host('PUT', `/api/v2/embed/networks/${net}/chat`, bad)).statusCode, 400, JSON.stringify(bad));
    }
    assert.equal((await f.host('PUT', '/api/v2/embed/networks/000000000000000000000000/chat', { presetQuestions: ['a'] })).statusCode, 404);
    const reset = await f.host('PUT', `/api/v2/embed/networks/${net}/chat`, { presetQuestions: null });
    assert.equal(reset.json().custom, false);
    assert.equal(reset.json().presetQuestions[0], 'Who is most central?');
  });

  test('the default preset questions follow the stored network: a changed network gets its own set', async () => {
    const r = await f.host('POST', '/api/v2/networks', { name: 'Changing', networkJSON: teamNetwork() });
    assert.equal(r.statusCode, 200, r.body);
    const id = r.json()._id as string;
    const presets = async () => (await f.host('GET', `/api/v2/embed/networks/${id}/chat`)).json().presetQuestions as string[];
    assert.ok((await presets()).includes('Color the nodes by team.'));
    assert.ok((await presets()).includes('Color the nodes by team.'), 'asked twice: the same set');
    const renamed = teamNetwork();
    for (const n of renamed.nodes) n.attributes = { name: n.attributes.name, office: n.attributes.team === 'Eng' ? 'Oslo' : 'Lima', score: n.attributes.score } as never;
    const put = await f.host('PUT', `/api/v2/networks/${id}`, { name: 'Changing', networkJSON: renamed });
    assert.equal(put.statusCode, 200, put.body);
    const after = await presets();
    assert.ok(after.includes('Color the nodes by office.'), JSON.stringify(after));
    assert.ok(!after.includes('Color the nodes by team.'));
  });

  test('the organization switch (default on) turns chat off and on', async () => {
    const s = await chatSession(f, net);
    const capabilities = async (token: string) => (await viewer(f.app, token, 'GET', 'session')).json().capabilities;
    assert.equal((await f.host('GET', '/api/v2/embed/chat')).json().aiChat, true);
    assert.deepEqual(await capabilities(s.token), { view: true, edit: true, saveViews: true, runMetrics: true, chat: 'full', chatReason: null });
    const offR = await f.host('PUT', '/api/v2/embed/chat', { aiChat: false });
    assert.equal(offR.statusCode, 200, offR.body);
    const r = await ask(f, s.token, 'Who is most central?');
    assert.equal(r.statusCode, 403);
    assert.match(r.json().detail, /switched off for this organization/);
    assert.equal((await viewer(f.app, s.token, 'GET', 'chat')).json().reason, 'organization-off');
    // session.info says so too: no chat now, and why; chatAccess stays the user's setting.
    const info = (await viewer(f.app, s.token, 'GET', 'session')).json();
    assert.equal(info.capabilities.chat, 'off');
    assert.equal(info.capabilities.chatReason, 'organization-off');
    assert.equal(info.chatAccess, 'full');
    assert.equal((await f.host('PUT', '/api/v2/embed/chat', { aiChat: 'no' })).statusCode, 400);
    await f.host('PUT', '/api/v2/embed/chat', { aiChat: true });
    assert.equal((await capabilities(s.token)).chat, 'full');
    assert.equal((await ask(f, s.token, 'How many nodes?')).statusCode, 202);
    const audit = await f.host('GET', '/api/v2/embed/audit?action=chat.settings');
    assert.deepEqual(audit.json().entries.map((e: { details: unknown }) => e.details), [{ aiChat: true }, { aiChat: false }]);
  });

  test('new conversation; messages of all conversations; cancel without an answer in progress', async () => {
    const s = await chatSession(f, net);
    const first = await askAndWait(f, s.token, 'How many nodes?');
    const n1 = await viewer(f.app, s.token, 'POST', 'chat/new', {});
    assert.equal(n1.statusCode, 200);
    assert.notEqual(n1.json().conversationId, first.conversationId);
    assert.deepEqual((await viewer(f.app, s.token, 'POST', 'chat/new', {})).json().conversationId, n1.json().conversationId, 'an empty conversation is reused');
    assert.deepEqual((await viewer(f.app, s.token, 'GET', 'chat/messages')).json(), []);
    const r = await ask(f, s.token, 'How many nodes?', { newChat: true });
    const second = await waitReply(f, s.token, r.json().reply.id);
    const all = (await viewer(f.app, s.token, 'GET', 'chat/messages?conversation=all')).json();
    assert.equal(all.length, 4);
    assert.deepEqual([...new Set(all.map((m: { conversationId: string }) => m.conversationId))], [first.conversationId, second.conversationId]);
    assert.deepEqual((await viewer(f.app, s.token, 'POST', 'chat/cancel', {})).json(), { cancelled: false });
    assert.equal((await viewer(f.app, s.token, 'GET', 'chat/messages/nope')).statusCode, 404);
  });
});

/** A stub of an OpenAI-compatible /chat/completions: records requests; holds answers while `hold` is set. */
function stubProvider() {
  const requests: { auth: string | undefined; body: Record<string, unknown> }[] = [];
  let release: (() => void)[] = [];
  const state = { hold: false, fail: false, aborted: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      requests.push({ auth: req.headers.authorization, body });
      if (state.hold) {
        let closed = false;
        res.on('close', () => {
          if (!res.writableEnded) {
            closed = true;
            state.aborted++;
          }
        });
        await new Promise<void>((r) => release.push(r));
        if (closed) return;
      }
      if (state.fail) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        return;
      }
      const q = body.messages[body.messages.length - 1].content;
      const message = /color/i.test(q)
        ? { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add_layer', arguments: JSON.stringify({ operation: 'Color', attribute: 'team' }) } }] }
        : { role: 'assistant', content: `Stub answer to: ${q}` };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    });
  });
  return {
    requests,
    state,
    server,
    releaseAll() {
      const r = release;
      release = [];
      for (const fn of r) fn();
    },
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('AI chat: OpenAI-compatible provider (stub), one at a time, cancel, allowance (sqlite)', () => {
  let f: EmbedFixture;
  let net: string;
  const stub = stubProvider();
  before(async () => {
    const port = await stub.listen();
    f = await embedFixture('sqlite', { NETLOOM_AI_BASE_URL: `http://127.0.0.1:${port}/v1/`, NETLOOM_AI_API_KEY: 'sk-test-key', NETLOOM_AI_MODEL: 'stub-model' });
    const r = await f.host('POST', '/api/v2/networks', { name: 'Teams', networkJSON: teamNetwork() });
    net = r.json()._id;
  });
  after(async () => {
    stub.releaseAll();
    await f.t.close();
    await stub.close();
  });

  /** Two chat sessions, and the first one's question accepted (202) while the provider holds its answers. */
  async function heldQuestion() {
    const a = await chatSession(f, net);
    const b = await chatSession(f, net);
    stub.state.hold = true;
    const first = await ask(f, a.token, 'Slow question');
    assert.equal(first.statusCode, 202, first.body);
    return { a, b, first };
  }

  test('answers through /chat/completions with the model, key and network facts; tool calls become actions', async () => {
    const s = await chatSession(f, net);
    assert.equal((await viewer(f.app, s.token, 'GET', 'chat')).json().assistant, 'openai:stub-model');
    const a = await askAndWait(f, s.token, 'Who leads Sales?');
    assert.equal(a.content, 'Stub answer to: Who leads Sales?');
    const req = stub.requests.at(-1)!;
    assert.equal(req.auth, 'Bearer sk-test-key');
    assert.equal(req.body.model, 'stub-model');
    const msgs = req.body.messages as { role: string; content: string }[];
    assert.equal(msgs[0].role, 'system');
    assert.match(msgs[0].content, /Teams; directed; 12 nodes, 31 edges/);
    assert.match(msgs[0].content, /- team \(string, e\.g\. Eng, Sales\)/);
    assert.ok(Array.isArray(req.body.tools));
    const c = await askAndWait(f, s.token, 'Color by team please');
    assert.deepEqual(c.actions, [{ type: 'layer', operation: 'Color', attribute: 'team' }]);
    assert.match(c.content, /color layer on \*\*team\*\*/);
    // The conversation goes along.
    assert.deepEqual((stub.requests.at(-1)!.body.messages as { role: string }[]).map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    stub.state.fail = true;
    const err = await askAndWait(f, s.token, 'Anything');
    stub.state.fail = false;
    assert.equal(err.isError, true);
    assert.equal(err.status, 'error');
    assert.match(err.content, /the AI provider answered 500/);
  });

  test('one question at a time per session (429 RATE_LIMITED while answering); cancel stops it and frees the session', async () => {
    const { a: s, b: other, first } = await heldQuestion();
    const busy = await ask(f, s.token, 'Another one');
    assert.equal(busy.statusCode, 429, busy.body);
    assert.equal(busy.json().code, 'RATE_LIMITED');
    assert.ok(busy.headers['retry-after']);
    const st = (await viewer(f.app, s.token, 'GET', 'chat')).json();
    assert.equal(st.answering.replyId, first.json().reply.id);
    // Another session is not held up.
    const o = await ask(f, other.token, 'Parallel question');
    assert.equal(o.statusCode, 202, o.body);
    // Waiting while pending returns the pending message when the wait ends.
    assert.equal((await viewer(f.app, s.token, 'GET', `chat/messages/${first.json().reply.id}?waitMs=200`)).json().status, 'pending');
    const c = await viewer(f.app, s.token, 'POST', 'chat/cancel', {});
    assert.equal(c.statusCode, 200, c.body);
    assert.equal(c.json().cancelled, true);
    assert.equal(c.json().reply.cancelled, true);
    assert.equal(c.json().reply.id, first.json().reply.id);
    for (let i = 0; i < 50 && stub.state.aborted === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(stub.state.aborted, 1, 'the provider request was aborted');
    const got = await waitReply(f, s.token, first.json().reply.id);
    assert.equal(got.status, 'cancelled');
    assert.equal(got.cancelled, true);
    stub.state.hold = false;
    const again = await ask(f, s.token, 'Next question');
    assert.equal(again.statusCode, 202, again.body);
    stub.releaseAll();
    assert.equal((await waitReply(f, s.token, again.json().reply.id)).content, 'Stub answer to: Next question');
    assert.equal((await waitReply(f, other.token, o.json().reply.id)).content, 'Stub answer to: Parallel question');
    const audit = await f.host('GET', '/api/v2/embed/audit?action=chat.cancel');
    assert.equal(audit.json().entries[0].details.messageId, first.json().reply.id);
  });

  test('the monthly allowance: a question in progress counts; spent → 403 with the reason; a new month renews it', async () => {
    const used = (await f.host('GET', '/api/v2/embed/chat')).json().allowance.used;
    await f.operator({ limits: { aiQuestionsPerMonth: used + 1 } });
    const { a, b, first: r1 } = await heldQuestion();
    const r2 = await ask(f, b.token, 'Another question');
    assert.equal(r2.statusCode, 403, r2.body);
    assert.equal(r2.json().code, 'CHAT_NOT_PERMITTED');
    assert.match(r2.json().detail, /AI allowance for this month is spent \(\d+ questions; it renews on 2026-04-01\)/);
    const st = (await viewer(f.app, b.token, 'GET', 'chat')).json();
    assert.equal(st.reason, 'allowance-spent');
    const caps = (await viewer(f.app, b.token, 'GET', 'session')).json().capabilities;
    assert.equal(caps.chat, 'off');
    assert.equal(caps.chatReason, 'allowance-spent');
    assert.deepEqual(st.allowance, { limit: used + 1, used: used + 1, resetsAt: '2026-04-01T00:00:00.000Z' });
    stub.state.hold = false;
    stub.releaseAll();
    await waitReply(f, a.token, r1.json().reply.id);
    assert.equal((await ask(f, a.token, 'More')).statusCode, 403);
    // A month later (the sessions are gone by then; new ones).
    f.clock.advance(31 * 24 * 3_600_000);
    const c = await chatSession(f, net);
    const r3 = await ask(f, c.token, 'New month');
    assert.equal(r3.statusCode, 202, r3.body);
    await waitReply(f, c.token, r3.json().reply.id);
    await f.operator({ limits: { aiQuestionsPerMonth: 0 } });
    assert.match((await ask(f, c.token, 'Zero')).json().detail, /spent/);
    await f.operator({ limits: { aiQuestionsPerMonth: null } });
  });
});
