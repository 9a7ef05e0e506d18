/**
 * AI chat of embedded sessions (issue 5 item 5): the organization's chat switch, preset questions per
 * network, and the conversations and messages of sessions (which also count the monthly AI allowance).
 */
import { createTable, dropTables, id, index, nullable, ref, text, withDefault, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'embed_chat_settings', [ref('org_id', 'organizations', { primaryKey: true }), withDefault('ai_chat', 'integer', 1), text('modified')]);

  await createTable(db, 'embed_chat_presets', [ref('network_id', 'networks', { primaryKey: true }), ref('org_id', 'organizations'), text('questions', 'modified')]);

  await createTable(db, 'embed_chat_conversations', [id, ref('session_id', 'embed_sessions'), text('created')], {
    indexes: [index('embed_chat_conversations_session_ix', 'session_id', 'created')],
  });

  await createTable(db, 'embed_chat_messages', [
    id,
    ref('org_id', 'organizations'),
    ref('session_id', 'embed_sessions'),
    ref('conversation_id', 'embed_chat_conversations'),
    text('role', 'content'),
    withDefault('is_error', 'integer', 0),
    text('status'),
    nullable('text', 'source', 'reply_to'),
    withDefault('actions', 'text', '[]'),
    text('created'),
    nullable('text', 'finished'),
  ], {
    indexes: [index('embed_chat_messages_conv_ix', 'conversation_id', 'created'), index('embed_chat_messages_org_ix', 'org_id', 'role', 'created')],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'embed_chat_messages', 'embed_chat_conversations', 'embed_chat_presets', 'embed_chat_settings');
}
