/**
 * Organization embedding settings (docs/spec/api.md "Embedding organization settings"; issue 4 item 1):
 * - enablement, managed-user seats and per-organization limit overrides: the service operator's levers
 *   (operator API and CLI); turning embedding off ends every session of the organization at once;
 * - allowed host origins, "All owned networks" (default on) or a chosen list, and the data-disclosure
 *   acknowledgement: managed by organization admins (`GET/PUT /embed/settings`, CLI). Removing an origin
 *   ends the sessions on it at once.
 * Embeddable = owned by a member of the organization and (all owned networks on — the default — or
 * listed), as docs/spec/api.md says ("by default all networks owned by members of the organization are
 * embeddable"). The data-disclosure acknowledgement is recorded (who, when; audit log) and shown in the
 * settings; it documents that making networks embeddable authorizes the integration to receive their full
 * content, and does not gate grants or sessions.
 */
import type { Kysely } from 'kysely';
import type { EmbedLimits } from '../../config.ts';
import type { Database } from '../../store/schema.ts';
import { inTransaction } from '../../store/db.ts';
import {
  getEmbedSettings,
  listEmbeddableNetworkIds,
  isListedEmbeddable,
  replaceEmbeddableNetworks,
  updateEmbedSettings,
  type EmbedSettingsRecord,
} from '../../store/embed-settings.ts';
import { countActiveManagedUsers } from '../../store/embed-users.ts';
import { endSessionsWhere } from '../../store/embed-sessions.ts';
import { getMembershipOfUser } from '../../store/organizations.ts';
import { getNetwork } from '../../store/networks.ts';
import { DomainError, invalidArgs, type DomainErrorItem } from '../errors.ts';
import { MAX_EMBEDDABLE_NETWORKS, parseLimitOverrides, parseOrigins } from './rules.ts';
import { audit, limitsOf, type Actor, type EmbedContext } from './context.ts';

/** Whether the operator has enabled embedding for the organization (the web app's organization summary). */
export async function embeddingEnabled(db: Kysely<Database>, orgId: string): Promise<boolean> {
  return (await getEmbedSettings(db, orgId)).enabled === 1;
}

export interface EmbedSettingsView {
  enabled: boolean;
  seats: number;
  seatsUsed: number;
  allowedOrigins: string[];
  allOwnedNetworks: boolean;
  embeddableNetworkIds: string[];
  dataDisclosureAccepted: boolean;
  dataDisclosureAcceptedAt: string | null;
  limits: EmbedLimits;
}

export async function settingsView(ctx: EmbedContext, orgId: string, db: Kysely<Database> = ctx.db): Promise<EmbedSettingsView> {
  const s = await getEmbedSettings(db, orgId);
  return {
    enabled: s.enabled === 1,
    seats: s.seats,
    seatsUsed: await countActiveManagedUsers(db, orgId),
    allowedOrigins: JSON.parse(s.allowed_origins) as string[],
    allOwnedNetworks: s.all_owned_networks === 1,
    embeddableNetworkIds: await listEmbeddableNetworkIds(db, orgId),
    dataDisclosureAccepted: s.disclosure_accepted_at !== null,
    dataDisclosureAcceptedAt: s.disclosure_accepted_at,
    limits: limitsOf(ctx, s),
  };
}

/** Whether the network belongs to the organization (owned by a member). */
export async function isOrgNetwork(db: Kysely<Database>, orgId: string, networkId: string): Promise<boolean> {
  const net = await getNetwork(db, networkId);
  if (!net) return false;
  const m = await getMembershipOfUser(db, net.owner_id);
  return m !== null && m.org_id === orgId;
}

export type Embeddability = 'ok' | 'not-found' | 'not-embeddable';

/** Whether a network can be granted / opened in a session: see the header. */
export async function embeddability(db: Kysely<Database>, settings: EmbedSettingsRecord, networkId: string): Promise<{ result: Embeddability; why?: string }> {
  if (!(await isOrgNetwork(db, settings.org_id, networkId))) return { result: 'not-found' };
  if (settings.all_owned_networks === 1) return { result: 'ok' };
  if (await isListedEmbeddable(db, settings.org_id, networkId)) return { result: 'ok' };
  return { result: 'not-embeddable', why: 'the network is not among the organization’s embeddable networks' };
}

export const SETTINGS_KEYS = ['allowedOrigins', 'allOwnedNetworks', 'embeddableNetworkIds', 'dataDisclosureAccepted'] as const;
/** Keys of the GET answer that a PUT may repeat unchanged (read-only there). */
const READ_ONLY_KEYS = ['enabled', 'seats', 'seatsUsed', 'limits', 'dataDisclosureAcceptedAt'] as const;

/**
 * Applies a subset of { allowedOrigins, allOwnedNetworks, embeddableNetworkIds, dataDisclosureAccepted }.
 * Read-only fields of the GET answer may be sent back unchanged; changing them is 400. Every problem is
 * reported. Sessions on a removed origin end at once.
 */
