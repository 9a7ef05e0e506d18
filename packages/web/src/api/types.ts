/**
 * The shapes of the `/app/api` requests and answers the app sends and reads (docs/web-app.md): each is
 * `Static<>` of the server's own wire schema from the shared contract (@netloom/protocol/http), never
 * written out here — a change of the wire changes these types and the typecheck names every place it
 * matters. Only aliases live here (eslint.config.js forbids interfaces and object types in this file).
 */
import type { Static } from 'typebox';
import type {
  AccountNameBody,
  PendingInvitationSchema,
  PendingInvitationListSchema,
  AccountSchema,
  AuditPageSchema,
  ChatSettingsSchema,
  CreateCredentialBody,
  CreatedCredentialSchema,
  CreatedLinkSchema,
  EmbedSettingsBodySchema,
  EmbedSettingsSchema,
  EmbeddingConsoleSchema,
  ExploreLaunchTokenSchema,
  ExploreStartedSchema,
  ImportedNetworkSchema,
  InvitationAcceptedSchema,
  InvitationBody,
  LeftOrganizationSchema,
  LinkInfoSchema,
  LinkRedeemBody,
  LiveSessionPageSchema,
  LiveSessionSchema,
  ManagedUserBodySchema,
  ManagedUserListSchema,
  ManagedUserSchema,
  MemberListSchema,
  MfaEnableBody,
  MfaSetupSchema,
  NetworkChoiceSchema,
  NetworkChoicesSchema,
  OrganizationMemberSchema,
  OrganizationOverviewSchema,
  OrgRoleSchema,
  OrgSettingsSchema,
  PasswordChangeBody,
  PresetQuestionsSchema,
  PublicNetworkListSchema,
  RecoveryCodesSchema,
  ScopeListSchema,
  SessionInfoSchema,
  SessionRevokedSchema,
  SignedOutSchema,
  SignInBody,
  ShareBody,
  ShareSchema,
  SharesSchema,
  TrySessionSchema,
  ConsoleLaunchTokenSchema,
  WebCredentialListSchema,
  WebCredentialSchema,
  WebJobListSchema,
  WebJobSchema,
  WebNetworkValueSchema,
  WebNetworkDetailSchema,
  WebNetworkListSchema,
  WebNetworkPatchBody,
  WebNetworkSchema,
  WebOrganizationSchema,
  WebSessionItemSchema,
  WebSessionListSchema,
  WebUserSchema,
} from '@netloom/protocol/http';

// session and account
export type SessionUser = Static<typeof WebUserSchema>;
export type SessionOrganization = Static<typeof WebOrganizationSchema>;
export type Session = Static<typeof SessionInfoSchema>;
export type SignInInput = Static<typeof SignInBody>;
export type SignedOut = Static<typeof SignedOutSchema>;
export type Account = Static<typeof AccountSchema>;
export type WebSession = Static<typeof WebSessionItemSchema>;
export type WebSessionList = Static<typeof WebSessionListSchema>;
export type PasswordChange = Static<typeof PasswordChangeBody>;
export type MfaSetupInfo = Static<typeof MfaSetupSchema>;
export type MfaEnableInput = Static<typeof MfaEnableBody>;
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;
export type LinkInfo = Static<typeof LinkInfoSchema>;
export type LinkRedeemInput = Static<typeof LinkRedeemBody>;
export type InvitationAccepted = Static<typeof InvitationAcceptedSchema>;

// networks
export type Network = Static<typeof WebNetworkSchema>;
export type Access = NonNullable<Network['access']>;
export type NetworkStatus = Network['status'];
export type NetworkPatch = Static<typeof WebNetworkPatchBody>;
/** An import's answer: the network and what was converted, dropped or interpreted (docs/api/import-export.md, "Warnings"). */
export type ImportedNetwork = Static<typeof ImportedNetworkSchema>;
export type ImportWarning = ImportedNetwork['warnings'][number];
export type Share = Static<typeof ShareSchema>;
export type SharePermission = Share['permission'];
export type Shares = Static<typeof SharesSchema>;
export type ShareInput = Static<typeof ShareBody>;
export type NetworkDetail = Static<typeof WebNetworkDetailSchema>;
export type NetworkList = Static<typeof WebNetworkListSchema>;
export type Counts = NetworkList['counts'];
export type Maxima = NetworkList['maxima'];
export type PublicNetworks = Static<typeof PublicNetworkListSchema>;
export type ExploreStarted = Static<typeof ExploreStartedSchema>;
export type ExploreLaunchToken = Static<typeof ExploreLaunchTokenSchema>;

// credentials
export type Credential = Static<typeof WebCredentialSchema>;
export type CredentialList = Static<typeof WebCredentialListSchema>;
export type CreateCredentialInput = Static<typeof CreateCredentialBody>;
export type CreatedCredential = Static<typeof CreatedCredentialSchema>;
export type ScopeList = Static<typeof ScopeListSchema>;

// jobs
export type WebJob = Static<typeof WebJobSchema>;
export type WebNetworkValue = Static<typeof WebNetworkValueSchema>;
export type JobStatus = WebJob['status'];
export type WebJobList = Static<typeof WebJobListSchema>;

// organization console
export type OrgRole = Static<typeof OrgRoleSchema>;
export type OrgOverview = Static<typeof OrganizationOverviewSchema>;
export type OrgMember = Static<typeof OrganizationMemberSchema>;
export type OrgMemberList = Static<typeof MemberListSchema>;
export type PendingInvitation = Static<typeof PendingInvitationSchema>;
export type AccountName = Static<typeof AccountNameBody>;
export type PendingInvitationList = Static<typeof PendingInvitationListSchema>;
export type OrgSettings = Static<typeof OrgSettingsSchema>;
export type InvitationInput = Static<typeof InvitationBody>;
export type CreatedLink = Static<typeof CreatedLinkSchema>;
export type LeftOrganization = Static<typeof LeftOrganizationSchema>;
export type EmbedSettings = Static<typeof EmbedSettingsSchema>;
export type EmbedSettingsInput = Static<typeof EmbedSettingsBodySchema>;
export type ChatSettings = Static<typeof ChatSettingsSchema>;
export type EmbeddingConsole = Static<typeof EmbeddingConsoleSchema>;
export type NetworkChoice = Static<typeof NetworkChoiceSchema>;
export type NetworkChoices = Static<typeof NetworkChoicesSchema>;
export type ManagedUser = Static<typeof ManagedUserSchema>;
export type ManagedUserInput = Static<typeof ManagedUserBodySchema>;
export type ManagedUserList = Static<typeof ManagedUserListSchema>;
export type LiveSession = Static<typeof LiveSessionSchema>;
export type LiveSessionPage = Static<typeof LiveSessionPageSchema>;
export type SessionRevoked = Static<typeof SessionRevokedSchema>;
export type AuditPage = Static<typeof AuditPageSchema>;
export type AuditEntry = AuditPage['entries'][number];
export type PresetQuestions = Static<typeof PresetQuestionsSchema>;
export type TrySession = Static<typeof TrySessionSchema>;
export type ConsoleLaunchToken = Static<typeof ConsoleLaunchTokenSchema>;
