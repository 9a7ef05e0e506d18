/**
 * Who is calling — the one guard of every route (issue 20 item 3). Authentication has already run in an
 * onRequest hook before any handler or body parsing; a route names the kind of caller it serves and gets
 * it, or the problem:
 * - 'credential': an API credential, user- or organization-owned (`request.principal`, http/auth.ts) —
 *   or, on a web-app route, the signed-in session's principal; none → 401 UNAUTHENTICATED;
 * - 'organization': an organization-owned credential (embedding calls, docs/spec/api.md Authentication 7)
 *   → 403 FORBIDDEN for a user credential;
 * - 'web': the signed-in web session (http/web-session.ts) → 401 when signed out;
 * - 'member' / 'admin': the web session's organization membership (any role / Owners and Admins) → 403;
 * - 'viewer': the embedded viewer's session of a managed user or of Explore (plugins/viewer-auth.ts);
 * - 'credential-or-anonymous' / 'web-or-signed-out': the same callers on a route that also serves nobody
 *   (a Public network, a survey link) — null then, never a problem.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../domain/identity/credentials/principal.ts';
import { DomainError } from '../domain/errors.ts';
import { isOrgAdmin } from '../domain/identity/users.ts';
import type { Actor } from '../domain/embedding/context.ts';
import type { MemberActor } from '../domain/organizations/members.ts';
import type { WebRequestState } from '../http/web-session.ts';
import type { ViewerSession } from './viewer-auth.ts';

export interface OrganizationCaller {
  principal: Principal;
  orgId: string;
  actor: Actor;
}

export interface MemberCaller {
  orgId: string;
  actor: MemberActor;
  admin: boolean;
  requireMfa: boolean;
}

export function principalOf(request: FastifyRequest, kind: 'credential'): Principal;
export function principalOf(request: FastifyRequest, kind: 'organization'): OrganizationCaller;
export function principalOf(request: FastifyRequest, kind: 'web'): WebRequestState;
export function principalOf(request: FastifyRequest, kind: 'member' | 'admin'): MemberCaller;
export function principalOf(request: FastifyRequest, kind: 'viewer'): ViewerSession;
export function principalOf(request: FastifyRequest, kind: 'credential-or-anonymous'): Principal | null;
export function principalOf(request: FastifyRequest, kind: 'web-or-signed-out'): WebRequestState | null;
export function principalOf(
  request: FastifyRequest,
  kind: 'credential' | 'organization' | 'web' | 'member' | 'admin' | 'viewer' | 'credential-or-anonymous' | 'web-or-signed-out',
): Principal | OrganizationCaller | WebRequestState | MemberCaller | ViewerSession | null {
  switch (kind) {
    case 'credential-or-anonymous':
      return request.principal ?? null;
    case 'web-or-signed-out':
      return request.web ?? null;
    case 'credential': {
      if (!request.principal) throw new DomainError('UNAUTHENTICATED', 'a credential is required');
      return request.principal;
    }
    case 'organization': {
      const p = principalOf(request, 'credential');
      if (!p.orgId) throw new DomainError('FORBIDDEN', 'embedding calls need an organization-owned credential with the embed:manage scope; this is a user credential');
      return { principal: p, orgId: p.orgId, actor: { kind: 'credential', id: p.credentialId } };
    }
    case 'web': {
      if (!request.web) throw new DomainError('UNAUTHENTICATED', 'sign in first');
      return request.web;
    }
    case 'member':
    case 'admin': {
      const web = principalOf(request, 'web');
      if (!web.org || !web.membership) throw new DomainError('FORBIDDEN', 'you do not belong to an organization');
      const m: MemberCaller = { orgId: web.org.id, actor: { kind: 'user', id: web.userId, role: web.membership.role }, admin: isOrgAdmin(web.membership), requireMfa: web.requireMfa };
      if (kind === 'admin' && !m.admin) throw new DomainError('FORBIDDEN', 'only organization Owners and Admins may do this');
      return m;
    }
    case 'viewer': {
      if (!request.viewerSession) throw new Error(`principalOf: ${request.routeOptions.url} is not a viewer route`);
      return request.viewerSession;
    }
  }
}
