import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCachedSerializer } from './serializers.ts';

const external = { 'Problem': { $id: 'Problem', type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } };

test('equal response schemas share one compiled serializer; different ones do not; output follows the schema', () => {
  const build = buildCachedSerializer(external, {});
  const route = (url: string, httpStatus: string, schema: unknown) => ({ schema, method: 'GET', url, httpStatus });
  const a = build(route('/a', '400', { $ref: 'Problem#' }));
  const b = build(route('/b', '404', { $ref: 'Problem#' }));
  assert.equal(a, b, 'the same schema on two routes is compiled once');
  const c = build(route('/c', '200', { type: 'object', properties: { n: { type: 'integer' } } }));
  assert.notEqual(a, c);
  assert.equal(a({ code: 'NOT_FOUND', message: 'm', secret: 'x' }), '{"code":"NOT_FOUND","message":"m"}');
  assert.equal(c({ n: 3, extra: 1 }), '{"n":3}');
});
