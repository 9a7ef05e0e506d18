import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, ERROR_CODES, fieldOf, invalidArgs, problemDetail } from './errors.ts';

test('one registry: a DomainError takes its status from ERROR_CODES', () => {
  for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) assert.equal(new DomainError(code, 'x').status, ERROR_CODES[code].status);
});

test('the first problem becomes the detail as `field: message`; errors lists up to 100', () => {
  assert.equal(fieldOf('/networkJSON/edges/3/target'), 'networkJSON.edges.3.target');
  assert.equal(fieldOf('/a\u0000b'), 'a\\u0000b');
  assert.equal(problemDetail([{ path: '/query/limit', message: 'must be a whole number' }, { path: '/x', message: 'y' }]), 'query.limit: must be a whole number');
  assert.equal(problemDetail([{ path: '', message: 'must be an object' }]), 'body: must be an object');
  assert.equal(problemDetail([{ path: '', message: 'is unknown' }], 'parameters'), 'parameters: is unknown');
  const many = Array.from({ length: 150 }, (_, i) => ({ path: `/n/${i}`, message: 'bad' }));
  const err = invalidArgs(many);
  assert.equal(err.code, 'INVALID_ARGS');
  assert.equal(err.status, 400);
  assert.equal(err.detail, 'n.0: bad');
  assert.equal(err.errors?.length, 100);
});
