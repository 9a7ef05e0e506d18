// docs/embed-sdk.md is generated from the protocol registries; this keeps it in sync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EMBED_DOC_PATH, embedSdkDoc } from '../../../scripts/gen-embed-docs.ts';
import { COMMAND_NAMES, ERROR_CODE_NAMES, EVENT_NAMES } from './index.ts';

test('docs/embed-sdk.md matches the protocol registries (run node scripts/gen-embed-docs.ts)', () => {
  const text = readFileSync(EMBED_DOC_PATH, 'utf8');
  assert.equal(text, embedSdkDoc());
  for (const n of [...COMMAND_NAMES, ...EVENT_NAMES, ...ERROR_CODE_NAMES]) assert.ok(text.includes(`\`${n}\``), n);
});
