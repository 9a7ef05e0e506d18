import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_ERROR_CODES, EngineError } from '@netloom/engine';
import { PROBLEM_CODES } from '@netloom/protocol';
import { DomainError, ERROR_CODES, fieldOf, invalidArgs, problemDetail } from './errors.ts';

test('one registry: a DomainError takes its status from ERROR_CODES', () => {
  for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) assert.equal(new DomainError(code, 'x').status, ERROR_CODES[code].status);
});

test('one registry for the engine and the server: PROBLEM_CODES of @netloom/protocol', () => {
  assert.equal(ERROR_CODES, PROBLEM_CODES);
  for (const code of ENGINE_ERROR_CODES) {
    assert.ok(Object.hasOwn(PROBLEM_CODES, code), `engine code ${code} is in the registry`);
    assert.equal(new EngineError(code, 'x').status, PROBLEM_CODES[code].status);
  }
  assert.equal(new EngineError('METRIC_TIMEOUT', 'x').status, 422);
  assert.equal(new EngineError('CANCELLED', 'x').status, 499);
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
