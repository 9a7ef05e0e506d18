/**
 * Named wire schemas of embedding (docs/spec/api.md "Embedding", docs/spec/decisions.md §5): managed
 * users, grants, sessions, settings, the operator's levers, audit log, AI chat settings and the
 * embedded viewer's API. Request bodies are checked by the domain (all problems at once, with the
 * messages of docs/embedding-api.md); these schemas describe them for the document and for clients.
 */
import { Type } from 'typebox';
import { CHAT_ACCESS, HEADERS, MENU_ITEMS } from '../viewer-contract.ts';
import { ORG_PERMISSIONS, PERMISSIONS } from './permissions.ts';
import { ref } from './ref.ts';
import { LIMITS } from '../commands.ts';

/** A string enum (one of `values`), typed as the union of its values. */
const literals = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });
const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const NullableDateTime = (description: string) => Type.Union([DateTime(), Type.Null()], { description });

export const ExternalIdSchema = Type.String({ pattern: '^[A-Za-z0-9._:@|-]{1,128}$', description: "The host's own identifier: 1 to 128 letters, digits and . _ : @ | -" });

/* ------------------------------------------------------------------ managed users */

export const ManagedUserGrantSchema = Type.Object(
  { networkId: Type.String(), name: Type.String(), permission: literals(PERMISSIONS) },
  { $id: 'ManagedUserGrant', additionalProperties: false },
);

export const ManagedUserSchema = Type.Object(
  {
    externalId: Type.String(),
    displayName: Type.String(),
    status: literals(['active', 'deactivated'] as const),
    chatAccess: literals(CHAT_ACCESS),
    orgPermission: literals(ORG_PERMISSIONS),
    readOnly: Type.Boolean({ description: 'View access only; fixed after creation.' }),
    networks: Type.Array(ref(ManagedUserGrantSchema)),
    created: DateTime(),
    modified: DateTime(),
    lastActiveAt: NullableDateTime('Last viewer or bridge activity of one of its sessions.'),
    deactivatedAt: NullableDateTime('When it was deactivated (null while active).'),
  },
  { $id: 'ManagedUser', additionalProperties: false, description: 'A managed (embedded) user of the organization.' },
);

export const ManagedUserBodySchema = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Required on create.' })),
    chatAccess: Type.Optional(literals(CHAT_ACCESS, { description: 'Default `full` for a new user.' })),
    orgPermission: Type.Optional(literals(ORG_PERMISSIONS, { description: 'Default `Access-only`; fixed after creation (409 EMBED_MEMBERSHIP_IMMUTABLE).' })),
    readOnly: Type.Optional(Type.Boolean({ description: 'Default false; fixed after creation (409 EMBED_MEMBERSHIP_IMMUTABLE).' })),
  },
  { $id: 'ManagedUserBody', additionalProperties: false },
);

export const ManagedUserListSchema = Type.Object(
  { total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), users: Type.Array(ref(ManagedUserSchema)) },
  { $id: 'ManagedUserList', additionalProperties: false },
);

export const GrantBodySchema = Type.Object({ permission: literals(PERMISSIONS, { description: '`readOnly` users can only be granted `View`.' }) }, { $id: 'GrantBody', additionalProperties: false });

export const ManagedUserListQuery = Type.Object(
  {
    status: Type.Optional(literals(['active', 'deactivated'] as const, { description: 'Absent: both.' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: '1 to 500, default 50' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'default 0' })),
  },
  { additionalProperties: false },
);

/* ------------------------------------------------------------------ sessions */

export const ViewerUiSchema = Type.Object(
  {
    menu: Type.Array(literals(MENU_ITEMS), { description: "Visible left-menu items, in the viewer's own order ([] = no left menu)." }),
    aiChat: Type.Boolean(),
  },
  { $id: 'ViewerUi', additionalProperties: false, description: 'Normalized viewer options: `ui` can only hide things.' },
);

export const ViewerUiBodySchema = Type.Object(
  {
    menu: Type.Optional(Type.Array(literals(MENU_ITEMS), { description: 'Omitted: all items.' })),
    aiChat: Type.Optional(Type.Boolean({ description: 'Omitted or true: AI chat visible.' })),
  },
  { $id: 'ViewerUiBody', additionalProperties: false },
);

