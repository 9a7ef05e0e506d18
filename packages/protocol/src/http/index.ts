/**
 * @netloom/protocol/http — the HTTP contract the server and the web app share (docs/architecture.md
 * "The HTTP contract"): the TypeBox wire schemas the server registers its routes with (and that become
 * the OpenAPI documents), the web app's URL paths, the file formats and permission lists. The web app
 * types its calls with `Static<>` of these schemas. Not re-exported by the package's main entry, so the
 * embedded viewer and the SDK (which import `@netloom/protocol`) never pull TypeBox into the iframe.
 *
 * NAMED_SCHEMAS is the registry of named wire schemas: each is added once to Fastify (`app.addSchema`, by
 * the server's schemas/index.ts), is referenced by routes and other schemas with `ref()` (ref.ts), and
 * becomes `components.schemas.<$id>` of the OpenAPI document. Add a new shared shape to it (the order does
 * not matter; references resolve by `$id`).
 */
import type { TSchema } from 'typebox';
import { ProblemItemSchema, ProblemSchema } from './problem.ts';
import { EMBED_SCHEMAS } from './embed.ts';
import { METRIC_SCHEMAS } from './metric.ts';
import { ANALYSIS_SCHEMAS } from './analysis.ts';
import { JOB_SCHEMAS } from './jobs.ts';
import { VIEWER_JOB_SCHEMAS } from './viewer-jobs.ts';
import { CONSOLE_SCHEMAS } from './console.ts';
import { WEB_SCHEMAS } from './web.ts';
import { WEB_NETWORK_SCHEMAS } from './web-networks.ts';
import { WEB_JOB_SCHEMAS } from './web-jobs.ts';
import { PEOPLE_SCHEMAS } from './people.ts';
import { SURVEY_SCHEMAS } from './surveys.ts';
import { PASSWORD_RESET_SCHEMAS } from './password-reset.ts';
import { Attributes, DeletedSchema, EdgeSchema, ImportedNetworkSchema, ImportWarningSchema, NetworkBody, NetworkJSONSchema, NetworkResourceSchema, NetworkWithJSONSchema, NodeSchema } from './network.ts';

export * from './ref.ts';
export * from './problem.ts';
export * from './network.ts';
export * from './network-files.ts';
export * from './metric.ts';
export * from './analysis.ts';
export * from './analysis-options.ts';
export * from './jobs.ts';
export * from './viewer-jobs.ts';
export * from './embed.ts';
export * from './console.ts';
export * from './web.ts';
export * from './web-networks.ts';
export * from './web-jobs.ts';
export * from './people.ts';
export * from './surveys.ts';
export * from './password-reset.ts';
export * from './formats.ts';
export * from './permissions.ts';
export * from './paths.ts';
export * from './origin.ts';

export const NAMED_SCHEMAS: readonly TSchema[] = [
  ProblemItemSchema,
  ProblemSchema,
  Attributes,
  NodeSchema,
  EdgeSchema,
  NetworkJSONSchema,
  NetworkBody,
  NetworkResourceSchema,
  NetworkWithJSONSchema,
  ImportWarningSchema,
  ImportedNetworkSchema,
  DeletedSchema,
  ...METRIC_SCHEMAS,
  ...ANALYSIS_SCHEMAS,
  ...EMBED_SCHEMAS,
  ...JOB_SCHEMAS,
  ...VIEWER_JOB_SCHEMAS,
  ...WEB_SCHEMAS,
  ...WEB_NETWORK_SCHEMAS,
  ...WEB_JOB_SCHEMAS,
  ...CONSOLE_SCHEMAS,
  ...PEOPLE_SCHEMAS,
  ...SURVEY_SCHEMAS,
  ...PASSWORD_RESET_SCHEMAS,
];
