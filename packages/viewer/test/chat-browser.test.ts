/**
 * AI chat end to end in Debian's Chromium (issue 5 item 5): a host page on another origin embeds sessions
 * of the real service (offline assistant). chat.ask → chat.question + chat.reply; an assistant-added layer
 * raises state.changed; RATE_LIMITED while answering; NOT_PERMITTED for ui.aiChat false and chatAccess
 * off; presetOnly offers the preset questions as buttons and holds chat.ask to them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { events, sdk, skipBrowser as skip, startBrowserEnv, waitForEvent, type BrowserEnv } from './helpers/browser-env.ts';
import { teamNetwork } from '../../server/test/helpers/graphs.ts';


let env: BrowserEnv;
let networkId: string;

before(async () => {
  if (skip) return;
  env = await startBrowserEnv();
  networkId = await env.network('Teams', teamNetwork());
  await env.user('full', networkId, { chatAccess: 'full' });
  await env.user('off', networkId, { chatAccess: 'off' });
  await env.user('preset', networkId, { chatAccess: 'presetOnly' });
});

after(async () => {
  await env?.close();
});

async function embedded(externalId: string, body: Record<string, unknown> = {}): Promise<Page> {
  return env.open(await env.session(externalId, networkId, body));
}

const frame = (page: Page) => page.frameLocator('#viewer iframe');

test('chat.ask → chat.question and chat.reply (Markdown from the network); chat.messages; panel open/close bump the revision', { skip, timeout: 60_000 }, async () => {
  const page = await embedded('full');
  await frame(page).locator('.nl-chat-button').waitFor({ state: 'visible' });
  assert.equal(await frame(page).locator('.nl-chat-panel').isVisible(), false);
  const r0 = (await sdk(page, 'state.get')).value as { revision: number };

  const asked = await sdk(page, 'chat.ask', 'Who is most central?');
  assert.ok(asked.ok, JSON.stringify(asked));
  const { messageId } = asked.value as { messageId: string };
  const q = await waitForEvent(page, (e) => e.name === 'chat.question');
  assert.deepEqual({ ...q, revision: undefined }, { name: 'chat.question', messageId, content: 'Who is most central?', source: 'host', revision: undefined });
  const reply = await waitForEvent(page, (e) => e.name === 'chat.reply');
  assert.equal(reply.isError, false);
  assert.equal(reply.cancelled, undefined);
  assert.match(String(reply.content), /\*\*Most central by degree\*\*[^]*\*\*Bridget\*\* — 6 connections/);
  // The panel opened on the conversation (a visible change), and shows the answer rendered.
  assert.equal(await frame(page).locator('.nl-chat-panel').isVisible(), true);
  assert.ok((await events(page)).some((e) => e.name === 'state.changed' && e.reason === 'chat.open'));
  await frame(page).locator('.nl-chat-assistant strong', { hasText: 'Bridget' }).first().waitFor();
  const r1 = (await sdk(page, 'state.get')).value as { revision: number; dirty: boolean };
  assert.ok(r1.revision > r0.revision);

  const msgs = await sdk(page, 'chat.messages');
  assert.ok(msgs.ok);
  const list = msgs.value as { id: string; role: string; content: string; isError: boolean }[];
  assert.deepEqual(list.map((m) => [m.role, m.isError]), [['user', false], ['assistant', false]]);
  assert.equal(list[0].id, messageId);
  assert.equal(list[1].id, reply.messageId);

  // The viewer types a question: chat.question with source viewer, then chat.reply.
  await frame(page).locator('.nl-chat-input').fill('How many nodes have team Sales?');
  await frame(page).locator('.nl-chat-send').click();
  const vq = await waitForEvent(page, (e) => e.name === 'chat.question' && e.source === 'viewer');
  assert.equal(vq.content, 'How many nodes have team Sales?');
  const vr = await waitForEvent(page, (e) => e.name === 'chat.reply' && e.messageId !== reply.messageId);
  assert.match(String(vr.content), /\*\*6\*\* of 12 nodes/);

  const closed = await sdk(page, 'chat.close');
  assert.ok(closed.ok);
  assert.equal(await frame(page).locator('.nl-chat-panel').isVisible(), false);
  assert.ok((await sdk(page, 'chat.open')).ok);
  assert.equal(await frame(page).locator('.nl-chat-panel').isVisible(), true);
  assert.ok((await sdk(page, 'chat.new')).ok);
  assert.deepEqual((await sdk(page, 'chat.messages')).value, []);
  assert.equal((await sdk(page, 'chat.cancel')).ok, true);
  assert.equal((await sdk(page, 'chat.ask', 'x'.repeat(4001))).code, 'INVALID_ARGS');
  await page.close();
});

test('an assistant-added layer and an opened view raise state.changed', { skip, timeout: 60_000 }, async () => {
  const page = await embedded('full');
  const before = (await sdk(page, 'state.get')).value as { revision: number; layers: unknown[] };
  assert.deepEqual(before.layers, []);
  assert.ok((await sdk(page, 'chat.ask', 'Color the nodes by team')).ok);
  const changed = await waitForEvent(page, (e) => e.name === 'state.changed' && e.reason === 'layers.color');
  assert.ok(changed.revision > before.revision);
  const reply = await waitForEvent(page, (e) => e.name === 'chat.reply');
  assert.match(String(reply.content), /Colored the nodes by \*\*team\*\*/);
  const st = (await sdk(page, 'state.get')).value as { layers: { operation: string; attribute: string }[]; revision: number };
  assert.deepEqual(st.layers.map((l) => [l.operation, l.attribute]), [['Color', 'team']]);
  assert.ok(reply.revision >= changed.revision, 'the reply comes after the layer was applied');

  const saved = await sdk(page, 'views.save', { name: 'Sales team' });
  assert.ok(saved.ok, JSON.stringify(saved));
  assert.ok((await sdk(page, 'layers.clear')).ok);
  assert.ok((await sdk(page, 'chat.ask', 'Open the view Sales team')).ok);
  await waitForEvent(page, (e) => e.name === 'state.changed' && e.reason === 'views.open');
  const st2 = (await sdk(page, 'state.get')).value as { viewId: string; layers: unknown[] };
  assert.equal(st2.viewId, (saved.value as { id: string }).id);
  assert.equal(st2.layers.length, 1);
  await page.close();
});

