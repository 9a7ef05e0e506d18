/**
 * Who may see and change which survey (docs/spec/decisions.md §9: surveys are owned, shareable like
 * networks). A survey belongs to a directory; outside it nothing is found (404). Inside it: an
 * organization credential has every survey of its organization (as owner); a user has the surveys they
 * own and those shared with them (`View` reads, `Edit` also changes, launches, enters answers); anything
 * else is 404. Deleting and sharing need the owner. Shares go to people of the same organization.
 */
import type { Kysely } from 'kysely';
import { nowIso } from '../../store/db.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import type { Database, SharePermission } from '../../store/schema.ts';
import { deleteSurveyShare, getSurveyForUser, listSurveyShares, upsertSurveyShare, type SurveyRecord } from '../../store/surveys.ts';
import { getUserByEmail } from '../../store/users.ts';
import { DomainError, invalidArgs } from '../errors.ts';
import type { Directory } from '../people/directory.ts';

export type SurveyAccess = 'owner' | 'edit' | 'view';

export async function loadSurvey(db: Kysely<Database>, dir: Directory, id: string, need: 'read' | 'edit' | 'owner'): Promise<{ survey: SurveyRecord; access: SurveyAccess }> {
  const row = await getSurveyForUser(db, id, dir.userId);
  const notFound = () => new DomainError('NOT_FOUND', `no survey ${JSON.stringify(id)}`);
  if (!row || row.dir !== dir.key) throw notFound();
  const { share_permission, ...survey } = row;
  let access: SurveyAccess;
  if (dir.principal.orgId || survey.owner_id === dir.userId) access = 'owner';
  else if (share_permission) access = share_permission === 'Edit' ? 'edit' : 'view';
  else throw notFound();
  if (need === 'edit' && access === 'view') throw new DomainError('FORBIDDEN', 'this survey is shared with you to view; changing it needs Edit');
  if (need === 'owner' && access !== 'owner') throw new DomainError('FORBIDDEN', 'only the owner of the survey may do this');
  return { survey, access };
}

export interface SurveyShare {
  userId: string;
  email: string;
  name: string;
  permission: SharePermission;
  created: string;
}

export async function listShares(db: Kysely<Database>, dir: Directory, id: string): Promise<SurveyShare[]> {
  await loadSurvey(db, dir, id, 'read');
  return (await listSurveyShares(db, id)).map((s) => ({ userId: s.user_id, email: s.email, name: s.name, permission: s.permission, created: s.created }));
}

/** Shares a survey with a member of the same organization (`{ email, permission: View | Edit }`). */
export async function shareSurvey(db: Kysely<Database>, dir: Directory, id: string, body: { email?: unknown; permission?: unknown }): Promise<SurveyShare[]> {
  const { survey } = await loadSurvey(db, dir, id, 'owner');
  const problems = [];
  if (body.permission !== 'View' && body.permission !== 'Edit') problems.push({ path: '/permission', message: 'must be "View" or "Edit"' });
  if (typeof body.email !== 'string' || body.email === '') problems.push({ path: '/email', message: 'must be the e-mail of a member of your organization' });
  if (problems.length) throw invalidArgs(problems);
  if (!dir.orgId) throw invalidArgs([{ path: '/email', message: 'a survey of a personal directory cannot be shared; surveys are shared within an organization' }]);
  const user = await getUserByEmail(db, String(body.email).toLowerCase());
  const m = user ? await getMembershipOfUser(db, user.id) : null;
  if (!user || !m || m.org_id !== dir.orgId) throw invalidArgs([{ path: '/email', message: 'is not a member of your organization' }]);
  if (user.id === survey.owner_id) throw invalidArgs([{ path: '/email', message: 'is the owner of the survey' }]);
  await upsertSurveyShare(db, id, user.id, body.permission as SharePermission, nowIso());
  return listShares(db, dir, id);
}

export async function unshareSurvey(db: Kysely<Database>, dir: Directory, id: string, userId: string): Promise<SurveyShare[]> {
  await loadSurvey(db, dir, id, 'owner');
  if (!(await deleteSurveyShare(db, id, userId))) throw new DomainError('NOT_FOUND', 'the survey is not shared with this user');
  return listShares(db, dir, id);
}
