/**
 * First start (issue 2, item 10): on an empty database create an owner account — enterprise plan, its
 * own organization with role Owner, a generated password and a full-access user token — and return them
 * so main.ts prints them once on stderr, apart from the JSON log lines on stdout (formatBanner). Nothing
 * here logs. Runs at most once per database: a `meta`
 * row records it, and a database that already has users is never bootstrapped. Two processes starting
 * together create one owner (transaction + unique e-mail; the loser returns null).
 *
 * The e-mail is `NETLOOM_OWNER_EMAIL` or `owner@netloom.local`.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction } from '../../store/db.ts';
import { getMeta, setMeta } from '../../store/meta.ts';
import type { Database } from '../../store/schema.ts';
import { countUsers } from '../../store/users.ts';
import { createToken } from './credentials/tokens.ts';
import { DomainError } from '../errors.ts';
import { createOrganization, createUser } from './users.ts';
import { generatePassword } from './passwords.ts';

export interface BootstrapResult {
  email: string;
  password: string;
  /** Full-access bearer token (user-owned). */
  token: string;
  userId: string;
  orgId: string;
  orgName: string;
}

const META_KEY = 'bootstrap.owner';

export async function bootstrapOwner(
  db: Kysely<Database>,
  config: Pick<Config, 'limits'>,
  opts: { email?: string; name?: string } = {},
): Promise<BootstrapResult | null> {
  if ((await getMeta(db, META_KEY)) !== null || (await countUsers(db)) > 0) return null;
  const email = opts.email ?? process.env.NETLOOM_OWNER_EMAIL ?? 'owner@netloom.local';
  const password = generatePassword(20);
  try {
    return await inTransaction(db, async (trx) => {
      if ((await getMeta(trx, META_KEY)) !== null || (await countUsers(trx)) > 0) return null;
      const user = await createUser(trx, { email, name: opts.name ?? 'Owner', plan: 'enterprise', password });
      const { org } = await createOrganization(trx, { name: `${user.name}'s organization`, plan: 'enterprise', ownerUserId: user.id });
      const { token } = await createToken(trx, {
        userId: user.id,
        name: 'First-start token',
        maxPerUser: config.limits.maxCredentialsPerUser,
      });
      await setMeta(trx, META_KEY, JSON.stringify({ userId: user.id, at: new Date().toISOString() }));
      return { email: user.email, password, token, userId: user.id, orgId: org.id, orgName: org.name };
    });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'CONFLICT') return null; // another process won the race
    throw err;
  }
}

/**
 * The first-run banner: where to sign in (the web app at `<publicUrl>/`), the e-mail, the generated
 * password, the organization and the full-access API token. main.ts writes it to stderr — never a log
 * line (the JSON logs go to stdout; docs/operations.md).
 */
export function formatBanner(created: BootstrapResult, publicUrl: string): string {
  return [
    '',
    '  Netloom: first start — an owner account was created. This is shown once; keep it safe.',
    `    sign in at:   ${publicUrl}/`,
    `    e-mail:       ${created.email}`,
    `    password:     ${created.password}`,
    `    organization: ${created.orgName}`,
    `    API token (full access): ${created.token}`,
    `    try: curl -H "Authorization: Bearer ${created.token}" ${publicUrl}/api/v2/networks`,
    '',
  ].join('\n') + '\n';
}
