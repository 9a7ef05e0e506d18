// docs/metrics.md and docs/errors.md are generated from the registries; this keeps them in sync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsDoc, errorsDoc } from '../../../scripts/gen-docs.ts';
import { metrics } from '@netloom/engine';
import { ERROR_CODES } from '../src/http/error-codes.ts';

const root = join(import.meta.dirname, '..', '..', '..');

test('docs/metrics.md matches the metric registry (run node scripts/gen-docs.ts)', () => {
  const text = readFileSync(join(root, 'docs/metrics.md'), 'utf8');
  assert.equal(text, metricsDoc());
  for (const id of metrics.keys()) assert.ok(text.includes(`## ${id}\n`), id);
});

test('docs/errors.md matches the error-code registry (run node scripts/gen-docs.ts)', () => {
  const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  assert.equal(text, errorsDoc());
  for (const code of Object.keys(ERROR_CODES)) assert.ok(text.includes(`\`${code}\``), code);
});
