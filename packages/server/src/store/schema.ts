/**
 * Database schema (Kysely table types). The single description of what is stored; migrations in
 * ./migrations create exactly this on SQLite and PostgreSQL.
 *
 * Conventions: ids are 24-char lowercase hex strings (clients of the original service read `_id`);
 * timestamps are ISO 8601 UTC strings (`2026-11-22T06:50:00.000Z`) in TEXT columns on both databases
 * so ordering and equality behave the same; booleans are integers 0/1; JSON columns are TEXT.
 */
import type { Generated } from 'kysely';
import type { EmbedOrgPermission, SharePermission } from '@netloom/protocol/http';

export type Plan = 'free' | 'pro' | 'enterprise' | 'partner';
export type UserStatus = 'active' | 'suspended' | 'unverified';
export type UserKind = 'regular' | 'managed';
export type OrgRole = 'Owner' | 'Admin' | 'Standard User' | 'Access-only' | 'Simplified Access-only';
export type NetworkStatus = 'Public' | 'Private';
/** A share's or grant's permission, and what an embedding organization lets its managed users do: the wire's lists (@netloom/protocol/http permissions.ts). */
export type { EmbedOrgPermission, SharePermission };
export type CredentialKind = 'token' | 'basic';

export interface UsersTable {
  id: string;
  email: string; // lowercased, unique
  name: string;
  password_hash: string | null; // scrypt$N$r$p$salt$hash; null for managed users / none set
  plan: Plan;
  status: UserStatus;
  kind: UserKind;
  created: string;
  modified: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  plan: Plan;
  created_by: string; // user id
  created: string;
  modified: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string; // a user belongs to at most one organization (unique)
  role: OrgRole;
  created: string;
}

export interface CredentialsTable {
  id: string;
  kind: CredentialKind;
  /** The user who created it (owner for user credentials; creator for organization credentials). */
  user_id: string;
  /** Set for organization-owned credentials. */
  org_id: string | null;
  name: string;
  /** Token: display prefix (`nl_AbCd1234`); Basic: the public key (shown, looked up by it). */
  prefix: string;
  /** SHA-256 hex of the token (token) or of the private key (basic): both are 256-bit random secrets, see domain/identity/credentials/secrets.ts. */
  secret_hash: string;
  /** JSON array of scope strings. */
  scopes: string;
  created: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NetworksTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  is_directed: number;
  status: NetworkStatus;
  file_type: string;
  original_file_type: string;
  network_uuid: string;
  handpicked: number;
  max_views: number;
  node_count: number;
  edge_count: number;
  /** gzip-compressed network JSON (as stored after attribute cleaning). */
  json_gz: Uint8Array;
  json_bytes: number; // uncompressed size
  /** Incremented on every change; optimistic concurrency for metric write-back. */
  version: number;
  created: string;
  modified: string;
  /**
   * The organization the network belongs to (migration 0012): set when created by a member or an
   * organization credential, or moved in by its owner; null for a personal network.
   */
  org_id: string | null;
}

export interface NetworkSharesTable {
  network_id: string;
  user_id: string;
  permission: SharePermission;
  created: string;
}

/** A share with an e-mail that has no account yet (migration 0013); becomes a `network_shares` row when the account is created. */
export interface NetworkShareInvitesTable {
  network_id: string;
  email: string;
  permission: SharePermission;
  created: string;
}

export interface RateLimitsTable {
  /** e.g. `cred:<id>` or `org:<id>:launch`; window start in ms. */
  key: string;
  window_start: number;
  count: number;
}

/* ------------------------------------------------------------ embedding (0002) */

export type ChatAccess = 'off' | 'presetOnly' | 'full';
export type ManagedUserStatus = 'active' | 'deactivated';
export type EmbedHeader = 'none' | 'title';
export type EmbedTokenKind = 'launch' | 'access';

