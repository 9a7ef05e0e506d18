/**
 * TypeBox schemas of the organization console's endpoints (`/app/api/organization/...`, docs/web-app.md
 * "Organization console"): members, the organization overview, and the embedding console (live sessions,
 * audit log, network chooser, try-it session with its snippet). Shapes shared with the public embedding
 * API (managed users, settings, chat settings, audit entries) are the API's named schemas (http/embed.ts);
 * the console's own are named here (CONSOLE_SCHEMAS).
 */
import { Type } from 'typebox';
import { ChatSettingsSchema, EmbedSettingsSchema } from './embed.ts';
import { ref } from './ref.ts';
import { OrgRoleSchema } from './web.ts';

const DateTime = Type.String({ format: 'date-time' });

export const OrganizationMemberSchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    role: ref(OrgRoleSchema),
    status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('unverified')]),
    joined: DateTime,
    embedded: Type.Boolean({ description: 'A managed (embedded) user: governed by the embedding console, not as a member.' }),
    externalId: Type.Optional(Type.String()),
    embedStatus: Type.Optional(Type.String()),
  },
  { $id: 'OrganizationMember', additionalProperties: false },
);

export const OrganizationOverviewSchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    created: DateTime,
    memberCount: Type.Integer(),
    managedUserCount: Type.Integer(),
    networkCounts: Type.Object({ public: Type.Integer(), private: Type.Integer() }, { additionalProperties: false }),
    embedding: Type.Object({ enabled: Type.Boolean(), seats: Type.Integer(), seatsUsed: Type.Integer() }, { additionalProperties: false }),
    role: ref(OrgRoleSchema),
    canManage: Type.Boolean({ description: 'Owner or Admin: may use the console’s actions.' }),
    requireMfa: Type.Boolean(),
  },
  { $id: 'OrganizationOverview', additionalProperties: false },
);

export const AddMemberBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), role: ref(OrgRoleSchema) },
  { $id: 'AddMemberBody', additionalProperties: false },
);
export const ChangeRoleBody = Type.Object({ role: ref(OrgRoleSchema) }, { $id: 'ChangeRoleBody', additionalProperties: false });
export const MemberParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) });
export const MemberListSchema = Type.Object({ members: Type.Array(ref(OrganizationMemberSchema)) }, { $id: 'OrganizationMemberList', additionalProperties: false });

export const LiveSessionSchema = Type.Object(
  {
    sessionId: Type.String(),
    user: Type.Object({ externalId: Type.String(), displayName: Type.String() }, { additionalProperties: false }),
    network: Type.Object({ _id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    origin: Type.String(),
    created: DateTime,
    expiresAt: DateTime,
    lastActivityAt: DateTime,
  },
  { $id: 'LiveEmbedSession', additionalProperties: false },
);

export const LiveSessionPageSchema = Type.Object(
  { total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), sessions: Type.Array(ref(LiveSessionSchema)) },
  { $id: 'LiveEmbedSessionPage', additionalProperties: false },
);

export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 100, description: 'An action (`member.role`), or a kind of event ending with a dot (`invitation.`: every invitation event).' })),
    actor: Type.Optional(Type.String({ maxLength: 100, description: 'Actor id (a user, credential or managed user).' })),
    actorKind: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('managed_user'), Type.Literal('credential'), Type.Literal('anonymous'), Type.Literal('operator'), Type.Literal('cli')], { description: 'Only entries by this kind of actor.' })),
    target: Type.Optional(Type.String({ maxLength: 200, description: 'Target: a managed user external id, member id, session id or network id.' })),
    from: Type.Optional(Type.String({ maxLength: 40, description: 'Date (2026-11-24) or ISO date-time; inclusive.' })),
    to: Type.Optional(Type.String({ maxLength: 40, description: 'Date (whole day included) or ISO date-time; exclusive.' })),
    limit: Type.Optional(Type.String({ maxLength: 9, description: '1 to 500, default 50' })),
    offset: Type.Optional(Type.String({ maxLength: 9, description: 'default 0' })),
  },
  { additionalProperties: false },
);

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ maxLength: 9, description: '1 to 500, default 50' })),
    offset: Type.Optional(Type.String({ maxLength: 9, description: 'default 0' })),
  },
  { additionalProperties: false },
);

