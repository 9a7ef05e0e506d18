import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_ERROR_CODES, EngineError, invalidArgsOf } from '@netloom/engine';
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
  // the engine builds its details with the same rule
  const engineErr = invalidArgsOf(many, 'parameters');
  assert.equal(engineErr.message, 'n.0: bad');
  assert.equal(engineErr.errors.length, 100);
  assert.equal(problemDetail([{ path: '', message: 'must be an object' }], ''), 'must be an object');
});

test('file problems: places shown as they are, a lead, and how many more there are', () => {
  const items = [
    { path: 'edges.csv line 4', message: 'no target' },
    { path: 'edges.csv line 9', message: 'no source' },
    { path: 'edges.csv line 12', message: 'no source' },
  ];
  assert.equal(problemDetail(items, { paths: 'place', total: items.length }), 'edges.csv line 4: no target (and 2 more problems)');
  assert.equal(problemDetail(items.slice(0, 2), { paths: 'place', total: 2 }), 'edges.csv line 4: no target (and 1 more problem)');
  assert.equal(problemDetail(items.slice(0, 1), { paths: 'place', total: 1 }), 'edges.csv line 4: no target');
  assert.equal(problemDetail(items, { lead: 'the file has problems', paths: 'place', total: 'stopped' }), 'the file has problems: edges.csv line 4: no target (and more: reading stopped after 3 problems)');
  assert.equal(problemDetail([{ path: '/rows/3/team', message: 'row 3, column B (team): is not an option' }], { lead: 'the file has problems', paths: 'none', total: 1 }), 'the file has problems: row 3, column B (team): is not an option');
});
