/** Web-app settings of organizations (require MFA). Plain data access. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export async function setRequireMfa(db: Kysely<Database>, orgId: string, value: boolean, at: string): Promise<void> {
  await db
    .insertInto('organization_settings')
    .values({ org_id: orgId, require_mfa: value ? 1 : 0, modified: at })
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ require_mfa: value ? 1 : 0, modified: at }))
    .execute();
}
