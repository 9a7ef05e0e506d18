import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ViewerApi } from './api.ts';
import { TokenManager } from './tokens.ts';

test('network data is fetched from the viewer API base, whatever host the signed link names', async () => {
  const calls: string[] = [];
  const fake = (async (input: string | URL | Request) => {
    const url = String(input);
    calls.push(url);
    if (url.endsWith('/api/v2/embed/viewer/network')) {
      return Response.json({ networkId: 'n1', name: 'Net', isDirected: false, dataUrl: 'http://localhost:8080/api/v2/embed/data/s1?network=n1&exp=9&sig=abc' });
    }
    if (url.includes('/api/v2/embed/data/')) return Response.json({ nodes: [{ id: 1 }], edges: [] });
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
  const api = new ViewerApi({ base: 'http://127.0.0.1:9999/', sessionId: 's1', fetch: fake });
  api.tokens = new TokenManager({
    requestLaunchToken: async () => 'nll_1',
    exchange: async () => ({ accessToken: 'nla_1', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() }),
    now: () => Date.now(),
    setTimer: () => 0,
    clearTimer: () => undefined,
  });
  const net = await api.network();
  assert.equal(net.name, 'Net');
  assert.equal(net.json.nodes.length, 1);
  assert.equal(calls.at(-1), 'http://127.0.0.1:9999/api/v2/embed/data/s1?network=n1&exp=9&sig=abc');
});