/** Embedding settings of an organization (one row once anything was set; absent = defaults, disabled). */
export interface EmbedSettingsTable {
  org_id: string;
  enabled: number;
  seats: number;
  /** JSON array of normalised origins (`https://host[:port]`). */
  allowed_origins: string;
  all_owned_networks: number;
  disclosure_accepted_at: string | null;
  /** Who accepted: `credential:<id>`, `cli`, ... */
  disclosure_accepted_by: string | null;
  /** JSON object: per-organization overrides of EmbedLimits (operator). */
  limits: string;
  modified: string;
}

/** The chosen embeddable networks when `all_owned_networks` is off. */
export interface EmbedNetworksTable {
  org_id: string;
  network_id: string;
  created: string;
}

/** Managed users: one row per `users` row of kind 'managed' (plus a membership with role = org_permission). */
export interface EmbedUsersTable {
  user_id: string;
  org_id: string;
  external_id: string;
  chat_access: ChatAccess;
  org_permission: EmbedOrgPermission;
  read_only: number;
  status: ManagedUserStatus;
  created: string;
  modified: string;
  last_active_at: string | null;
  deactivated_at: string | null;
}

export interface EmbedGrantsTable {
  user_id: string;
  network_id: string;
  permission: SharePermission;
  created: string;
}

export interface EmbedSessionsTable {
  id: string;
  org_id: string;
  user_id: string;
  network_id: string;
  origin: string;
  /** JSON of the normalised `ui`. */
  ui: string;
  header: EmbedHeader;
  max_minutes: number;
  created: string;
  expires_at: string;
  /** Last viewer/bridge activity (database mode; Redis holds it when configured). */
  last_activity_at: string;
  ended_at: string | null;
  ended_reason: string | null;
  /** 'embed' (a managed user, docs/spec/api.md Session); 'owner' / 'public': Explore of the web app (0006, docs/web-app.md). */
  mode: EmbedSessionMode;
  /** mode 'owner': the web session that opened it (the viewer ends with it). */
  web_session_id: string | null;
  /** mode 'owner' / 'public': the access at opening ('owner' | 'edit' | 'read'); re-checked on every request. */
  access: string | null;
}

export type EmbedSessionMode = 'embed' | 'owner' | 'public';

/** Launch and access tokens: only SHA-256 hex of the token is stored (database mode). */
export interface EmbedTokensTable {
  hash: string;
  kind: EmbedTokenKind;
  session_id: string;
  expires_at: string;
  used_at: string | null;
}

/** Short leases (one metric at a time per session) in database mode. */
export interface EmbedLocksTable {
  key: string;
  expires_at: string;
}

/** Saved views (EmbedView v1), per network. */
export interface EmbedViewsTable {
  id: string;
  network_id: string;
  name: string;
  description: string;
  /** JSON `{ layers, camera, display }`. */
  data: string;
  created_by: string | null;
  created: string;
  modified: string;
}

export interface EmbedAuditTable {
  id: string;
  org_id: string;
  at: string;
  /** `credential`, `managed_user`, `operator`, `cli`. */
  actor_kind: string;
  actor_id: string;
  action: string;
  target: string | null;
  /** JSON object. */
  details: string;
}

/** AI chat switch of an organization (no row: on). */
export interface EmbedChatSettingsTable {
  org_id: string;
  ai_chat: number;
  modified: string;
}

/** Preset questions of a network set by organization admins (no row: the default set). */
export interface EmbedChatPresetsTable {
  network_id: string;
  org_id: string;
  /** JSON string[]. */
  questions: string;
  modified: string;
}

export interface EmbedChatConversationsTable {
  id: string;
  session_id: string;
  created: string;
}

/** Chat messages of embedded sessions; user messages count against the organization's monthly AI allowance. */
export interface EmbedChatMessagesTable {
  id: string;
  org_id: string;
  session_id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  is_error: number;
  /** user: `asked`; assistant: `pending`, `done`, `error`, `cancelled`. */
  status: string;
  /** user messages: `host` or `viewer`. */
  source: string | null;
  /** assistant messages: the question answered. */
  reply_to: string | null;
  /** JSON array of assistant actions (layers, views) for the viewer to apply. */
  actions: string;
  created: string;
  finished: string | null;
}

