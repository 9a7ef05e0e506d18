/** Shapes of the `/app/api` answers the app reads (docs/web-app.md). */

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  plan: string;
  mfaEnabled: boolean;
}

export interface SessionOrganization {
  id: string;
  name: string;
  role: string;
  plan: string;
  requireMfa: boolean;
  embeddingEnabled: boolean;
}

export interface Session {
  user: SessionUser;
  organization: SessionOrganization | null;
  csrfToken: string;
  mfaEnrolmentRequired: boolean;
}

export type Access = 'owner' | 'edit' | 'read';
export type NetworkStatus = 'Public' | 'Private';

export interface Network {
  _id: string;
  name: string;
  description: string;
  isDirected: boolean;
  status: NetworkStatus;
  created: string;
  modified: string;
  fileType?: string;
  originalFileType?: string;
  handpicked?: boolean;
  owner: { _id: string; name: string };
  nodeCount: number;
  edgeCount: number;
  access?: Access;
}

/** What an import converted, dropped or interpreted (docs/api/import-export.md, "Warnings"). */
export interface ImportWarning {
  path: string;
  message: string;
  count: number;
}

export interface ImportedNetwork extends Network {
  warnings: ImportWarning[];
}

export interface Share {
  email: string;
  name?: string;
  permission: 'View' | 'Edit';
}

export interface NetworkDetail extends Network {
  access: Access;
  viewCount: number;
  shares: Share[];
}

export interface Counts {
  public: number;
  private: number;
}
export interface Maxima {
  public: number | null;
  private: number | null;
}

export interface NetworkList {
  networks: Network[];
  counts: Counts;
  maxima: Maxima;
}

export interface PublicNetworks {
  networks: Network[];
  total: number;
}

export interface Credential {
  id: string;
  kind: 'token' | 'basic';
  name: string;
  prefix: string;
  scopes: string[];
  fullAccess: boolean;
  created: string;
  lastUsedAt: string | null;
  owner: { type: 'user' | 'organization'; id: string; name: string };
}

export interface Account {
  user: SessionUser;
  plan: string;
  networkCounts: Counts;
  networkMaxima: Maxima;
  organization: SessionOrganization | null;
  mfa: { enabled: boolean; recoveryCodesLeft: number };
}

export interface WebSession {
  id: string;
  created: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

export interface LinkInfo {
  kind: 'invite' | 'reset';
  email: string;
  organization: { name: string } | null;
  expiresAt: string;
  /** An invitation that creates the account: redemption needs a name. */
  needsName: boolean;
}

export const EXPORT_FORMATS = [
  { id: 'json', label: 'JSON', ext: 'json' },
  { id: 'xlsx', label: 'Excel', ext: 'xlsx' },
  { id: 'gexf', label: 'GEXF', ext: 'gexf' },
  { id: 'graphml', label: 'GraphML', ext: 'graphml' },
  { id: 'csv', label: 'CSV', ext: 'csv' },
] as const;

export const TEMPLATE_FORMATS = [
  { id: 'xlsx', label: 'Excel' },
  { id: 'gexf', label: 'GEXF' },
  { id: 'graphml', label: 'GraphML' },
  { id: 'json', label: 'JSON' },
  { id: 'csv', label: 'CSV' },
] as const;

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A metric job as `/app/api/jobs` lists it (docs/jobs.md), with its network's name. */
export interface WebJob {
  jobId: string;
  status: JobStatus;
  /** 0..1, never decreases. */
  progress: number;
  /** Estimated seconds left; null until there is progress. */
  etaSeconds: number | null;
  metric?: string;
  metrics: { metric: string; parameters: Record<string, unknown> }[];
  batch: boolean;
  networkId?: string;
  networkName: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error?: { code: string; detail: string; message: string };
}

export interface WebJobList {
  jobs: WebJob[];
  total: number;
  limit: number;
  offset: number;
}
