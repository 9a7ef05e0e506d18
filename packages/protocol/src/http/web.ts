/**
 * TypeBox schemas of the web application's session endpoints (`/app/api/...`, docs/web-app.md): the
 * single description of their wire shapes — validation, response serialization, OpenAPI and docs. Shapes
 * of bodies and answers are named (`$id`, registered once through WEB_SCHEMAS, `components.schemas` of
 * /app/api/openapi.json) and referenced with ref(); params stay inline.
 */
import { Type } from 'typebox';
import { problemResponses, type ProblemResponse } from './problem.ts';
import { ref } from './ref.ts';

export const WebTag = 'Web application (session)';
/** OpenAPI security of cookie-authenticated routes (components.securitySchemes.cookieAuth in app.ts). */
export const cookieSecurity = [{ cookieAuth: [] }];
/** Routes where the session is optional (signing out, an Explore viewer's launch token): cookie or nothing. */
export const optionalCookieSecurity: { [scheme: string]: string[] }[] = [{ cookieAuth: [] }, {}];

export const PlanSchema = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('enterprise'), Type.Literal('partner')], { $id: 'Plan' });
export const OrgRoleSchema = Type.Union(
  [Type.Literal('Owner'), Type.Literal('Admin'), Type.Literal('Standard User'), Type.Literal('Access-only'), Type.Literal('Simplified Access-only')],
  { $id: 'OrgRole' },
);

export const WebUserSchema = Type.Object(
  { id: Type.String(), email: Type.String(), name: Type.String(), plan: ref(PlanSchema), mfaEnabled: Type.Boolean() },
  { $id: 'WebUser', additionalProperties: false },
);

export const WebOrganizationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    role: ref(OrgRoleSchema),
    plan: ref(PlanSchema),
    requireMfa: Type.Boolean(),
    embeddingEnabled: Type.Boolean(),
  },
  { $id: 'WebOrganization', additionalProperties: false },
);

export const SessionInfoSchema = Type.Object(
  {
    user: ref(WebUserSchema),
    organization: Type.Union([ref(WebOrganizationSchema), Type.Null()]),
    csrfToken: Type.String({ description: 'Send as `X-CSRF-Token` on every non-GET request of this session.' }),
    mfaEnrolmentRequired: Type.Boolean({ description: 'The organization requires MFA and this account has not enrolled: every other endpoint answers 403 MFA_ENROLMENT_REQUIRED until it does.' }),
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends unless used again (the earlier of idle and absolute end).' }),
  },
  { $id: 'SessionInfo', additionalProperties: false },
);

export const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1024 }),
    totp: Type.Optional(Type.String({ maxLength: 20, description: '6-digit code of the authenticator app (accounts with MFA).' })),
    recoveryCode: Type.Optional(Type.String({ maxLength: 40, description: 'A one-time recovery code instead of `totp`.' })),
  },
  { $id: 'SignInBody', additionalProperties: false },
);

export const SignedOutSchema = Type.Object({ signedOut: Type.Literal(true) }, { $id: 'SignedOut', additionalProperties: false });

export const WebSessionItemSchema = Type.Object(
  {
    id: Type.String(),
    created: Type.String({ format: 'date-time' }),
    lastSeenAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
    userAgent: Type.String(),
    ip: Type.String(),
    current: Type.Boolean(),
  },
  { $id: 'WebSession', additionalProperties: false },
);

export const WebSessionListSchema = Type.Object({ sessions: Type.Array(ref(WebSessionItemSchema)) }, { $id: 'WebSessionList', additionalProperties: false });
export const WebSessionIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const SessionEndedSchema = Type.Object({ id: Type.String(), ended: Type.Literal(true) }, { $id: 'WebSessionEnded', additionalProperties: false });
export const EndedCountSchema = Type.Object({ ended: Type.Integer({ minimum: 0 }) }, { $id: 'WebSessionsEnded', additionalProperties: false });

/** Problem responses of a web route, by status. */
export function webProblems(...statuses: number[]): Record<number, ProblemResponse> {
  return problemResponses(...statuses);
}

/* ------------------------------------------------------------------ account */

const NullableMax = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null = unlimited' });

