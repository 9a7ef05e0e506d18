/**
 * The Fastify instance type every route plugin receives: typed by the TypeBox type provider, so
 * `request.params`, `request.query` and `request.body` get their types from the route's schemas
 * (no hand casts) and replies are checked against the declared response schemas.
 */
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
