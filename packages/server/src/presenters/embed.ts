/** Embedding resources → API JSON (DECISIONS.md §5 shapes). */
import type { ManagedUserWithGrants } from '../domain/embed-users.ts';
import type { EmbedViewRecord } from '../store/embed-views.ts';
import type { EmbedViewContent } from '../domain/embed-rules.ts';

export interface ManagedUserResource {
  externalId: string;
  displayName: string;
  status: string;
  chatAccess: string;
  orgPermission: string;
  readOnly: boolean;
  networks: { networkId: string; name: string; permission: string }[];
  created: string;
  modified: string;
  lastActiveAt: string | null;
  deactivatedAt: string | null;
}

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

/** EmbedView v1 (API.md), plus `created` and `modified`. */
export function presentView(v: EmbedViewRecord) {
  const data = JSON.parse(v.data) as EmbedViewContent;
  return {
    version: 1 as const,
    id: v.id,
    name: v.name,
    description: v.description,
    layers: data.layers,
    camera: data.camera,
    display: data.display,
    created: v.created,
    modified: v.modified,
  };
}
