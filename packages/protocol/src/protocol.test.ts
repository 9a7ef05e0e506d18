import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS, COMMAND_NAMES, EVENT_NAMES, ERROR_CODE_NAMES, isCommandName, isProtocolMessage, message, PROTOCOL_VERSION, type RequestMessage } from './index.ts';

test('every command of docs/spec/api.md is in the registry, namespaced', () => {
  const api = ['session.info', 'state.get', 'network.info', 'views.list', 'views.open', 'views.save', 'views.update',
    'layers.filter', 'layers.color', 'layers.size', 'layers.remove', 'layers.clear', 'nodes.find', 'nodes.get',
    'nodes.focus', 'nodes.select', 'nodes.clearSelection', 'camera.fit', 'chat.ask', 'chat.messages', 'chat.open',
    'chat.close', 'chat.new', 'chat.cancel', 'cancel'];
  assert.deepEqual([...COMMAND_NAMES].sort(), [...api].sort());
  for (const name of COMMAND_NAMES) {
    const spec = COMMANDS[name];
    assert.equal(typeof spec.summary, 'string');
    assert.equal(typeof spec.changesState, 'boolean');
    assert.ok(name === 'cancel' || /^[a-z]+\.[a-zA-Z]+$/.test(name), name);
  }
  assert.ok(isCommandName('nodes.find'));
  assert.ok(!isCommandName('toString'));
});

test('events and error codes match docs/spec/api.md', () => {
  assert.deepEqual([...EVENT_NAMES].sort(), ['busy', 'chat.question', 'chat.reply', 'error', 'node.clicked', 'ready', 'selection.changed', 'session.expired', 'state.changed']);
  assert.deepEqual([...ERROR_CODE_NAMES].sort(), ['AMBIGUOUS_NODE', 'CANCELLED', 'INTERNAL', 'INVALID_ARGS', 'NOT_FOUND', 'NOT_PERMITTED', 'RATE_LIMITED', 'SESSION_EXPIRED', 'STALE_STATE', 'TIMEOUT', 'UNKNOWN_COMMAND']);
});

test('messages are stamped and recognised by protocol and version', () => {
  const m = message<RequestMessage>({ type: 'request', id: 'r1', command: 'state.get', args: {}, timeoutMs: 1000 });
  assert.equal(m.v, PROTOCOL_VERSION);
  assert.ok(isProtocolMessage(structuredClone(m)));
  assert.ok(!isProtocolMessage({ ...m, v: 2 }));
  assert.ok(!isProtocolMessage({ type: 'request' }));
  assert.ok(!isProtocolMessage(null));
});
