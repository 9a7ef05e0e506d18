import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';

test('scrypt hash: salted, verifiable, wrong password refused', async () => {
  const h1 = await hashPassword('correct horse');
  const h2 = await hashPassword('correct horse');
  assert.notEqual(h1, h2, 'salted');
  assert.match(h1, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.equal(await verifyPassword('correct horse', h1), true);
  assert.equal(await verifyPassword('correct horsE', h1), false);
  assert.equal(await verifyPassword('', h1), false);
  assert.equal(await verifyPassword('x', null), false);
  assert.equal(await verifyPassword('x', 'garbage'), false);
  assert.equal(await verifyPassword('x', 'scrypt$999999999$8$1$aa$bb'), false, 'absurd parameters refused');
});

test('generated passwords', () => {
  const p = generatePassword(20);
  assert.equal(p.length, 20);
  assert.match(p, /^[A-HJ-NP-Za-km-z2-9]+$/);
  assert.notEqual(p, generatePassword(20));
});
