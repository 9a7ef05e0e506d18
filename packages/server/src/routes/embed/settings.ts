/** GET/PUT /api/v2/embed/settings (organization admins: organization credential with embed:manage). */
import type { App } from '../../http/app-type.ts';
import { checkedByDomain } from '../../http/route-contract.ts';
import { EmbedSettingsBodySchema, EmbedSettingsSchema, problemResponses, ref } from '@netloom/protocol/http';
import type { EmbedContext } from '../../domain/embedding/context.ts';
import { requireEnabled } from '../../domain/embedding/context.ts';
import { settingsView, updateSettings } from '../../domain/embedding/settings.ts';
import { orgCredential } from './context.ts';

const auth = { resource: 'embed', action: 'manage' } as const;

export function settingsRoutes(app: App, ctx: EmbedContext): void {
  app.get(
    '/api/v2/embed/settings',
    { config: { auth }, schema: { summary: 'Embedding settings of the organization (readable also while embedding is off)', tags: ['embedding'], response: { 200: ref(EmbedSettingsSchema), ...problemResponses(403) } } },
    async (request) => settingsView(ctx, orgCredential(request).orgId),
  );
  app.put(
    '/api/v2/embed/settings',
    {
      config: { auth },
      validatorCompiler: checkedByDomain,
      schema: {
        summary: 'Change allowedOrigins, allOwnedNetworks, embeddableNetworkIds, dataDisclosureAccepted (any subset)',
        tags: ['embedding'],
        body: ref(EmbedSettingsBodySchema),
        response: { 200: ref(EmbedSettingsSchema), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { orgId, actor } = orgCredential(request);
      await requireEnabled(ctx, orgId);
      return updateSettings(ctx, orgId, actor, request.body);
    },
  );
}