export const SessionBodySchema = Type.Object(
  {
    externalId: ExternalIdSchema,
    networkIds: Type.Array(Type.String(), { minItems: 1, maxItems: 1, description: 'Exactly one embeddable network the user can access.' }),
    origin: Type.String({ description: 'Must equal one of the allowed host origins exactly.' }),
    maxMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, default: 60 })),
    ui: Type.Optional(ref(ViewerUiBodySchema)),
    header: Type.Optional(literals(HEADERS, { default: 'none' })),
  },
  { $id: 'SessionBody', additionalProperties: false },
);

export const SessionSchema = Type.Object(
  {
    sessionId: Type.String({ description: 'Used in the viewer URL `{embed_url}/<sessionId>`.' }),
    launchToken: Type.String({ description: 'Single use, valid 60 seconds.' }),
    launchTokenExpiresAt: DateTime(),
    expiresAt: DateTime('created + maxMinutes'),
    ui: ref(ViewerUiSchema),
    header: literals(HEADERS),
  },
  { $id: 'Session', additionalProperties: false, description: 'A new embed session with its first launch token.' },
);

export const LaunchTokenSchema = Type.Object(
  { launchToken: Type.String({ description: 'Single use, valid 60 seconds.' }) },
  { $id: 'LaunchToken', additionalProperties: false },
);

export const SessionRevokedSchema = Type.Object({ sessionId: Type.String(), revoked: Type.Literal(true) }, { $id: 'SessionRevoked', additionalProperties: false });

export const SessionIdParams = Type.Object({ sessionId: Type.String({ maxLength: 100 }) });

/* ------------------------------------------------------------------ settings, operator */

export const EmbedLimitsSchema = Type.Object(
  {
    provisioningPerHour: Type.Integer({ description: 'Provisioning, grants and session creation per hour.' }),
    launchTokensPerHour: Type.Integer(),
    metricsPerHour: Type.Integer({ description: 'Metric calculations in embedded sessions per hour.' }),
    redemptionsPerSessionPerHour: Type.Integer(),
    aiQuestionsPerMonth: Type.Integer(),
  },
  { $id: 'EmbedLimits', additionalProperties: false, description: "The organization's effective embedding limits." },
);

const settingsProperties = {
  enabled: Type.Boolean({ description: "Set by the service operator." }),
  seats: Type.Integer({ description: 'Managed-user seats (operator).' }),
  seatsUsed: Type.Integer(),
  allowedOrigins: Type.Array(Type.String()),
  allOwnedNetworks: Type.Boolean(),
  embeddableNetworkIds: Type.Array(Type.String()),
  dataDisclosureAccepted: Type.Boolean(),
  dataDisclosureAcceptedAt: NullableDateTime('When an admin accepted the data disclosure.'),
  limits: ref(EmbedLimitsSchema),
};

export const EmbedSettingsSchema = Type.Object(settingsProperties, { $id: 'EmbedSettings', additionalProperties: false });

export const EmbedSettingsBodySchema = Type.Object(
  {
    allowedOrigins: Type.Optional(Type.Array(Type.String(), { maxItems: 100, description: 'Exact origins scheme://host[:port]; no wildcards or paths.' })),
    allOwnedNetworks: Type.Optional(Type.Boolean()),
    embeddableNetworkIds: Type.Optional(Type.Array(Type.String(), { description: 'Used when allOwnedNetworks is false.' })),
    dataDisclosureAccepted: Type.Optional(Type.Boolean()),
  },
  { $id: 'EmbedSettingsBody', additionalProperties: false, description: 'Any subset.' },
);

export const OperatorEmbeddingSchema = Type.Object({ orgId: Type.String(), ...settingsProperties }, { $id: 'OperatorEmbedding', additionalProperties: false });

export const OperatorEmbeddingBodySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    limits: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]), { description: 'Overrides of EmbedLimits keys; null = back to the default.' })),
  },
  { $id: 'OperatorEmbeddingBody', additionalProperties: false },
);