/* ------------------------------------------------------ web application (0005) */

/** Browser sessions of the web app; the cookie value is never stored, only its SHA-256. */
export interface WebSessionsTable {
  /** Public id (listing, revoking); not the cookie value. */
  id: string;
  /** SHA-256 hex of the cookie value. */
  secret_hash: string;
  user_id: string;
  created: string;
  last_seen_at: string;
  /** Absolute end (created + sessionMaxMs); the idle end is last_seen_at + sessionIdleMs. */
  expires_at: string;
  user_agent: string;
  ip: string;
}

/** TOTP of a user: `secret` once enabled; `pending_secret` between setup and enable. */
export interface UserMfaTable {
  user_id: string;
  secret: string | null;
  pending_secret: string | null;
  enabled_at: string | null;
  /** Last accepted TOTP time step: a code is accepted once (no replay). */
  last_step: number;
  modified: string;
}

export interface MfaRecoveryCodesTable {
  user_id: string;
  /** SHA-256 hex of the normalised code. */
  code_hash: string;
  created: string;
  used_at: string | null;
}

export interface OrganizationSettingsTable {
  org_id: string;
  require_mfa: number;
  modified: string;
}

export type UserLinkKind = 'invite' | 'reset';

/** One-time invitation and password-reset links; only SHA-256 of the token is stored. */
export interface UserLinksTable {
  token_hash: string;
  kind: UserLinkKind;
  email: string;
  /** The user (reset; invite of an existing account); null for an invite that creates the account. */
  user_id: string | null;
  org_id: string | null;
  role: OrgRole | null;
  /** `user:<id>` or `cli`. */
  created_by: string | null;
  created: string;
  expires_at: string;
  used_at: string | null;
}

export interface MetaTable {
  key: string;
  value: string;
  id?: Generated<number>;
}

/**
 * One row (id 1): a counter increased by triggers on every committed change that can alter an
 * authenticated principal (migration 0004); the server's principal cache is valid while it is unchanged.
 */
