/**
 * Managed users (docs/spec/api.md "Managed user", "States and transitions"; docs/spec/decisions.md §5):
 * - a managed user is a `users` row of kind 'managed' (no password, so it cannot sign in; placeholder
 *   e-mail `<userId>@managed.<orgId>.netloom.invalid`, which receives nothing), a membership of the
 *   organization with role = `orgPermission` (so it is listed among the members, flagged embedded), and
 *   an `embed_users` row (externalId, chatAccess, orgPermission, readOnly, status, activity dates);
 * - `PUT` is idempotent: 201 create (a seat is needed), 200 update, 200 reactivation of a deactivated
 *   user (a seat is needed again); `orgPermission`/`readOnly` are fixed after creation (409 when changed;
 *   the same value may be repeated); seats are counted under a lock of the settings row, so two concurrent
 *   creations cannot both take the last seat;
 * - grants (`View`/`Edit`) only on embeddable networks; `readOnly` users get `View` only;
 * - deactivation ends all sessions, removes every grant, frees the seat; saved views stay.
 */
import type { Kysely } from 'kysely';
import type { Database, ManagedUserStatus, SharePermission } from '../../store/schema.ts';
import { inTransaction } from '../../store/db.ts';
import { insertUser, updateUser } from '../../store/users.ts';
import { insertMembership } from '../../store/organizations.ts';
import {
  countActiveManagedUsers,
  deleteAllGrants,
  deleteGrant,
  getManagedUser,
  insertManagedUser,
  listGrants,
  listManagedUsers,
  updateManagedUser,
  upsertGrant,
  type GrantRecord,
  type ManagedUserRecord,
} from '../../store/embed-users.ts';
import { endSessionsWhere } from '../../store/embed-sessions.ts';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';
import { newId } from '../ids.ts';
import { CHAT_ACCESS, ORG_PERMISSIONS, PERMISSIONS, parseExternalId } from './rules.ts';
import { audit, requireEnabled, type Actor, type EmbedContext } from './context.ts';
import { embeddability } from './settings.ts';

export interface ManagedUserWithGrants {
  user: ManagedUserRecord;
  grants: GrantRecord[];
}

export const managedEmail = (userId: string, orgId: string) => `${userId}@managed.${orgId}.netloom.invalid`;

async function withGrants(db: Kysely<Database>, user: ManagedUserRecord): Promise<ManagedUserWithGrants> {
  return { user, grants: await listGrants(db, [user.user_id]) };
}

export async function requireManagedUser(db: Kysely<Database>, orgId: string, externalId: string): Promise<ManagedUserRecord> {
  const u = await getManagedUser(db, orgId, parseExternalId(externalId));
  if (!u) throw new DomainError('NOT_FOUND', `no managed user ${JSON.stringify(externalId)}`);
  return u;
}

interface PutBody {
  displayName?: string;
  chatAccess?: (typeof CHAT_ACCESS)[number];
  orgPermission?: (typeof ORG_PERMISSIONS)[number];
  readOnly?: boolean;
}

function parsePutBody(body: unknown): PutBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('INVALID_ARGS', 'body must be an object', [{ path: '', message: 'must be an object' }]);
  const b = body as Record<string, unknown>;
  const p: DomainErrorItem[] = [];
  for (const k of Object.keys(b)) if (!['displayName', 'chatAccess', 'orgPermission', 'readOnly'].includes(k)) p.push({ path: `/${k}`, message: 'is not a known field (displayName, chatAccess, orgPermission, readOnly)' });
  if (b.displayName !== undefined && (typeof b.displayName !== 'string' || b.displayName.trim().length === 0 || b.displayName.length > 200)) p.push({ path: '/displayName', message: 'must be a String of 1 to 200 characters' });
  if (b.chatAccess !== undefined && !(CHAT_ACCESS as readonly unknown[]).includes(b.chatAccess)) p.push({ path: '/chatAccess', message: `must be one of ${CHAT_ACCESS.map((c) => `"${c}"`).join(', ')}` });
  if (b.orgPermission !== undefined && !(ORG_PERMISSIONS as readonly unknown[]).includes(b.orgPermission)) p.push({ path: '/orgPermission', message: `must be one of ${ORG_PERMISSIONS.map((c) => `"${c}"`).join(', ')}` });
  if (b.readOnly !== undefined && typeof b.readOnly !== 'boolean') p.push({ path: '/readOnly', message: 'must be a Boolean' });
  if (p.length) throw invalidArgs(p);
  return { ...(b as PutBody), displayName: typeof b.displayName === 'string' ? b.displayName.trim() : undefined };
}

