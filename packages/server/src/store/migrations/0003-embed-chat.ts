/**
 * AI chat of embedded sessions (issue 5 item 5): the organization's chat switch, preset questions per
 * network, and the conversations and messages of sessions (which also count the monthly AI allowance).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('embed_chat_settings')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('ai_chat', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('embed_chat_presets')
    .addColumn('network_id', 'text', (c) => c.primaryKey().references('networks.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('embed_chat_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('embed_sessions.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('embed_chat_conversations_session_ix').on('embed_chat_conversations').columns(['session_id', 'created']).execute();

  await db.schema
    .createTable('embed_chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull().references('embed_sessions.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('embed_chat_conversations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_error', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('actions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('finished', 'text')
    .execute();
  await db.schema.createIndex('embed_chat_messages_conv_ix').on('embed_chat_messages').columns(['conversation_id', 'created']).execute();
  await db.schema.createIndex('embed_chat_messages_org_ix').on('embed_chat_messages').columns(['org_id', 'role', 'created']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const t of ['embed_chat_messages', 'embed_chat_conversations', 'embed_chat_presets', 'embed_chat_settings']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
