/**
 * Response serializers, compiled once per distinct schema.
 *
 * Every route declares each response it can send (docs/architecture.md, "Schemas"), most of them the same
 * shared problem schema under several statuses. Fastify's default compiler builds a fast-json-stringify
 * function for every route × status × content type, and each build re-reads and re-validates every named
 * schema: with ~200 routes that made `app.ready()` take 10–12 s of CPU (profiled: fast-json-stringify's
 * `build` was 95 % of start-up). Serializers depend only on the schema and the named schemas of the
 * context, so equal schemas share one compiled function: start-up compiles each distinct one once.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Serializer = SerializerSelector.Serializer;

/** A Fastify `schemaController.compilersFactory.buildSerializer` that memoizes by the schema's JSON. */
export const buildCachedSerializer: SerializerSelector.SerializerFactory = (externalSchemas, serializerOpts) => {
  const compile = SerializerSelector()(externalSchemas, serializerOpts);
  const compiled = new Map<string, Serializer>();
  return (route) => {
    const key = JSON.stringify(route.schema);
    let fn = compiled.get(key);
    if (!fn) {
      fn = compile(route);
      compiled.set(key, fn);
    }
    return fn;
  };
};
