/** AI chat of embedded sessions (repository; rules in domain/embedding/chat.ts). */
import type { Kysely, Selectable } from 'kysely';
import { updatedAny, upsert } from './queries.ts';
import type { Database, EmbedChatMessagesTable } from './schema.ts';

export type ChatMessageRecord = Selectable<EmbedChatMessagesTable>;

/** The organization's AI chat switch; on when never set. */
export async function getAiChatSwitch(db: Kysely<Database>, orgId: string): Promise<boolean> {
  const r = await db.selectFrom('embed_chat_settings').select('ai_chat').where('org_id', '=', orgId).executeTakeFirst();
  return r ? r.ai_chat === 1 : true;
}

export async function setAiChatSwitch(db: Kysely<Database>, orgId: string, on: boolean, at: string): Promise<void> {
  const set = { ai_chat: on ? 1 : 0, modified: at };
  await upsert(db, 'embed_chat_settings', ['org_id'], { org_id: orgId, ...set }, set);
}

/** Preset questions set for a network, or null when none are set (the default set applies). */
export async function getPresetQuestions(db: Kysely<Database>, networkId: string): Promise<string[] | null> {
  const r = await db.selectFrom('embed_chat_presets').select('questions').where('network_id', '=', networkId).executeTakeFirst();
  return r ? (JSON.parse(r.questions) as string[]) : null;
}

export async function setPresetQuestions(db: Kysely<Database>, orgId: string, networkId: string, questions: string[] | null, at: string): Promise<void> {
  if (questions === null) {
    await db.deleteFrom('embed_chat_presets').where('network_id', '=', networkId).execute();
    return;
  }
  const q = JSON.stringify(questions);
  await upsert(db, 'embed_chat_presets', ['network_id'], { network_id: networkId, org_id: orgId, questions: q, modified: at }, { questions: q, org_id: orgId, modified: at });
}

/** The session's current conversation (the newest), or null before the first one. */
export async function currentConversation(db: Kysely<Database>, sessionId: string): Promise<string | null> {
  const r = await db.selectFrom('embed_chat_conversations').select('id').where('session_id', '=', sessionId).orderBy('created', 'desc').orderBy('id', 'desc').executeTakeFirst();
  return r?.id ?? null;
}

export async function insertConversation(db: Kysely<Database>, id: string, sessionId: string, at: string): Promise<void> {
  await db.insertInto('embed_chat_conversations').values({ id, session_id: sessionId, created: at }).execute();
}

export async function listConversationIds(db: Kysely<Database>, sessionId: string): Promise<string[]> {
  const rows = await db.selectFrom('embed_chat_conversations').select('id').where('session_id', '=', sessionId).orderBy('created').orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function insertMessage(db: Kysely<Database>, m: ChatMessageRecord): Promise<void> {
  await db.insertInto('embed_chat_messages').values(m).execute();
}

export async function getMessage(db: Kysely<Database>, id: string): Promise<ChatMessageRecord | undefined> {
  return db.selectFrom('embed_chat_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Messages of conversations, oldest first (ids sort by time within a conversation). */
export async function listMessages(db: Kysely<Database>, conversationIds: string[]): Promise<ChatMessageRecord[]> {
  if (conversationIds.length === 0) return [];
  return db.selectFrom('embed_chat_messages').selectAll().where('conversation_id', 'in', conversationIds).orderBy('created').orderBy('id').execute();
}

/** The session's answer in progress, if any. */
export async function pendingReply(db: Kysely<Database>, sessionId: string): Promise<ChatMessageRecord | undefined> {
  return db.selectFrom('embed_chat_messages').selectAll().where('session_id', '=', sessionId).where('status', '=', 'pending').orderBy('created', 'desc').executeTakeFirst();
}

/** Finishes a pending answer; false when it was no longer pending (cancelled first). */
export async function finishReply(
  db: Kysely<Database>,
  id: string,
  patch: { content: string; is_error: number; status: 'done' | 'error' | 'cancelled'; actions: string; finished: string },
): Promise<boolean> {
  return updatedAny(db.updateTable('embed_chat_messages').set(patch).where('id', '=', id).where('status', '=', 'pending'));
}

/** User messages of the organization created at or after `since` (ISO), ordered; for the monthly allowance. */
export async function questionIdsSince(db: Kysely<Database>, orgId: string, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('embed_chat_messages')
    .select('id')
    .where('org_id', '=', orgId)
    .where('role', '=', 'user')
    .where('created', '>=', since)
    .orderBy('created')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function countQuestionsSince(db: Kysely<Database>, orgId: string, since: string): Promise<number> {
  const r = await db
    .selectFrom('embed_chat_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'user')
    .where('created', '>=', since)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function deleteMessages(db: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('embed_chat_messages').where('id', 'in', ids).execute();
}
