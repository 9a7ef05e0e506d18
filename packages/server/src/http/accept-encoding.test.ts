import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsGzip } from './accept-encoding.ts';

test('acceptsGzip follows the weights of Accept-Encoding', () => {
  const yes = ['gzip', 'GZIP', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', 'x-gzip', '*', 'br, *;q=0.1', 'gzip;q=0.001', ' deflate , gzip ; q=0.5 '];
  const no = [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip;q=0.0', 'gzip;q=0, *', '*;q=0', 'br;q=1, gzip;q=0, *;q=0.5', 'gzipx', 'notgzip'];
  for (const h of yes) assert.equal(acceptsGzip(h), true, JSON.stringify(h));
  for (const h of no) assert.equal(acceptsGzip(h), false, JSON.stringify(h));
  assert.equal(acceptsGzip(['br', 'gzip']), true);
});