export const AccountSchema = Type.Object(
  {
    user: ref(WebUserSchema),
    plan: ref(PlanSchema),
    networkCounts: Type.Object({ public: Type.Integer({ minimum: 0 }), private: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    networkMaxima: Type.Object({ public: NullableMax, private: NullableMax }, { additionalProperties: false }),
    organization: Type.Union([ref(WebOrganizationSchema), Type.Null()]),
    mfa: Type.Object({ enabled: Type.Boolean(), recoveryCodesLeft: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  },
  { $id: 'Account', additionalProperties: false },
);

export const AccountNameBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'Your display name (spaces at either end are dropped; not empty).' }) },
  { $id: 'AccountNameBody', additionalProperties: false },
);

export const PasswordChangeBody = Type.Object(
  { currentPassword: Type.String({ maxLength: 1024 }), newPassword: Type.String({ minLength: 10, maxLength: 1024 }) },
  { $id: 'PasswordChangeBody', additionalProperties: false },
);
export const PasswordChangedSchema = Type.Object(
  { changed: Type.Literal(true), endedSessions: Type.Integer({ minimum: 0, description: 'Other sessions of the account that were ended.' }) },
  { $id: 'PasswordChanged', additionalProperties: false },
);

export const MfaSetupSchema = Type.Object(
  {
    secret: Type.String({ description: 'Base32 TOTP secret (to type into an authenticator app).' }),
    otpauthUrl: Type.String({ description: '`otpauth://totp/...` URL (to show as a QR code).' }),
  },
  { $id: 'MfaSetup', additionalProperties: false },
);
export const MfaEnableBody = Type.Object(
  { code: Type.String({ minLength: 6, maxLength: 20 }), password: Type.String({ maxLength: 1024, description: 'Your current password: a session alone cannot turn MFA on.' }) },
  { $id: 'MfaEnableBody', additionalProperties: false },
);
export const PasswordBody = Type.Object({ password: Type.String({ maxLength: 1024 }) }, { $id: 'PasswordConfirmBody', additionalProperties: false });
export const RecoveryCodesSchema = Type.Object(
  { recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10, description: 'One-time codes, shown once.' }) },
  { $id: 'RecoveryCodes', additionalProperties: false },
);
export const MfaDisabledSchema = Type.Object({ mfaEnabled: Type.Literal(false) }, { $id: 'MfaDisabled', additionalProperties: false });

/* ------------------------------------------------------------- organization */

export const OrgSettingsBody = Type.Object({ requireMfa: Type.Boolean() }, { $id: 'OrganizationSettingsBody', additionalProperties: false });
export const OrgSettingsSchema = Type.Object({ requireMfa: Type.Boolean() }, { $id: 'OrganizationSettings', additionalProperties: false });
export const InvitationBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), role: Type.Optional(ref(OrgRoleSchema)) },
  { $id: 'InvitationBody', additionalProperties: false },
);
export const CreatedLinkSchema = Type.Object(
  { url: Type.String({ description: '`<publicUrl>/link/<token>`: pass it on; single use.' }), expiresAt: Type.String({ format: 'date-time' }) },
  { $id: 'CreatedLink', additionalProperties: false },
);

/* -------------------------------------------------------------------- links */

export const LinkParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const LinkInfoSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('invite'), Type.Literal('reset')]),
    email: Type.String(),
    organization: Type.Union([Type.Object({ name: Type.String() }, { additionalProperties: false }), Type.Null()]),
    expiresAt: Type.String({ format: 'date-time' }),
    needsName: Type.Boolean({ description: 'Redemption needs `name` (every invitation; whether the e-mail has an account is not told).' }),
    acceptable: Type.Boolean({ description: 'Signed in as the account this invitation is for: accept it with `POST /app/api/links/{token}/accept`.' }),
  },
  { $id: 'LinkInfo', additionalProperties: false },
);
export const InvitationAcceptedSchema = Type.Object(
  {
    accepted: Type.Literal(true),
    organizationId: Type.Union([Type.String(), Type.Null()]),
    role: Type.Union([ref(OrgRoleSchema), Type.Null()]),
  },
  { $id: 'InvitationAccepted', additionalProperties: false },
);
export const LinkRedeemBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    password: Type.String({ minLength: 10, maxLength: 1024 }),
    totp: Type.Optional(Type.String({ maxLength: 20, description: 'Reset of an account with MFA: the current code.' })),
    recoveryCode: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { $id: 'LinkRedeemBody', additionalProperties: false },
);

/* -------------------------------------------------------------- credentials */

