/**
 * The shapes of the `/app/api` answers the app reads (docs/web-app.md): each is `Static<>` of the server's
 * own wire schema from the shared contract (@netloom/protocol/http), never written out here — a change of
 * the wire changes these types and the typecheck names every place it matters.
 */
import type { Static } from 'typebox';
import type {
  AccountSchema,
  ImportedNetworkSchema,
  LinkInfoSchema,
  PublicNetworkListSchema,
  SessionInfoSchema,
  ShareBody,
  ShareSchema,
  WebCredentialSchema,
  WebJobListSchema,
  WebJobSchema,
  WebNetworkValueSchema,
  WebNetworkDetailSchema,
  WebNetworkListSchema,
  WebNetworkSchema,
  WebOrganizationSchema,
  WebSessionItemSchema,
  WebUserSchema,
} from '@netloom/protocol/http';

export type SessionUser = Static<typeof WebUserSchema>;
export type SessionOrganization = Static<typeof WebOrganizationSchema>;
export type Session = Static<typeof SessionInfoSchema>;
export type Network = Static<typeof WebNetworkSchema>;
export type Access = NonNullable<Network['access']>;
export type NetworkStatus = Network['status'];
/** An import's answer: the network and what was converted, dropped or interpreted (docs/api/import-export.md, "Warnings"). */
export type ImportedNetwork = Static<typeof ImportedNetworkSchema>;
export type ImportWarning = ImportedNetwork['warnings'][number];
export type Share = Static<typeof ShareSchema>;
export type ShareInput = Static<typeof ShareBody>;
export type NetworkDetail = Static<typeof WebNetworkDetailSchema>;
export type NetworkList = Static<typeof WebNetworkListSchema>;
export type Counts = NetworkList['counts'];
export type Maxima = NetworkList['maxima'];
export type PublicNetworks = Static<typeof PublicNetworkListSchema>;
export type Credential = Static<typeof WebCredentialSchema>;
export type Account = Static<typeof AccountSchema>;
export type WebSession = Static<typeof WebSessionItemSchema>;
export type LinkInfo = Static<typeof LinkInfoSchema>;
export type WebJob = Static<typeof WebJobSchema>;
export type WebNetworkValue = Static<typeof WebNetworkValueSchema>;
export type JobStatus = WebJob['status'];
export type WebJobList = Static<typeof WebJobListSchema>;
