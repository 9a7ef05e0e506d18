/** Who a request acts as: the principal of an API credential or of a web-app session. */
import type { MembershipRecord, OrganizationRecord } from '../../../store/organizations.ts';
import type { CredentialKind, Plan } from '../../../store/schema.ts';
import type { UserRecord } from '../../../store/users.ts';

export interface Principal {
  /** The credential's id; `web:<session id>` for a web-app session. */
  credentialId: string;
  /** Credential kind, or `session` for a web-app session (http/web-session.ts). */
  kind: CredentialKind | 'session';
  /** How the request authenticated: an API credential, or a web-app session cookie (only on /app/api). */
  via: 'credential' | 'session';
  /** Owner of a user credential; creator of an organization credential. */
  userId: string;
  /** Set for organization-owned credentials. */
  orgId: string | null;
  scopes: ReadonlySet<string>;
  user: UserRecord;
  /** The owning organization of an organization credential (null for user credentials). */
  org: OrganizationRecord | null;
  /** The user's own membership (any credential kind), e.g. for owner resolution and informal* metrics. */
  membership: MembershipRecord | null;
  /** The plan that governs this credential: the organization's for org credentials, else the user's. */
  plan: Plan;
}
