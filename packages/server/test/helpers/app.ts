/**
 * Test harness: a real app (buildApp) on a fresh database (db.ts: SQLite in a temp dir, or PostgreSQL in a
 * schema of its own, dropped at close) — plus factories for users, organizations and credentials.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../../src/config.ts';
import { buildApp } from '../../src/app.ts';
import type { DatabaseHandle } from '../../src/store/db.ts';
import { createUser, createOrganization, addMember } from '../../src/domain/identity/users.ts';
import { createBasicKey } from '../../src/domain/identity/credentials/basic-keys.ts';
import { createToken } from '../../src/domain/identity/credentials/tokens.ts';
import type { OrgRole, Plan } from '../../src/store/schema.ts';
import { openTestDatabase, PG_URL, TEST_DIALECTS, type Dialect } from './db.ts';

export { PG_URL, type Dialect };
/** The dialects the suites run on (NETLOOM_TEST_DIALECTS, default both). */
export const DIALECTS: Dialect[] = TEST_DIALECTS;

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
  /** Listens on a free port of 127.0.0.1; answers the base URL (http://127.0.0.1:<port>). */
  listen(): Promise<string>;
  user(opts?: { plan?: Plan; email?: string; name?: string; status?: 'active' | 'suspended' | 'unverified' }): Promise<{ id: string; email: string; name: string }>;
  token(userId: string, opts?: { scopes?: string[]; orgId?: string }): Promise<string>;
  keys(userId: string, opts?: { scopes?: string[] }): Promise<{ publicKey: string; privateKey: string }>;
  org(ownerId: string, opts?: { plan?: Plan; name?: string }): Promise<{ id: string }>;
  member(orgId: string, userId: string, role: OrgRole): Promise<void>;
}

let counter = 0;

export async function testApp(dialect: Dialect = 'sqlite', env: Record<string, string> = {}, deps: { now?: () => number; logger?: Record<string, unknown> } = {}): Promise<TestApp> {
  const tdb = await openTestDatabase(dialect, env);
  const { handle: database, config } = tdb;
  const app = await buildApp(config, { database, logger: deps.logger ?? (process.env.NETLOOM_TEST_LOG ? undefined : false), now: deps.now });
  await app.ready();
  const t: TestApp = {
    app,
    database,
    config,
    async close() {
      await app.close();
      await tdb.close();
    },
    listen: () => app.listen({ port: 0, host: '127.0.0.1' }),
    async user(opts = {}) {
      counter++;
      const u = await createUser(database.db, {
        email: opts.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`,
        name: opts.name ?? `User ${counter}`,
        plan: opts.plan ?? 'enterprise',
        password: 'correct horse battery staple',
        status: opts.status,
      });
      return { id: u.id, email: u.email, name: u.name };
    },
    async token(userId, opts = {}) {
      const r = await createToken(database.db, { userId, orgId: opts.orgId ?? null, scopes: opts.scopes ?? null });
      return r.token;
    },
    async keys(userId, opts = {}) {
      const r = await createBasicKey(database.db, { userId, scopes: opts.scopes ?? null });
      return { publicKey: r.publicKey, privateKey: r.privateKey };
    },
    async org(ownerId, opts = {}) {
      counter++;
      const o = await createOrganization(database.db, { name: opts.name ?? `Org ${counter}`, plan: opts.plan ?? 'enterprise', ownerUserId: ownerId });
      return { id: o.org.id };
    },
    async member(orgId, userId, role) {
      await addMember(database.db, { orgId, userId, role });
    },
  };
  return t;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** `method /api/v2${url}` through app.inject with a bearer token; `payload` is sent as JSON. */
export type ApiCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token?: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/** A test app with its first user. */
export interface UserApp extends TestApp {
  /** A user on the enterprise plan. */
  owner: { id: string; email: string; name: string };
  /** The owner's API token: full access, tied to no organization. */
  ownerToken: string;
  /** An API call with the owner's token unless another is given. */
  api: ApiCall;
}

/** A test app with its first user, who owns an organization. */
export interface OrgApp extends UserApp {
  /** The organization (enterprise plan) the owner owns. */
  orgId: string;
}

/** testApp (same arguments) with a user on the enterprise plan and their API token. */
export async function userApp(dialect: Dialect = 'sqlite', env: Record<string, string> = {}): Promise<UserApp> {
  const t = await testApp(dialect, env);
  const owner = await t.user();
  const ownerToken = await t.token(owner.id);
  const api: ApiCall = (method, url, payload, token = ownerToken, headers = {}) =>
    t.app.inject({ method, url: `/api/v2${url}`, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { ...t, owner, ownerToken, api };
}

/** userApp, the user also the owner of an organization: the set-up of the people, surveys and web-app tests. */
export async function orgApp(dialect: Dialect = 'sqlite', env: Record<string, string> = {}): Promise<OrgApp> {
  const t = await userApp(dialect, env);
  return { ...t, orgId: (await t.org(t.owner.id)).id };
}

export const basic = (k: { publicKey: string; privateKey: string }) => ({ authorization: `Basic ${Buffer.from(`${k.publicKey}:${k.privateKey}`).toString('base64')}` });

export function smallNetwork(): { nodes: { id: string | number; attributes?: Record<string, string | number> }[]; edges: { id: string | number; source: string | number; target: string | number; attributes?: Record<string, string | number> }[] } {
  return {
    nodes: [
      { id: 'a', attributes: { name: 'Ana', team: 'Sales', age: 31 } },
      { id: 'b', attributes: { name: 'Ben', team: 'Eng' } },
      { id: 3, attributes: { name: 'Cho' } },
    ],
    edges: [
      { id: 1, source: 'a', target: 'b', attributes: { weight: 2 } },
      { id: 'e2', source: 'b', target: 3 },
    ],
  };
}
