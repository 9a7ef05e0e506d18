/** Presenters of the web app's session endpoints (shapes in protocol/src/http/web.ts). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { WebRequestState } from '../../http/web-session.ts';
import { embeddingEnabled } from '../../domain/embedding/settings.ts';
import { type SessionInfoSchema, type WebOrganizationSchema, type WebUserSchema } from '@netloom/protocol/http';

export function webUser(web: WebRequestState): Static<typeof WebUserSchema> {
  return { id: web.user.id, email: web.user.email, name: web.user.name, plan: web.user.plan, mfaEnabled: web.mfaEnabled };
}

export async function webOrganization(app: FastifyInstance, web: WebRequestState): Promise<Static<typeof WebOrganizationSchema> | null> {
  if (!web.org || !web.membership) return null;
  return {
    id: web.org.id,
    name: web.org.name,
    role: web.membership.role,
    plan: web.org.plan,
    requireMfa: web.requireMfa,
    embeddingEnabled: await embeddingEnabled(app.database.db, web.org.id),
  };
}

export async function sessionInfo(app: FastifyInstance, web: WebRequestState): Promise<Static<typeof SessionInfoSchema>> {
  return {
    user: webUser(web),
    organization: await webOrganization(app, web),
    csrfToken: web.csrfToken,
    mfaEnrolmentRequired: web.mfaEnrolmentRequired,
    expiresAt: web.expiresAt,
  };
}
