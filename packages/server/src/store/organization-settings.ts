/** Web-app settings of organizations (require MFA). Plain data access. */
import type { Kysely } from 'kysely';
import { upsert } from './queries.ts';
import type { Database } from './schema.ts';

export async function setRequireMfa(db: Kysely<Database>, orgId: string, value: boolean, at: string): Promise<void> {
  const set = { require_mfa: value ? 1 : 0, modified: at };
  await upsert(db, 'organization_settings', ['org_id'], { org_id: orgId, ...set }, set);
}
