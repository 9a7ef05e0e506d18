/**
 * Named schemas: every shared wire shape is a TypeBox schema with an `$id`, registered once
 * (http/index.ts → `app.addSchema`) and appearing in the OpenAPI document as
 * `components.schemas.<$id>`. Routes and other schemas never inline a named schema: they reference it
 * with `ref(Schema)`, which keeps the TypeScript type of the schema for the type provider.
 */
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string' || id === '') throw new Error('ref(): the schema has no $id; name it and add it to http/index.ts');
  return Type.Unsafe<Static<T>>({ $ref: `${id}#` });
}