export const NetworkChoiceSchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    status: Type.String(),
    owner: Type.Object({ _id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    nodeCount: Type.Integer(),
    edgeCount: Type.Integer(),
    modified: DateTime,
    embeddable: Type.Boolean(),
    listed: Type.Boolean(),
  },
  { $id: 'EmbeddingNetworkChoice', additionalProperties: false },
);
export const NetworkChoicesSchema = Type.Object(
  { allOwnedNetworks: Type.Boolean(), networks: Type.Array(ref(NetworkChoiceSchema)) },
  { $id: 'EmbeddingNetworkChoices', additionalProperties: false },
);

export const TrySessionBody = Type.Object(
  {
    externalId: Type.String({ minLength: 1, maxLength: 200 }),
    networkId: Type.String({ minLength: 1, maxLength: 100 }),
    origin: Type.String({ minLength: 1, maxLength: 300, description: 'An allowed host origin (exact scheme://host[:port]).' }),
    maxMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
  },
  { $id: 'EmbedTrySessionBody', additionalProperties: false },
);

export const TrySessionSchema = Type.Object(
  {
    sessionId: Type.String(),
    embedUrl: Type.String(),
    expiresAt: DateTime,
    launchToken: Type.String({ description: 'Single use, 60 s: the preview redeems it at once.' }),
    origin: Type.String(),
    previewAvailable: Type.Boolean({ description: "The web app's own origin is the session's origin, so the console can draw a live preview." }),
    snippet: Type.Object({ backend: Type.String(), page: Type.String() }, { additionalProperties: false }),
  },
  { $id: 'EmbedTrySession', additionalProperties: false },
);

export const ConsoleLaunchTokenSchema = Type.Object({ launchToken: Type.String() }, { $id: 'ConsoleLaunchToken', additionalProperties: false });
export const ConsoleSessionIdParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ExternalIdParams = Type.Object({ externalId: Type.String({ minLength: 1, maxLength: 200 }) });
export const GrantParams = Type.Object({ externalId: Type.String({ minLength: 1, maxLength: 200 }), networkId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ConsoleNetworkIdParams = Type.Object({ networkId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ConsoleManagedUserListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('deactivated')])),
    limit: Type.Optional(Type.String({ maxLength: 9 })),
    offset: Type.Optional(Type.String({ maxLength: 9 })),
  },
  { additionalProperties: false },
);

/** The embedding console's page: the API's settings and chat settings, and the disclosure text. */
export const EmbeddingConsoleSchema = Type.Object(
  { settings: ref(EmbedSettingsSchema), chat: ref(ChatSettingsSchema), disclosureText: Type.String() },
  { $id: 'EmbeddingConsole', additionalProperties: false },
);

export const LeftOrganizationSchema = Type.Object(
  { left: Type.Literal(true), revokedCredentials: Type.Integer({ minimum: 0, description: 'Organization credentials you had created, now revoked.' }) },
  { $id: 'LeftOrganization', additionalProperties: false },
);
export const MovedNetworkSchema = Type.Object(
  { networkId: Type.String(), organizationId: Type.String() },
  { $id: 'MovedNetwork', additionalProperties: false },
);

/** The console's pending invitations (Owners/Admins): not yet accepted, revoked or expired. */
export const PendingInvitationSchema = Type.Object(
  {
    id: Type.String({ description: 'Identifies the invitation for Revoke (not the link: it cannot be redeemed).' }),
    email: Type.String(),
    role: Type.Union([Type.String(), Type.Null()]),
    invitedBy: Type.Union([Type.String(), Type.Null()], { description: 'Who invited: "name <e-mail>", or the command line.' }),
    created: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PendingInvitation', additionalProperties: false },
);
export const PendingInvitationListSchema = Type.Object({ invitations: Type.Array(ref(PendingInvitationSchema)) }, { $id: 'PendingInvitationList', additionalProperties: false });
export const InvitationIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The named schemas of this file (http/index.ts registers them). */
export const CONSOLE_SCHEMAS = [
  PendingInvitationSchema,
  PendingInvitationListSchema,
  LeftOrganizationSchema,
  MovedNetworkSchema,
  OrganizationMemberSchema,
  OrganizationOverviewSchema,
  AddMemberBody,
  ChangeRoleBody,
  MemberListSchema,
  LiveSessionSchema,
  LiveSessionPageSchema,
  NetworkChoiceSchema,
  NetworkChoicesSchema,
  TrySessionBody,
  TrySessionSchema,
  ConsoleLaunchTokenSchema,
  EmbeddingConsoleSchema,
];