export const WebCredentialSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([Type.Literal('token'), Type.Literal('basic')], { description: '`basic`: a legacy key pair (listed and revocable, never created here).' }),
    name: Type.String(),
    prefix: Type.String({ description: 'Token display prefix (`nl_AbCd1234`) or the public key of a key pair.' }),
    scopes: Type.Array(Type.String()),
    fullAccess: Type.Boolean(),
    created: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    owner: Type.Object(
      { type: Type.Union([Type.Literal('user'), Type.Literal('organization')]), id: Type.String(), name: Type.String() },
      { additionalProperties: false },
    ),
  },
  { $id: 'WebCredential', additionalProperties: false },
);
export const WebCredentialListSchema = Type.Object({ credentials: Type.Array(ref(WebCredentialSchema)) }, { $id: 'WebCredentialList', additionalProperties: false });
export const CreateCredentialBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ maxLength: 1024, description: 'The signed-in user\'s password, re-entered.' }),
    scopes: Type.Union([Type.Literal('full'), Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 20 })], {
      description: '`"full"` (Full API access: every scope incl. `embed:manage`) or a list of `<resource>:<action>` scopes (`embed:manage` only when listed).',
    }),
    owner: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('organization')], { default: 'user', description: '`organization`: an organization credential (Owners/Admins; enterprise or partner plan).' })),
  },
  { $id: 'CreateCredentialBody', additionalProperties: false },
);
export const CreatedCredentialSchema = Type.Object(
  { credential: ref(WebCredentialSchema), token: Type.String({ description: 'The bearer token, shown once; only its hash is stored.' }) },
  { $id: 'CreatedCredential', additionalProperties: false },
);
export const CredentialIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const RevokedCredentialSchema = Type.Object({ id: Type.String(), revoked: Type.Literal(true) }, { $id: 'RevokedCredential', additionalProperties: false });
export const ScopeListSchema = Type.Object(
  {
    resources: Type.Array(Type.String(), { description: 'Resources with a read and a write scope each.' }),
    scopes: Type.Array(Type.String(), { description: 'Every scope, `embed:manage` last.' }),
  },
  { $id: 'ScopeList', additionalProperties: false },
);

/* ------------------------------------------------------------------ explore */

export const ExploreParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const ExploreSessionParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ExploreStartedSchema = Type.Object(
  {
    sessionId: Type.String({ description: 'The viewer session: give it to the embed SDK (`Embed.create(el, { sessionId, getLaunchToken })`).' }),
    viewerUrl: Type.String({ description: 'The embed page the SDK frames (`<origin>/embed/<sessionId>`).' }),
    launchToken: Type.String({ description: 'The first launch token (60 s, single use).' }),
    launchTokenExpiresAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The viewer ends then at the latest (and when the web session ends).' }),
    access: Type.Union([Type.Literal('owner'), Type.Literal('edit'), Type.Literal('read')], { description: '`read`: read-only; otherwise views and metrics are saved to the network.' }),
  },
  { $id: 'ExploreStarted', additionalProperties: false },
);
export const ExploreLaunchTokenSchema = Type.Object(
  { launchToken: Type.String(), launchTokenExpiresAt: Type.String({ format: 'date-time' }) },
  { $id: 'ExploreLaunchToken', additionalProperties: false },
);

/** The named schemas of this file (http/index.ts registers them). */
export const WEB_SCHEMAS = [
  PlanSchema,
  OrgRoleSchema,
  WebUserSchema,
  WebOrganizationSchema,
  SessionInfoSchema,
  SignInBody,
  SignedOutSchema,
  WebSessionItemSchema,
  WebSessionListSchema,
  SessionEndedSchema,
  EndedCountSchema,
  AccountSchema,
  PasswordChangeBody,
  AccountNameBody,
  PasswordChangedSchema,
  MfaSetupSchema,
  MfaEnableBody,
  PasswordBody,
  RecoveryCodesSchema,
  MfaDisabledSchema,
  OrgSettingsBody,
  OrgSettingsSchema,
  InvitationBody,
  CreatedLinkSchema,
  LinkInfoSchema,
  InvitationAcceptedSchema,
  LinkRedeemBody,
  WebCredentialSchema,
  WebCredentialListSchema,
  CreateCredentialBody,
  CreatedCredentialSchema,
  RevokedCredentialSchema,
  ScopeListSchema,
  ExploreStartedSchema,
  ExploreLaunchTokenSchema,
];
