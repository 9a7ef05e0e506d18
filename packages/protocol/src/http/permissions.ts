/**
 * Permission levels on the wire (docs/spec/api.md "Embedding organization settings", shares): the
 * server validates and documents with these lists, the web app offers them.
 */

/** What an embedding organization lets its managed users do (`orgPermission`). */
export const ORG_PERMISSIONS = ['Access-only', 'Simplified Access-only', 'Standard User'] as const;
export type EmbedOrgPermission = (typeof ORG_PERMISSIONS)[number];

/** A share's or grant's permission on a network. */
export const PERMISSIONS = ['View', 'Edit'] as const;
export type SharePermission = (typeof PERMISSIONS)[number];
