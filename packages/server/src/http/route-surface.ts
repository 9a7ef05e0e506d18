/**
 * One route plugin on two surfaces (issue 21): the people and survey routes (routes/people.ts,
 * routes/surveys.ts) are written once and registered twice —
 *
 *   app.register(peopleRoutes, { prefix: '/api/v2' })                     // public API: credentials, scopes
 *   app.register(peopleRoutes, { prefix: '/app/api', surface: 'web' })    // web app: session cookie + CSRF
 *
 * A plugin takes its surface from its options (`surfaceOf(opts)`) and builds each route's `config` and
 * OpenAPI `schema` through it, and gets the caller with `surface.principal(request)`:
 * - 'api': `config.auth = { resource }` (the scope check of http/auth.ts), the resource's tags;
 *   the caller is the credential's principal (`principalOf(request, 'credential')`);
 * - 'web': `config.web = true` (http/web-session.ts: signed-in session required, same origin and
 *   X-CSRF-Token on every change, API credentials ignored), tagged for the web application's document
 *   (/app/api/openapi.json) with the cookie security; the caller is the session's principal
 *   (`principalOf(request, 'web').principal`). The session principal holds every scope; who may manage
 *   people and surveys is the role rule of the domain (domain/people/directory.ts: Owners, Admins and
 *   Standard Users; docs/spec/decisions.md §10.1).
 * Same schemas, same handlers, same domain commands: the two surfaces cannot drift apart.
 */
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Principal } from '../domain/identity/credentials/principal.ts';
import { principalOf } from '../plugins/principal.ts';
import type { Resource } from './auth.ts';
import { cookieSecurity, WebTag } from '@netloom/protocol/http';

export interface SurfaceOptions {
  /** 'api' (default): the public API under /api/v2; 'web': the web application under /app/api. */
  surface?: 'api' | 'web';
}

export interface Surface {
  readonly kind: 'api' | 'web';
  /** The route's `config`: the scope it needs (API; `action` overrides the method's) or the signed-in session (web). */
  config(resource: Resource, action?: 'read' | 'write'): FastifyContextConfig;
  /** The route's OpenAPI schema on this surface: the web surface retags it and names the cookie security. */
  schema<S extends { tags?: string[] }>(schema: S): S;
  /** The caller: the credential's principal (API) or the web session's (web). */
  principal(request: FastifyRequest): Principal;
}

const API: Surface = {
  kind: 'api',
  config: (resource, action) => ({ auth: action ? { resource, action } : { resource } }),
  schema: (schema) => schema,
  principal: (request) => principalOf(request, 'credential'),
};

const WEB: Surface = {
  kind: 'web',
  config: () => ({ web: true }),
  schema: <S extends { tags?: string[] }>(schema: S): S => ({ ...schema, tags: [WebTag], security: cookieSecurity }),
  principal: (request) => principalOf(request, 'web').principal,
};

export function surfaceOf(opts: SurfaceOptions | undefined): Surface {
  return opts?.surface === 'web' ? WEB : API;
}
