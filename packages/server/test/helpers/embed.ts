/**
 * Embedding test fixtures: an organization with embedding enabled (through the operator API), an
 * organization credential, allowed origins and the data-disclosure acknowledgement, networks owned by
 * the organization, and short-hands for the host and viewer calls. The clock is injected (`clock.now`).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { testApp, bearer, smallNetwork, type Dialect, type TestApp } from './app.ts';

export const OPERATOR_TOKEN = 'op_test_0123456789abcdefghijklmnopqrstuvwxyz';
export const ORIGIN = 'https://host.example.com';

export interface Clock {
  now: number;
  advance(ms: number): void;
}

export function clock(start = Date.parse('2026-03-02T10:00:00.000Z')): Clock {
  const c = { now: start, advance: (ms: number) => void (c.now += ms) };
  return c;
}

export interface EmbedFixture {
  t: TestApp;
  app: FastifyInstance;
  clock: Clock;
  orgId: string;
  ownerId: string;
  /** Organization credential, full access. */
  orgToken: string;
  networkId: string;
  host(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown, token?: string): Promise<{ statusCode: number; json(): any; body: string; headers: Record<string, unknown> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  operator(body: unknown, orgId?: string): Promise<void>;
  createNetwork(name?: string): Promise<string>;
  close(): Promise<void>;
}

export async function embedFixture(dialect: Dialect, env: Record<string, string> = {}, opts: { clock?: Clock; seats?: number } = {}): Promise<EmbedFixture> {
  const c = opts.clock ?? clock();
  const t = await testApp(dialect, { NETLOOM_OPERATOR_TOKEN: OPERATOR_TOKEN, ...env }, { now: () => c.now });
  const owner = await t.user({ plan: 'enterprise' });
  const org = await t.org(owner.id, { plan: 'enterprise' });
  const orgToken = await t.token(owner.id, { orgId: org.id });
  const app = t.app;
  const host: EmbedFixture['host'] = (method, url, payload, token = orgToken) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) }) as never;
  const operator = async (body: unknown, orgId = org.id) => {
    const r = await app.inject({ method: 'PUT', url: `/api/v2/operator/organizations/${orgId}/embedding`, headers: bearer(OPERATOR_TOKEN), payload: body as object });
    assert.equal(r.statusCode, 200, r.body);
  };
  const createNetwork = async (name = 'Team') => {
    const r = await host('POST', '/api/v2/networks', { name, networkJSON: smallNetwork() });
    assert.equal(r.statusCode, 200, r.body);
    return r.json()._id as string;
  };
  await operator({ enabled: true, seats: opts.seats ?? 10 });
  const s = await host('PUT', '/api/v2/embed/settings', { allowedOrigins: [ORIGIN], dataDisclosureAccepted: true });
  assert.equal(s.statusCode, 200, s.body);
  const networkId = await createNetwork();
  return { t, app, clock: c, orgId: org.id, ownerId: owner.id, orgToken, networkId, host, operator, createNetwork, close: () => t.close() };
}

/** Provisions a managed user with a grant and opens a session; returns the session and its first launch token. */
export async function openSession(
  f: EmbedFixture,
  opts: { externalId?: string; permission?: 'View' | 'Edit'; networkId?: string; maxMinutes?: number; ui?: unknown } = {},
): Promise<{ sessionId: string; launchToken: string; externalId: string; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const externalId = opts.externalId ?? `user-${Math.random().toString(36).slice(2, 10)}`;
  const networkId = opts.networkId ?? f.networkId;
  const u = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(externalId)}`, { displayName: `Viewer ${externalId}` });
  assert.ok(u.statusCode === 201 || u.statusCode === 200, u.body);
  const g = await f.host('PUT', `/api/v2/embed/users/${encodeURIComponent(externalId)}/networks/${networkId}`, { permission: opts.permission ?? 'Edit' });
  assert.equal(g.statusCode, 200, g.body);
  const s = await f.host('POST', '/api/v2/embed/sessions', {
    externalId,
    networkIds: [networkId],
    origin: ORIGIN,
    ...(opts.maxMinutes !== undefined ? { maxMinutes: opts.maxMinutes } : {}),
    ...(opts.ui !== undefined ? { ui: opts.ui } : {}),
  });
  assert.equal(s.statusCode, 201, s.body);
  return { sessionId: s.json().sessionId, launchToken: s.json().launchToken, externalId, body: s.json() };
}

export async function exchange(app: FastifyInstance, sessionId: string, launchToken: string, ip = '10.0.0.1') {
  return app.inject({ method: 'POST', url: `/api/v2/embed/sessions/${sessionId}/access-tokens`, payload: { launchToken }, remoteAddress: ip });
}

export async function accessToken(f: EmbedFixture, sessionId: string, launchToken: string): Promise<string> {
  const r = await exchange(f.app, sessionId, launchToken);
  assert.equal(r.statusCode, 200, r.body);
  return r.json().accessToken as string;
}

export function viewer(app: FastifyInstance, token: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) {
  return app.inject({ method, url: `/api/v2/embed/viewer/${path}`, headers: { authorization: `Bearer ${token}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
}

export const VIEW = {
  name: 'Sales only',
  description: 'filtered',
  layers: [
    { id: 'l1', operation: 'Filter', appliedTo: 'nodes', attribute: 'team', attType: 'string', hidden: false, values: ['Sales'] },
    { id: 'l2', operation: 'Calculate', summary: 'Betweenness Centrality', readOnly: true },
  ],
  camera: { x: 0.5, y: 0.5, ratio: 1, angle: 0 },
  display: { backgroundColor: '#ffffff', showLabels: 'always', showEdges: true },
};