test('RATE_LIMITED while a question is being answered', { skip, timeout: 60_000 }, async () => {
  const page = await embedded('full');
  // Hold the answer's delivery to the viewer (its long poll) until released.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v2/embed/viewer/chat/messages/*', async (route) => {
    await held;
    await route.continue();
  });
  assert.ok((await sdk(page, 'chat.ask', 'Which communities are there?')).ok);
  const second = await sdk(page, 'chat.ask', 'Who is most central?');
  assert.equal(second.code, 'RATE_LIMITED');
  assert.match(String(second.message), /another question is being answered/);
  // The panel's own send is disabled meanwhile.
  assert.equal(await frame(page).locator('.nl-chat-send').isDisabled(), true);
  release();
  const reply = await waitForEvent(page, (e) => e.name === 'chat.reply');
  assert.match(String(reply.content), /\*\*2 communities\*\*/);
  await page.unroute('**/api/v2/embed/viewer/chat/messages/*');
  assert.ok((await sdk(page, 'chat.ask', 'Who is most central?')).ok);
  await page.close();
});

test('NOT_PERMITTED when ui.aiChat is false (no button) and when chatAccess is off', { skip, timeout: 60_000 }, async () => {
  const hidden = await embedded('full', { ui: { aiChat: false } });
  const off = await embedded('off');
  for (const [page, why] of [[hidden, /ui\.aiChat is false/], [off, /chatAccess is off/]] as const) {
    const r = await sdk(page, 'chat.ask', 'Who is most central?');
    assert.equal(r.code, 'NOT_PERMITTED');
    assert.match(String(r.message), why);
    for (const c of ['chat.messages', 'chat.open', 'chat.close', 'chat.new', 'chat.cancel']) assert.equal((await sdk(page, c)).code, 'NOT_PERMITTED', c);
    assert.equal(await frame(page).locator('.nl-chat-button').count(), 0);
    assert.equal((await events(page)).filter((e) => e.name.startsWith('chat.')).length, 0);
    await page.close();
  }
  // The organization's switch off: the viewer's question is refused with the reason.
  await env.api('PUT', '/api/v2/embed/chat', { aiChat: false });
  try {
    const page = await embedded('full');
    const r = await sdk(page, 'chat.ask', 'Who is most central?');
    assert.equal(r.code, 'NOT_PERMITTED');
    assert.match(String(r.message), /switched off for this organization/);
    await frame(page).locator('.nl-chat-button').click();
    await frame(page).locator('.nl-chat-notice', { hasText: 'switched off' }).waitFor();
    await page.close();
  } finally {
    await env.api('PUT', '/api/v2/embed/chat', { aiChat: true });
  }
});

test('presetOnly: preset questions as buttons, chat.ask held to them', { skip, timeout: 60_000 }, async () => {
  const page = await embedded('preset');
  await frame(page).locator('.nl-chat-button').click();
  const buttons = frame(page).locator('.nl-chat-preset');
  await buttons.first().waitFor();
  assert.deepEqual(await buttons.allTextContents(), [
    'Who is most central?', 'Which communities are there?', 'What attributes do the nodes have?', 'How many nodes have team Eng?',
    'Color the nodes by team.', 'Size the nodes by score.', 'Who is connected to Bridget?',
  ]);
  assert.equal(await frame(page).locator('.nl-chat-input').isVisible(), false, 'no free text');
  const refused = await sdk(page, 'chat.ask', 'Tell me everything');
  assert.equal(refused.code, 'NOT_PERMITTED');
  assert.match(String(refused.message), /preset questions/);
  const ok = await sdk(page, 'chat.ask', 'Which communities are there?');
  assert.ok(ok.ok, JSON.stringify(ok));
  await waitForEvent(page, (e) => e.name === 'chat.reply');
  // A click on a preset asks it as the viewer.
  await buttons.filter({ hasText: 'Color the nodes by team.' }).click();
  const q = await waitForEvent(page, (e) => e.name === 'chat.question' && e.source === 'viewer');
  assert.equal(q.content, 'Color the nodes by team.');
  await waitForEvent(page, (e) => e.name === 'state.changed' && e.reason === 'layers.color');
  await page.close();
});
