/**
 * Provisioning: the managed-user commands as the public embedding API (`/api/v2/embed/users/...`,
 * organization credentials) and the organization console (`/app/api/organization/embedding/users/...`,
 * Owners and Admins) both run them — embedding must be on, then the per-organization hourly provisioning
 * allowance is counted (docs/spec/api.md Limits), then the command of users.ts runs with the caller as
 * the audit actor. One place, so the two doors cannot drift apart.
 */
import { requireEnabled, type Actor, type EmbedContext } from './context.ts';
import { checkProvisioningRate } from './sessions.ts';
import { deactivateManagedUser, grantNetwork, putManagedUser, removeGrant, type ManagedUserWithGrants } from './users.ts';

/** Embedding on (403 EMBEDDING_DISABLED), then one call of the hourly provisioning allowance (429). */
export async function checkProvisioning(ctx: EmbedContext, orgId: string): Promise<void> {
  const settings = await requireEnabled(ctx, orgId);
  await checkProvisioningRate(ctx, orgId, settings);
}

/** Create or update a managed user (reactivates a deactivated one). */
export async function provisionManagedUser(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string, body: unknown): Promise<{ created: boolean; result: ManagedUserWithGrants }> {
  await checkProvisioning(ctx, orgId);
  return putManagedUser(ctx, orgId, actor, externalId, body);
}

/** Grant View or Edit on an embeddable network. */
export async function provisionGrant(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string, networkId: string, body: unknown): Promise<ManagedUserWithGrants> {
  await checkProvisioning(ctx, orgId);
  return grantNetwork(ctx, orgId, actor, externalId, networkId, body);
}

/** Remove a grant. */
export async function provisionGrantRemoval(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string, networkId: string): Promise<ManagedUserWithGrants> {
  await checkProvisioning(ctx, orgId);
  return removeGrant(ctx, orgId, actor, externalId, networkId);
}

/** Deactivate: ends sessions, removes access, frees the seat. */
export async function provisionDeactivation(ctx: EmbedContext, orgId: string, actor: Actor, externalId: string): Promise<ManagedUserWithGrants> {
  await checkProvisioning(ctx, orgId);
  return deactivateManagedUser(ctx, orgId, actor, externalId);
}