/* ------------------------------------------------------------------ audit, chat settings, members */

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    at: DateTime(),
    actor: Type.Object(
      {
        kind: Type.String({ description: '`user` (a person of the web application), `managed_user`, `credential` (an organization or user API credential), `anonymous` (a signed-out Discover visitor), `operator` or `cli`.' }),
        id: Type.String(),
        name: Type.Optional(Type.String({ description: 'Who that is, readable: "Ada Lovelace <ada@example.org>", a managed user\'s name (external id), a credential\'s name, "anonymous (Discover)".' })),
      },
      { additionalProperties: false },
    ),
    action: Type.String(),
    target: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'AuditEntry', additionalProperties: false },
);

export const AuditPageSchema = Type.Object(
  { total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), entries: Type.Array(ref(AuditEntrySchema)) },
  { $id: 'AuditPage', additionalProperties: false },
);

export const AllowanceSchema = Type.Object(
  { limit: Type.Integer(), used: Type.Integer(), resetsAt: DateTime() },
  { $id: 'ChatAllowance', additionalProperties: false, description: 'AI questions this calendar month (UTC), answered or in progress.' },
);

export const ChatSettingsSchema = Type.Object({ aiChat: Type.Boolean(), allowance: ref(AllowanceSchema) }, { $id: 'ChatSettings', additionalProperties: false });
export const ChatSettingsBodySchema = Type.Object({ aiChat: Type.Boolean() }, { $id: 'ChatSettingsBody', additionalProperties: false });

export const PresetQuestionsSchema = Type.Object(
  { networkId: Type.String(), presetQuestions: Type.Array(Type.String()), custom: Type.Boolean({ description: 'False: the default set made from the network.' }) },
  { $id: 'PresetQuestions', additionalProperties: false },
);
export const PresetQuestionsBodySchema = Type.Object(
  { presetQuestions: Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 20 }), Type.Null()], { description: 'null: back to the default set.' }) },
  { $id: 'PresetQuestionsBody', additionalProperties: false },
);

