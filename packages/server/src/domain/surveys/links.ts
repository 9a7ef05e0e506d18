/**
 * Respondent links (docs/spec/decisions.md §9, "Respondent links"; docs/security.md "Survey links").
 *
 * A link token is HMAC-SHA256(link key, `r:<surveyId>:<employeeId>:<generation>`), base64url (43
 * characters, 256 bits): unguessable without the key, and the same every time it is derived, so the
 * owner can download the links (or the mailer send them) whenever needed while the database stores only
 * SHA-256 of the token (looked up on every respondent request). Re-issuing bumps the generation (the old
 * token stops working at once); revoking clears the stored hash. The open link of a survey is made the
 * same way from `o:<surveyId>:<generation>`; pseudonyms from `p:<surveyId>:<employeeId>`.
 *
 * The key is NETLOOM_SURVEY_LINK_KEY, else one generated on first use and kept in the database (meta
 * `survey_link_key`): with it set outside the database, a copy of the database alone yields no link.
 */
import { createHmac, hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { getMeta } from '../../store/meta.ts';
import type { Database } from '../../store/schema.ts';

const META_KEY = 'survey_link_key';
const loaders = new WeakMap<Kysely<Database>, Promise<Buffer>>();

/** The link key (cached per database handle). */
export function linkKey(db: Kysely<Database>, config: Config): Promise<Buffer> {
  if (config.surveys.linkKey) return Promise.resolve(Buffer.from(config.surveys.linkKey, 'utf8'));
  let p = loaders.get(db);
  if (!p) {
    p = (async () => {
      const existing = await getMeta(db, META_KEY);
      if (existing) return Buffer.from(existing, 'base64');
      const fresh = randomBytes(32).toString('base64');
      await db.insertInto('meta').values({ key: META_KEY, value: fresh }).onConflict((oc) => oc.column('key').doNothing()).execute();
      return Buffer.from((await getMeta(db, META_KEY)) ?? fresh, 'base64');
    })();
    p.catch(() => loaders.delete(db));
    loaders.set(db, p);
  }
  return p;
}

function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

export function respondentToken(key: Buffer, surveyId: string, employeeId: string, generation: number): string {
  return mac(key, `r:${surveyId}:${employeeId}:${generation}`);
}

export function openLinkToken(key: Buffer, surveyId: string, generation: number): string {
  return mac(key, `o:${surveyId}:${generation}`);
}

/** A stable random code per (survey, person) for pseudonymised surveys. */
export function pseudonymOf(key: Buffer, surveyId: string, employeeId: string): string {
  return `P-${createHmac('sha256', key).update(`p:${surveyId}:${employeeId}`).digest('hex').slice(0, 10).toUpperCase()}`;
}

/** What the database stores of a token. */
export function tokenHash(token: string): string {
  // the one-shot hash: no Hash object per respondent request
  return hash('sha256', token, 'hex');
}

/** A token's shape: 43 base64url characters. Anything else is refused before any lookup. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function respondentUrl(config: Config, token: string): string {
  return `${config.publicUrl}/s/${token}`;
}

export function openUrl(config: Config, token: string): string {
  return `${config.publicUrl}/s/open/${token}`;
}