/** `PUT /embed/users/:externalId` → { created, user }. */
export async function putManagedUser(ctx: EmbedContext, orgId: string, actor: Actor, externalIdRaw: string, body: unknown): Promise<{ created: boolean; result: ManagedUserWithGrants }> {
  const externalId = parseExternalId(externalIdRaw);
  const input = parsePutBody(body);
  const at = new Date(ctx.now()).toISOString();
  return inTransaction(ctx.db, async (trx) => {
    const settings = await requireEnabled(ctx, orgId, trx, { forUpdate: true }); // serialises seat counting per organization
    const existing = await getManagedUser(trx, orgId, externalId);
    const seatCheck = async () => {
      const used = await countActiveManagedUsers(trx, orgId);
      if (used >= settings.seats) throw new DomainError('EMBEDDED_SEAT_LIMIT', `all ${settings.seats} managed-user seats of the organization are in use; deactivate a managed user or ask the service operator for more seats`);
    };
    if (!existing) {
      if (input.displayName === undefined) throw new DomainError('INVALID_ARGS', 'displayName: is required when creating a managed user', [{ path: '/displayName', message: 'is required on create' }]);
      await seatCheck();
      const userId = newId();
      await insertUser(trx, { id: userId, email: managedEmail(userId, orgId), name: input.displayName, password_hash: null, plan: 'free', status: 'active', kind: 'managed', created: at });
      const orgPermission = input.orgPermission ?? 'Access-only';
      await insertMembership(trx, { org_id: orgId, user_id: userId, role: orgPermission });
      await insertManagedUser(trx, {
        user_id: userId,
        org_id: orgId,
        external_id: externalId,
        chat_access: input.chatAccess ?? 'full',
        org_permission: orgPermission,
        read_only: input.readOnly ? 1 : 0,
        status: 'active',
        created: at,
        modified: at,
        last_active_at: null,
        deactivated_at: null,
      });
      await audit(ctx, orgId, actor, 'user.create', externalId, { displayName: input.displayName, chatAccess: input.chatAccess ?? 'full', orgPermission, readOnly: !!input.readOnly }, trx);
      return { created: true, result: await withGrants(trx, (await getManagedUser(trx, orgId, externalId))!) };
    }
    const immutable: DomainErrorItem[] = [];
    if (input.orgPermission !== undefined && input.orgPermission !== existing.org_permission) immutable.push({ path: '/orgPermission', message: `is fixed after creation (is ${JSON.stringify(existing.org_permission)})` });
    if (input.readOnly !== undefined && input.readOnly !== (existing.read_only === 1)) immutable.push({ path: '/readOnly', message: `is fixed after creation (is ${existing.read_only === 1})` });
    if (immutable.length) throw new DomainError('EMBED_MEMBERSHIP_IMMUTABLE', `${immutable.map((i) => i.path.slice(1)).join(' and ')} of an existing managed user cannot change; create a new managed user instead`, immutable);
    const reactivate = existing.status === 'deactivated';
    if (reactivate) await seatCheck();
    const changes: Record<string, unknown> = {};
    if (input.displayName !== undefined && input.displayName !== existing.display_name) {
      await updateUser(trx, existing.user_id, { name: input.displayName });
      changes.displayName = input.displayName;
    }
    if (input.chatAccess !== undefined && input.chatAccess !== existing.chat_access) changes.chatAccess = input.chatAccess;
    await updateManagedUser(trx, existing.user_id, {
      modified: at,
      ...(input.chatAccess !== undefined ? { chat_access: input.chatAccess } : {}),
      ...(reactivate ? { status: 'active' as ManagedUserStatus, deactivated_at: null } : {}),
    });
    await audit(ctx, orgId, actor, reactivate ? 'user.reactivate' : 'user.update', externalId, changes, trx);
    return { created: false, result: await withGrants(trx, (await getManagedUser(trx, orgId, externalId))!) };
  });
}

export async function getManagedUserWithGrants(ctx: EmbedContext, orgId: string, externalId: string): Promise<ManagedUserWithGrants> {
  await requireEnabled(ctx, orgId);
  return withGrants(ctx.db, await requireManagedUser(ctx.db, orgId, externalId));
}