export const OrganizationMembersSchema = Type.Object(
  {
    members: Type.Array(
      Type.Object(
        {
          _id: Type.String(),
          name: Type.String(),
          email: Type.String(),
          role: Type.String(),
          joined: DateTime(),
          embedded: Type.Boolean({ description: 'A managed user (Embedded badge).' }),
          externalId: Type.Optional(Type.String()),
          embedStatus: Type.Optional(literals(['active', 'deactivated'] as const)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'OrganizationMembers', additionalProperties: false },
);

/* ------------------------------------------------------------------ views */

const CameraSchema = Type.Object({ x: Type.Number(), y: Type.Number(), ratio: Type.Number(), angle: Type.Number() }, { additionalProperties: false });
const DisplaySchema = Type.Object(
  { backgroundColor: Type.String({ description: 'CSS color' }), showLabels: Type.String({ description: 'e.g. `always`' }), showEdges: Type.Boolean() },
  { additionalProperties: false },
);
const LayerSchema = Type.Object(
  {
    id: Type.String(),
    operation: Type.String({ description: '`Filter`, `Color`, `Size`, `Calculate`, ...' }),
    appliedTo: Type.Optional(literals(['nodes', 'edges'] as const, { description: '`nodes`, or `edges` for a layer on ties by an edge attribute' })),
    attribute: Type.Optional(Type.String()),
    attType: Type.Optional(literals(['string', 'number'] as const)),
    hidden: Type.Optional(Type.Boolean()),
    values: Type.Optional(Type.Array(Type.String())),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    summary: Type.Optional(Type.String({ description: 'Read-only layers (other than Filter, Color and Size).' })),
    readOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, description: 'A layer; Filter/Color/Size need appliedTo, attribute, attType, hidden; other kinds are read-only with a summary.' },
);

export const EmbedViewSchema = Type.Object(
  {
    version: Type.Literal(1),
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    layers: Type.Array(LayerSchema),
    camera: CameraSchema,
    display: DisplaySchema,
    created: DateTime(),
    modified: DateTime(),
  },
  { $id: 'EmbedView', additionalProperties: false, description: 'A saved view (EmbedView version 1), shared by all users of the network.' },
);

export const EmbedViewBodySchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    id: Type.Optional(Type.String({ description: 'Ignored: the service names views.' })),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    layers: Type.Array(LayerSchema, { maxItems: 200 }),
    camera: CameraSchema,
    display: DisplaySchema,
  },
  { $id: 'EmbedViewBody', additionalProperties: false, description: 'A view to save; on update every field is optional.' },
);

/* ------------------------------------------------------------------ the viewer's API */

export const AccessTokenBodySchema = Type.Object({ launchToken: Type.String({ maxLength: 200 }) }, { $id: 'AccessTokenBody', additionalProperties: false });
export const AccessTokenSchema = Type.Object(
  { accessToken: Type.String({ description: 'Bearer token of the viewer API (`nla_…`), valid 15 minutes; keep it in memory.' }), expiresAt: DateTime() },
  { $id: 'AccessToken', additionalProperties: false },
);

export const SessionStatusSchema = Type.Object(
  { live: Type.Boolean(), checkAfterMs: Type.Integer({ description: 'Ask again after this long.' }) },
  { $id: 'SessionStatus', additionalProperties: false },
);

export const ViewerSessionSchema = Type.Object(
  {
    sessionId: Type.String(),
    displayName: Type.String(),
    externalId: Type.String(),
    orgPermission: literals(ORG_PERMISSIONS),
    capabilities: Type.Object(
      {
        view: Type.Boolean(),
        edit: Type.Boolean(),
        saveViews: Type.Boolean(),
        runMetrics: Type.Boolean(),
        chat: literals(CHAT_ACCESS, { description: 'The chat this viewer can use now (`off` when any gate is closed).' }),
        chatReason: Type.Union([literals(['hidden', 'chat-access-off', 'organization-off', 'allowance-spent'] as const), Type.Null()], { description: 'The first closed gate, or null.' }),
      },
      { additionalProperties: false },
    ),
    chatAccess: literals(CHAT_ACCESS),
    network: Type.Object({ networkId: Type.String(), name: Type.String(), permission: literals(PERMISSIONS) }, { additionalProperties: false }),
    networkIds: Type.Array(Type.String()),
    ui: ref(ViewerUiSchema),
    header: literals(HEADERS),
    origin: Type.String(),
    expiresAt: DateTime(),
    accessTokenExpiresAt: DateTime(),
  },
  { $id: 'ViewerSession', additionalProperties: false, description: 'What `session.info()` reports.' },
);

export const HeartbeatSchema = Type.Object(
  { expiresAt: DateTime(), idleExpiresAt: DateTime(), accessTokenExpiresAt: DateTime() },
  { $id: 'Heartbeat', additionalProperties: false },
);

export const ViewerNetworkSchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    isDirected: Type.Boolean(),
    nodeCount: Type.Integer(),
    edgeCount: Type.Integer(),
    networkUUID: Type.String(),
    modified: DateTime(),
    billing: Type.Object({ maxViews: Type.Number() }, { additionalProperties: false }),
    dataUrl: Type.String({ description: 'Signed link to the network JSON, valid 5 minutes (also after revocation).' }),
    dataUrlExpiresAt: DateTime(),
  },
  { $id: 'ViewerNetwork', additionalProperties: false },
);

export const DataLinkQuery = Type.Object(
  { network: Type.String({ maxLength: 100 }), exp: Type.String({ pattern: '^[0-9]{1,16}$' }), sig: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const PositionsBodySchema = Type.Object(
  {
    networkUUID: Type.String({ minLength: 1, maxLength: 100, description: 'The networkUUID the viewer loaded (the change applies only to that version).' }),
    nodeIds: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 1_000_000 }),
    x: Type.Array(Type.Number(), { maxItems: 1_000_000 }),
    y: Type.Array(Type.Number(), { maxItems: 1_000_000 }),
  },
  { $id: 'PositionsBody', additionalProperties: false },
);
export const PositionsResultSchema = Type.Object(
  { networkUUID: Type.String(), modified: DateTime(), updatedNodes: Type.Integer() },
  { $id: 'PositionsResult', additionalProperties: false },
);

/* ------------------------------------------------------------------ the viewer's AI chat */

const AssistantActionSchema = Type.Union([
  Type.Object({ type: Type.Literal('layer'), operation: literals(['Color', 'Size'] as const), attribute: Type.String() }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('layer'), operation: Type.Literal('Filter'), attribute: Type.String(), values: Type.Array(Type.Union([Type.String(), Type.Number()])) }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('layer'), operation: Type.Literal('Filter'), attribute: Type.String(), min: Type.Number(), max: Type.Number() }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('openView'), viewId: Type.String(), name: Type.String() }, { additionalProperties: false }),
]);