export interface AuthEpochTable {
  id: number;
  v: number;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
/** What a claim of the row does: `run` the job (or shard) whole / the shard, `shards` = waiting for its shard rows, `merge` = sum them and finish. */
export type JobPhase = 'run' | 'shards' | 'merge';

/** Metric jobs and their shard rows (docs/jobs.md); also the queue when there is no Redis. */
export interface MetricJobsTable {
  id: string;
  /** Shard rows: the job they belong to. */
  parent_id: string | null;
  /** Tenant: `user:<id>` (user credentials) or `org:<id>` (organization credentials). */
  owner_key: string;
  /** The user whose credential created the job. */
  user_id: string;
  status: JobStatus;
  phase: JobPhase;
  /** 1 = a worker may claim it (when its lease is free or expired). */
  runnable: number;
  /** 1 = created by POST /metrics/batch (the result is the batch shape). */
  batch: number;
  /** JSON array of `{ metric, params }` (params as validated). */
  metrics: string;
  network_id: string | null;
  /** The stored network's version when the job was created: results are written only onto it. */
  network_version: number | null;
  node_count: number | null;
  /** With `networkJSON`: whether the posted network is directed (batch jobs; single jobs carry it in the body). */
  network_directed: number | null;
  /** With `networkJSON`: `body` = the request body of a metric endpoint (validated by the worker), `network` = validated network JSON (batch). */
  input_kind: 'body' | 'network' | null;
  /** With `networkJSON`: the input (see input_kind), gzip. */
  input_gz: Uint8Array | null;
  shard_index: number | null;
  shard_count: number | null;
  /** Shard rows: their partial sums (Float64 arrays, concatenated, little-endian). */
  partial: Uint8Array | null;
  progress: number;
  eta_seconds: number | null;
  timeout_ms: number;
  /** Claims so far (a job or shard is claimed at most 3 times: once plus two retries). */
  attempts: number;
  worker_id: string | null;
  /** ms since epoch; a running row whose lease passed is taken again. */
  lease_until: number | null;
  /** The answer (JSON text, gzip). */
  result_gz: Uint8Array | null;
  /** Problem JSON when failed. */
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** When a finished job is pruned (finished + retention). */
  expires_at: string | null;
  /** The embedded viewer session that started it (its job endpoints see only these); null for API jobs. */
  session_id: string | null;
  /** 0 = node values are answered, never written to the stored network (viewer runs with View access). */
  write_back: Generated<number>;
}

/* ------------------------------------------------------- directory (0009, docs/spec/decisions.md §9) */

/** `org:<organization id>` or `user:<user id>`: whose directory a row belongs to (domain/people/directory.ts). */
export type DirectoryKey = string;
export type CustomFieldType = 'text' | 'number' | 'date' | 'category';
export type EmployeeStatus = 'active' | 'left';

export interface CustomFieldsTable {
  id: string;
  dir: DirectoryKey;
  /** 1–64 letters, digits, `_`, `-`; unique in the directory. */
  key: string;
  label: string;
  type: CustomFieldType;
  /** JSON string[] (category) or null. */
  options: string | null;
  sensitive: number;
  created: string;
  modified: string;
}

export interface EmployeesTable {
  id: string;
  dir: DirectoryKey;
  /** The organization's own HR id; unique in the directory. */
  employee_id: string;
  name: string;
  email: string | null;
  /** Lower-cased e-mail: unique in the directory when present. */
  email_lc: string | null;
  manager_id: string | null;
  photo_url: string | null;
  /** JSON object { <custom field key>: String | Number }. */
  fields: string;
  status: EmployeeStatus;
  created: string;
  modified: string;
}

/* --------------------------------------------------------- surveys (0010, docs/spec/decisions.md §9) */

export type SurveyStatus = 'draft' | 'collecting' | 'offline' | 'completed';
export type SurveyPrivacy = 'identified' | 'confidential' | 'pseudonymised';
export type ResponseStatus = 'notStarted' | 'inProgress' | 'submitted';

export interface SurveysTable {
  id: string;
  dir: DirectoryKey;
  owner_id: string;
  name: string;
  status: SurveyStatus;
  privacy: SurveyPrivacy;
  min_group_size: number;
  intro: string;
  /** JSON { text, required } or null. */
  consent: string | null;
  /** JSON selector `{ all: true } | { employeeIds } | { field, values }`. */
  roster: string;
  respondents: string;
  /** JSON: the current questions (version `version`). */
  questions: string;
  /** Question version: 1 at creation; +1 on every change of the questions after launch. */
  version: number;
  /** JSON { opensAt?, closesAt?, reminders: { everyDays, max } }. */
  schedule: string;
  /** JSON { launch: { subject, body }, reminder: { subject, body } }. */
  email: string;
  wave: number;
  previous_wave_id: string | null;
  /** Generation of the open link (`/s/open/<token>`); null = no open link. */
  open_link_gen: number | null;
  open_link_hash: string | null;
  /** JSON string[]: the employeeIds of the roster, fixed at launch (null before). */
  roster_ids: string | null;
  created: string;
  modified: string;
  launched_at: string | null;
  closed_at: string | null;
}

/** The questions of every version a respondent may have answered (version 1 … surveys.version). */
export interface SurveyVersionsTable {
  survey_id: string;
  version: number;
  questions: string;
  created: string;
}

export interface SurveySharesTable {
  survey_id: string;
  user_id: string;
  permission: SharePermission;
  created: string;
}

/** One row per respondent (created at launch): the link, the status of the response. */
export interface SurveyRespondentsTable {
  survey_id: string;
  employee_id: string;
  /** SHA-256 hex of the current link token; null when revoked. */
  token_hash: string | null;
  /** Link generation (a re-issue makes a new token; the old one stops working). */
  token_gen: number;
  /** Stable random code per survey (pseudonymised surveys show it instead of the employeeId). */
  pseudonym: string;
  status: ResponseStatus;
  started_at: string | null;
  submitted_at: string | null;
  /** Last owner entry: `user:<id>` / `credential:<id>` (null when only the respondent answered). */
  entered_by: string | null;
  modified: string;
}

/** One saved answer per (survey, respondent, question): PUT per question is one atomic upsert. */
export interface SurveyAnswersTable {
  survey_id: string;
  employee_id: string;
  question_id: string;
  /** JSON of the value as saved. */
  value: string;
  /** The question version answered. */
  version: number;
  saved_at: string;
}

export type DeliveryStatus = 'claimed' | 'sent' | 'failed';

/** One e-mail per (survey, respondent, step): claimed atomically before sending, so it is sent once. */
export interface SurveyDeliveriesTable {
  survey_id: string;
  employee_id: string;
  /** `launch`, `reminder-1`, `reminder-2`, ... */
  step: string;
  status: DeliveryStatus;
  claimed_by: string;
  claimed_at: string;
  sent_at: string | null;
  error: string | null;
}

/** The table queue of survey e-mail (0015): one row per (survey, step) to send, claimed with a lease. */
export interface SurveyMailTasksTable {
  /** `<surveyId>:<step>` */
  id: string;
  survey_id: string;
  step: string;
  /** ms since epoch */
  queued_at: number;
  worker_id: string | null;
  /** ms since epoch; a row whose lease passed is taken by another worker. */
  lease_until: number | null;
  attempts: Generated<number>;
}

/** Hashes of respondent links that were revoked or re-issued (0011): such a link answers LINK_REVOKED, not "not found". */
export interface SurveyLinkHistoryTable {
  hash: string;
  survey_id: string;
  employee_id: string;
  revoked_at: string;
}

/** A network generated from a survey (0014): one per (survey, question id | "combined"). */
export interface SurveyNetworksTable {
  survey_id: string;
  /** The relationship question's id, or `combined`. */
  question: string;
  network_id: string;
  /** JSON: the options of the last generation (questions, combined, nonRespondents, minRating, fields, privacy, wave). */
  options: string;
  /** 1 when generated before the survey was completed. */
  preliminary: number;
  generated_at: string;
  /** networks.version right after the generation (0016); a different current version means the network was changed since. Null before 0016. */
  network_version: number | null;
}

export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  credentials: CredentialsTable;
  auth_epoch: AuthEpochTable;
  networks: NetworksTable;
  network_shares: NetworkSharesTable;
  network_share_invites: NetworkShareInvitesTable;
  rate_limits: RateLimitsTable;
  meta: MetaTable;
  embed_settings: EmbedSettingsTable;
  embed_networks: EmbedNetworksTable;
  embed_users: EmbedUsersTable;
  embed_grants: EmbedGrantsTable;
  embed_sessions: EmbedSessionsTable;
  embed_tokens: EmbedTokensTable;
  embed_locks: EmbedLocksTable;
  embed_views: EmbedViewsTable;
  embed_audit: EmbedAuditTable;
  embed_chat_settings: EmbedChatSettingsTable;
  embed_chat_presets: EmbedChatPresetsTable;
  embed_chat_conversations: EmbedChatConversationsTable;
  embed_chat_messages: EmbedChatMessagesTable;
  web_sessions: WebSessionsTable;
  user_mfa: UserMfaTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  organization_settings: OrganizationSettingsTable;
  user_links: UserLinksTable;
  metric_jobs: MetricJobsTable;
  custom_fields: CustomFieldsTable;
  employees: EmployeesTable;
  surveys: SurveysTable;
  survey_versions: SurveyVersionsTable;
  survey_shares: SurveySharesTable;
  survey_respondents: SurveyRespondentsTable;
  survey_answers: SurveyAnswersTable;
  survey_deliveries: SurveyDeliveriesTable;
  survey_mail_tasks: SurveyMailTasksTable;
  survey_link_history: SurveyLinkHistoryTable;
  survey_networks: SurveyNetworksTable;
}
