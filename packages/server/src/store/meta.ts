/** Small key/value facts about the installation (e.g. that the first owner was created). */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export async function getMeta(db: Kysely<Database>, key: string): Promise<string | null> {
  const r = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst();
  return r?.value ?? null;
}

export async function setMeta(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