export const ChatMessageSchema = Type.Object(
  {
    id: Type.String(),
    role: literals(['user', 'assistant'] as const),
    content: Type.String({ description: 'Markdown.' }),
    isError: Type.Boolean(),
    conversationId: Type.String(),
    status: Type.String({ description: '`asked` (questions); `pending`, `done`, `error`, `cancelled` (answers).' }),
    created: DateTime(),
    source: Type.Optional(literals(['host', 'viewer'] as const)),
    replyTo: Type.Optional(Type.String()),
    cancelled: Type.Optional(Type.Boolean({ description: 'Present (true) on a cancelled answer.' })),
    actions: Type.Optional(Type.Array(AssistantActionSchema, { description: 'Layers or views the answer applied in the viewer.' })),
  },
  { $id: 'ChatMessage', additionalProperties: false },
);

export const ChatStateSchema = Type.Object(
  {
    available: Type.Boolean(),
    reason: Type.Union([literals(['hidden', 'chat-access-off', 'organization-off', 'allowance-spent'] as const), Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()], { description: 'Why chat is unavailable, for people.' }),
    chatAccess: literals(CHAT_ACCESS),
    presetQuestions: Type.Array(Type.String()),
    conversationId: Type.Union([Type.String(), Type.Null()]),
    answering: Type.Union([Type.Object({ replyId: Type.String(), replyTo: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false }), Type.Null()]),
    allowance: ref(AllowanceSchema),
    assistant: Type.Union([Type.String(), Type.Null()], { description: 'Name of the assistant answering.' }),
  },
  { $id: 'ChatState', additionalProperties: false },
);

export const ChatAskBodySchema = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: LIMITS.chatMaxChars }),
    newChat: Type.Optional(Type.Boolean()),
    source: Type.Optional(literals(['host', 'viewer'] as const, { default: 'viewer' })),
  },
  { $id: 'ChatAskBody', additionalProperties: false },
);

export const ChatAskedSchema = Type.Object(
  { conversationId: Type.String(), question: ref(ChatMessageSchema), reply: ref(ChatMessageSchema) },
  { $id: 'ChatAsked', additionalProperties: false, description: 'The question and its pending answer (poll the answer by id).' },
);

export const ChatCancelledSchema = Type.Object(
  { cancelled: Type.Boolean(), reply: Type.Optional(ref(ChatMessageSchema)) },
  { $id: 'ChatCancelled', additionalProperties: false },
);

export const ChatConversationSchema = Type.Object(
  { conversationId: Type.String(), cancelled: Type.Boolean({ description: 'Whether an answer in progress was stopped.' }) },
  { $id: 'ChatConversation', additionalProperties: false },
);

export const EMBED_SCHEMAS = [
  ManagedUserGrantSchema,
  ManagedUserSchema,
  ManagedUserBodySchema,
  ManagedUserListSchema,
  GrantBodySchema,
  ViewerUiSchema,
  ViewerUiBodySchema,
  SessionBodySchema,
  SessionSchema,
  LaunchTokenSchema,
  SessionRevokedSchema,
  EmbedLimitsSchema,
  EmbedSettingsSchema,
  EmbedSettingsBodySchema,
  OperatorEmbeddingSchema,
  OperatorEmbeddingBodySchema,
  AuditEntrySchema,
  AuditPageSchema,
  AllowanceSchema,
  ChatSettingsSchema,
  ChatSettingsBodySchema,
  PresetQuestionsSchema,
  PresetQuestionsBodySchema,
  OrganizationMembersSchema,
  EmbedViewSchema,
  EmbedViewBodySchema,
  AccessTokenBodySchema,
  AccessTokenSchema,
  SessionStatusSchema,
  ViewerSessionSchema,
  HeartbeatSchema,
  ViewerNetworkSchema,
  PositionsBodySchema,
  PositionsResultSchema,
  ChatMessageSchema,
  ChatStateSchema,
  ChatAskBodySchema,
  ChatAskedSchema,
  ChatCancelledSchema,
  ChatConversationSchema,
] as const;