export async function listManagedUsersPage(
  ctx: EmbedContext,
  orgId: string,
  q: { status?: ManagedUserStatus; limit: number; offset: number },
): Promise<{ total: number; offset: number; limit: number; users: ManagedUserWithGrants[] }> {
  await requireEnabled(ctx, orgId);
  const { total, rows } = await listManagedUsers(ctx.db, orgId, q);
  const grants = await listGrants(ctx.db, rows.map((r) => r.user_id));
  return { total, offset: q.offset, limit: q.limit, users: rows.map((user) => ({ user, grants: grants.filter((g) => g.user_id === user.user_id) })) };
}

/** `PUT /embed/users/:externalId/networks/:networkId` { permission } → the managed user. */
export async function grantNetwork(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string, networkId: string, body: unknown): Promise<ManagedUserWithGrants> {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const extra = Object.keys(b).filter((k) => k !== 'permission');
  if (extra.length) throw new DomainError('INVALID_ARGS', `${extra[0]}: is not a known field (permission)`, extra.map((k) => ({ path: `/${k}`, message: 'is not a known field' })));
  if (!(PERMISSIONS as readonly unknown[]).includes(b.permission)) throw new DomainError('INVALID_ARGS', 'permission: must be "View" or "Edit"', [{ path: '/permission', message: 'must be "View" or "Edit"' }]);
  const permission = b.permission as SharePermission;
  const settings = await requireEnabled(ctx, orgId);
  const user = await requireManagedUser(ctx.db, orgId, externalId);
  if (user.status !== 'active') throw new DomainError('FORBIDDEN', `managed user ${JSON.stringify(externalId)} is deactivated; reactivate it with PUT /embed/users/${externalId} first`);
  if (permission === 'Edit' && user.read_only === 1) throw new DomainError('INVALID_ARGS', 'permission: a readOnly managed user can only be granted "View"', [{ path: '/permission', message: 'must be "View" for a readOnly managed user' }]);
  const e = await embeddability(ctx.db, settings, networkId);
  if (e.result === 'not-found') throw new DomainError('NOT_FOUND', `no network ${JSON.stringify(networkId)}`);
  if (e.result === 'not-embeddable') throw new DomainError('NETWORK_NOT_EMBEDDABLE', `network ${networkId} is not embeddable: ${e.why}`);
  const at = new Date(ctx.now()).toISOString();
  await inTransaction(ctx.db, async (trx) => {
    await upsertGrant(trx, user.user_id, networkId, permission, at);
    await updateManagedUser(trx, user.user_id, { modified: at });
    await audit(ctx, orgId, actor, 'grant.set', externalId, { networkId, permission }, trx);
  });
  return withGrants(ctx.db, (await getManagedUser(ctx.db, orgId, user.external_id))!);
}

/** `DELETE /embed/users/:externalId/networks/:networkId` → the managed user (idempotent). */
export async function removeGrant(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string, networkId: string): Promise<ManagedUserWithGrants> {
  await requireEnabled(ctx, orgId);
  const user = await requireManagedUser(ctx.db, orgId, externalId);
  const at = new Date(ctx.now()).toISOString();
  await inTransaction(ctx.db, async (trx) => {
    const removed = await deleteGrant(trx, user.user_id, networkId);
    if (removed) {
      await updateManagedUser(trx, user.user_id, { modified: at });
      await audit(ctx, orgId, actor, 'grant.remove', externalId, { networkId }, trx);
    }
  });
  return withGrants(ctx.db, (await getManagedUser(ctx.db, orgId, user.external_id))!);
}

/** `POST /embed/users/:externalId/deactivate` → the managed user (idempotent). */
export async function deactivateManagedUser(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string): Promise<ManagedUserWithGrants> {
  await requireEnabled(ctx, orgId);
  const user = await requireManagedUser(ctx.db, orgId, externalId);
  if (user.status === 'active') {
    const at = new Date(ctx.now()).toISOString();
    await inTransaction(ctx.db, async (trx) => {
      const ended = await endSessionsWhere(trx, { orgId, userId: user.user_id }, 'user-deactivated', at);
      await deleteAllGrants(trx, user.user_id);
      await updateManagedUser(trx, user.user_id, { status: 'deactivated', deactivated_at: at, modified: at });
      await audit(ctx, orgId, actor, 'user.deactivate', externalId, { sessionsEnded: ended.length }, trx);
    });
  }
  return withGrants(ctx.db, (await getManagedUser(ctx.db, orgId, user.external_id))!);
}
