/** Embedding resources → API JSON (docs/spec/decisions.md §5 shapes). */
import type { Static } from 'typebox';
import { type EmbedViewSchema, type ManagedUserSchema } from '@netloom/protocol/http';
import type { ManagedUserWithGrants } from '../domain/embedding/users.ts';
import type { EmbedViewRecord } from '../store/embed-views.ts';
import type { EmbedViewContent } from '../domain/embedding/rules.ts';

/** The wire shape is the named ManagedUser schema (protocol/src/http/embed.ts). */
export type ManagedUserResource = Static<typeof ManagedUserSchema>;

export function presentManagedUser({ user, grants }: ManagedUserWithGrants): ManagedUserResource {
  return {
    externalId: user.external_id,
    displayName: user.display_name,
    status: user.status,
    chatAccess: user.chat_access,
    orgPermission: user.org_permission,
    readOnly: user.read_only === 1,
    networks: grants.map((g) => ({ networkId: g.network_id, name: g.network_name, permission: g.permission })),
    created: user.created,
    modified: user.modified,
    lastActiveAt: user.last_active_at,
    deactivatedAt: user.deactivated_at,
  };
}

/** EmbedView v1 (docs/spec/api.md), plus `created` and `modified`. */
export type EmbedViewResource = Static<typeof EmbedViewSchema>;

/** Stored content was checked by parseViewBody (domain/embedding/rules.ts) when saved. */
export function presentView(v: EmbedViewRecord): EmbedViewResource {
  const data = JSON.parse(v.data) as EmbedViewContent;
  return {
    version: 1 as const,
    id: v.id,
    name: v.name,
    description: v.description,
    layers: data.layers as EmbedViewResource['layers'],
    camera: data.camera,
    display: data.display,
    created: v.created,
    modified: v.modified,
  };
}
