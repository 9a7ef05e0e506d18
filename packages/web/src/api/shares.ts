/** What sharing a network or a survey says when it worked (both share alike: docs/spec/decisions.md §10.2). */
import type { SharePermission } from './types.ts';

const can = (p: SharePermission) => (p === 'Edit' ? 'can edit' : 'can view');

export const shareSaid = {
  shared: (_: unknown, s: { email: string; permission: SharePermission }) => `Shared with ${s.email} (${can(s.permission)}).`,
  changed: (_: unknown, s: { email: string; permission: SharePermission }) => `${s.email} ${can(s.permission)} now.`,
  removed: (email: string) => `${email} no longer has access.`,
};
