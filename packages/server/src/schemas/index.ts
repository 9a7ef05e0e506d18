/**
 * Registers the named wire schemas of the shared HTTP contract (NAMED_SCHEMAS of @netloom/protocol/http)
 * with Fastify, once each: routes and other schemas reference them with `ref()`, and each becomes
 * `components.schemas.<$id>` of the OpenAPI document.
 */
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { NAMED_SCHEMAS } from '@netloom/protocol/http';

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