export async function updateSettings(ctx: EmbedContext, orgId: string, actor: Actor, body: unknown): Promise<EmbedSettingsView> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('INVALID_ARGS', 'body must be an object', [{ path: '', message: 'must be an object' }]);
  const b = body as Record<string, unknown>;
  const current = await settingsView(ctx, orgId);
  const problems: DomainErrorItem[] = [];
  for (const key of Object.keys(b)) {
    if ((SETTINGS_KEYS as readonly string[]).includes(key)) continue;
    if ((READ_ONLY_KEYS as readonly string[]).includes(key)) {
      if (JSON.stringify(b[key]) !== JSON.stringify(current[key as keyof EmbedSettingsView])) {
        problems.push({ path: `/${key}`, message: 'is read-only here (enablement, seats and limits are set by the service operator)' });
      }
      continue;
    }
    problems.push({ path: `/${key}`, message: `is not a setting (settings: ${SETTINGS_KEYS.join(', ')})` });
  }
  let origins: string[] | undefined;
  if (b.allowedOrigins !== undefined) {
    try {
      origins = parseOrigins(b.allowedOrigins);
    } catch (err) {
      if (err instanceof DomainError) problems.push(...(err.errors ?? [{ path: '/allowedOrigins', message: err.detail }]));
      else throw err;
    }
  }
  for (const k of ['allOwnedNetworks', 'dataDisclosureAccepted'] as const) {
    if (b[k] !== undefined && typeof b[k] !== 'boolean') problems.push({ path: `/${k}`, message: 'must be a Boolean' });
  }
  let networkIds: string[] | undefined;
  if (b.embeddableNetworkIds !== undefined) {
    if (!Array.isArray(b.embeddableNetworkIds) || b.embeddableNetworkIds.length > MAX_EMBEDDABLE_NETWORKS) {
      problems.push({ path: '/embeddableNetworkIds', message: `must be an array of at most ${MAX_EMBEDDABLE_NETWORKS} network ids` });
    } else {
      networkIds = [];
      for (const [i, id] of b.embeddableNetworkIds.entries()) {
        if (typeof id !== 'string' || !(await isOrgNetwork(ctx.db, orgId, id))) problems.push({ path: `/embeddableNetworkIds/${i}`, message: `${JSON.stringify(id)} is not a network owned by a member of this organization` });
        else if (!networkIds.includes(id)) networkIds.push(id);
      }
    }
  }
  if (problems.length) throw invalidArgs(problems);

  const at = new Date(ctx.now()).toISOString();
  const changed: Record<string, unknown> = {};
  await inTransaction(ctx.db, async (trx) => {
    const patch: Partial<EmbedSettingsRecord> = {};
    if (origins !== undefined) {
      patch.allowed_origins = JSON.stringify(origins);
      changed.allowedOrigins = origins;
    }
    if (typeof b.allOwnedNetworks === 'boolean') {
      patch.all_owned_networks = b.allOwnedNetworks ? 1 : 0;
      changed.allOwnedNetworks = b.allOwnedNetworks;
    }
    if (typeof b.dataDisclosureAccepted === 'boolean') {
      if (b.dataDisclosureAccepted && !current.dataDisclosureAccepted) {
        patch.disclosure_accepted_at = at;
        patch.disclosure_accepted_by = `${actor.kind}:${actor.id}`;
      } else if (!b.dataDisclosureAccepted) {
        patch.disclosure_accepted_at = null;
        patch.disclosure_accepted_by = null;
      }
      changed.dataDisclosureAccepted = b.dataDisclosureAccepted;
    }
    await updateEmbedSettings(trx, orgId, patch, at);
    if (networkIds !== undefined) {
      await replaceEmbeddableNetworks(trx, orgId, networkIds, at);
      changed.embeddableNetworkIds = networkIds;
    }
    if (origins !== undefined) {
      const ended = await endSessionsWhere(trx, { orgId, originNotIn: origins }, 'origin-removed', at);
      if (ended.length) changed.sessionsEnded = ended.length;
    }
    await audit(ctx, orgId, actor, 'settings.update', null, changed, trx);
  });
  return settingsView(ctx, orgId);
}

export interface EnablementInput {
  enabled?: boolean;
  seats?: number;
  /** Per-organization overrides (null value = back to the default). */
  limits?: Record<string, unknown>;
}

/**
 * The operator's levers: turn embedding on/off, set the number of managed-user seats, override limits.
 * Turning it off ends every open session of the organization. Lowering seats below the seats in use is
 * allowed: existing managed users stay active, new ones and reactivations are refused until seats free up.
 */
export async function setEnablement(ctx: EmbedContext, orgId: string, actor: Actor, input: EnablementInput): Promise<EmbedSettingsView> {
  if (input.seats !== undefined && (!Number.isInteger(input.seats) || input.seats < 0 || input.seats > 10_000_000)) {
    throw new DomainError('INVALID_ARGS', 'seats: must be a whole number from 0 to 10000000', [{ path: '/seats', message: 'must be a whole number from 0 to 10000000' }]);
  }
  const at = new Date(ctx.now()).toISOString();
  await inTransaction(ctx.db, async (trx) => {
    const s = await getEmbedSettings(trx, orgId, { forUpdate: true });
    const patch: Partial<EmbedSettingsRecord> = {};
    const details: Record<string, unknown> = {};
    if (input.enabled !== undefined) {
      patch.enabled = input.enabled ? 1 : 0;
      details.enabled = input.enabled;
    }
    if (input.seats !== undefined) {
      patch.seats = input.seats;
      details.seats = input.seats;
    }
    if (input.limits !== undefined) {
      const overrides = parseLimitOverrides(input.limits, JSON.parse(s.limits) as Partial<EmbedLimits>);
      patch.limits = JSON.stringify(overrides);
      details.limits = overrides;
    }
    await updateEmbedSettings(trx, orgId, patch, at);
    if (input.enabled === false) {
      const ended = await endSessionsWhere(trx, { orgId }, 'embedding-disabled', at);
      details.sessionsEnded = ended.length;
    }
    const action = input.enabled === true ? 'embedding.enable' : input.enabled === false ? 'embedding.disable' : 'embedding.configure';
    await audit(ctx, orgId, actor, action, null, details, trx);
  });
  return settingsView(ctx, orgId);
}
