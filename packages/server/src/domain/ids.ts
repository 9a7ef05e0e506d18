/** Resource ids: 24 lowercase hex characters (96 random bits), like the original service's `_id`. */
import { randomBytes } from 'node:crypto';

const ID = /^[0-9a-f]{24}$/;

export function newId(): string {
  return randomBytes(12).toString('hex');
}

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}
