/**
 * The registry of named wire schemas: each is added once to Fastify (`app.addSchema`), is referenced by
 * routes and other schemas with `ref()` (schemas/ref.ts), and becomes `components.schemas.<$id>` of the
 * OpenAPI document. Add a new shared shape here (the order does not matter; references resolve by `$id`).
 */
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ProblemItemSchema, ProblemSchema } from './problem.ts';
import { EMBED_SCHEMAS } from './embed.ts';
import { METRIC_SCHEMAS } from './metric.ts';
import { JOB_SCHEMAS } from './jobs.ts';
import { VIEWER_JOB_SCHEMAS } from './viewer-jobs.ts';
import { CONSOLE_SCHEMAS } from './console.ts';
import { WEB_SCHEMAS } from './web.ts';
import { WEB_NETWORK_SCHEMAS } from './web-networks.ts';
import { WEB_JOB_SCHEMAS } from './web-jobs.ts';
import { PEOPLE_SCHEMAS } from './people.ts';
import { Attributes, DeletedSchema, EdgeSchema, ImportedNetworkSchema, ImportWarningSchema, NetworkBody, NetworkJSONSchema, NetworkResourceSchema, NetworkWithJSONSchema, NodeSchema } from './network.ts';

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
  ...EMBED_SCHEMAS,
  ...JOB_SCHEMAS,
  ...VIEWER_JOB_SCHEMAS,
  ...WEB_SCHEMAS,
  ...WEB_NETWORK_SCHEMAS,
  ...WEB_JOB_SCHEMAS,
  ...CONSOLE_SCHEMAS,
  ...PEOPLE_SCHEMAS,
];

export function registerNamedSchemas(app: FastifyInstance, schemas: readonly TSchema[] = NAMED_SCHEMAS): void {
  const seen = new Set<string>();
  for (const schema of schemas) {
    const id = (schema as { $id?: string }).$id;
    if (!id) throw new Error('a named schema needs an $id');
    if (seen.has(id)) throw new Error(`two named schemas share the $id ${id}`);
    seen.add(id);
    app.addSchema(schema);
  }
}
