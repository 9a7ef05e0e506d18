/**
 * The web app's networks endpoints (docs/web-app.md "Networks"), web session only:
 *   GET    /app/api/networks?sort=modified|name       own + shared, with counts and plan maxima
 *   GET    /app/api/networks/:id                       + access, viewCount, shares
 *   PATCH  /app/api/networks/:id                       { name?, description?, status?, isDirected? }
 *   DELETE /app/api/networks/:id                       owner only
 *   PUT    /app/api/networks/:id/shares                { email, permission: View|Edit } (owner)
 *   DELETE /app/api/networks/:id/shares/:email         (owner)
 *   POST   /app/api/networks/import                    multipart, as POST /api/v2/networks/import → 201
 *   GET    /app/api/networks/:id/export?format=        file download
 */
import { auditUserEvent } from '../../domain/organizations/audit-events.ts';
import type { App } from '../../http/app-type.ts';
import { deleteWebNetwork, listWebNetworks, patchWebNetwork, shareWebNetwork, unshareWebNetwork, webNetworkDetail } from '../../domain/networks/web.ts';
import { registerUploads } from '../../http/upload.ts';
import { presentNetwork } from '../../presenters/network.ts';
import { DeletedSchema, ImportedNetworkSchema, NetworkIdParams, NetworkResourceSchema, ref, ExportQuery, fileResponse, ImportBody, ShareBody, ShareParams, SharesSchema, WebNetworkDetailSchema, WebNetworkListQuery, WebNetworkListSchema, WebNetworkPatchBody, webProblems } from '@netloom/protocol/http';
import { handleExport, handleImport } from '../../http/network-files.ts';
import { webRoutes } from '../../plugins/web-routes.ts';

export async function webNetworkRoutes(app: App): Promise<void> {
  await registerUploads(app, app.config.limits.maxBodyBytes);
  const db = app.database.db;
  const cfg = app.config;
  const web = webRoutes(app);

  web.get(
    '/app/api/networks',
    { summary: 'Your networks and the ones shared with you, with counts against the plan maxima', querystring: WebNetworkListQuery, response: { 200: ref(WebNetworkListSchema), ...webProblems(400, 401, 403, 429) } },
    async (request, _reply, w) => {
      const list = await listWebNetworks(db, cfg, w.principal, request.query.sort ?? 'modified');
      return { networks: list.networks.map(({ rec, access }) => ({ ...presentNetwork(rec, rec.owner_name), access })), counts: list.counts, maxima: list.maxima };
    },
  );

  web.get(
    '/app/api/networks/:id',
    { summary: 'A network page: metadata, your access, saved views, shares', params: NetworkIdParams, response: { 200: ref(WebNetworkDetailSchema), ...webProblems(401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const d = await webNetworkDetail(db, w.principal, request.params.id);
      return { ...presentNetwork(d.rec, d.rec.owner_name), access: d.access, viewCount: d.viewCount, shares: d.shares };
    },
  );

  web.patch(
    '/app/api/networks/:id',
    { summary: 'Rename, describe, make Public/Private, set directedness', params: NetworkIdParams, body: ref(WebNetworkPatchBody), response: { 200: ref(NetworkResourceSchema), ...webProblems(400, 401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const rec = await patchWebNetwork(db, cfg, w.principal, request.params.id, request.body);
      return presentNetwork(rec, rec.owner_name);
    },
  );

  web.delete(
    '/app/api/networks/:id',
    { summary: 'Delete a network (owner only)', params: NetworkIdParams, response: { 200: ref(DeletedSchema), ...webProblems(401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const { id } = request.params;
      await deleteWebNetwork(db, w.principal, id);
      request.log.info({ networkId: id }, 'network deleted in the web app');
      return { _id: id, deleted: true as const };
    },
  );

  web.put(
    '/app/api/networks/:id/shares',
    { summary: 'Share with a user by e-mail (View or Edit), or change the permission', params: NetworkIdParams, body: ref(ShareBody), response: { 200: ref(SharesSchema), ...webProblems(400, 401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const { id } = request.params;
      const { email, permission } = request.body;
      const shares = await shareWebNetwork(db, w.principal, id, request.body);
      await auditUserEvent(app.embedContext, w.userId, 'share.set', id, { email, permission });
      return { shares };
    },
  );

  web.delete(
    '/app/api/networks/:id/shares/:email',
    { summary: 'Stop sharing with a user', params: ShareParams, response: { 200: ref(SharesSchema), ...webProblems(400, 401, 403, 404, 429) } },
    async (request, _reply, w) => {
      const { id, email } = request.params;
      const shares = await unshareWebNetwork(db, w.principal, id, email);
      await auditUserEvent(app.embedContext, w.userId, 'share.remove', id, { email });
      return { shares };
    },
  );

  web.post(
    '/app/api/networks/import',
    {
      summary: 'Create a network from an uploaded file (JSON, Excel, GEXF, GraphML, CSV)',
      description: 'As POST /api/v2/networks/import; answers 201. Every problem of the file is listed in `errors` with sheet/cell or file/line.',
      consumes: ['multipart/form-data'],
      body: ImportBody,
      response: { 201: ref(ImportedNetworkSchema), ...webProblems(400, 401, 403, 413, 415, 429) },
    },
    async (request, reply, w) => reply.code(201).send(await handleImport(app, request, w.principal)),
    { validatorCompiler: () => () => true },
  );

  web.get(
    '/app/api/networks/:id/export',
    { summary: 'Download a network as JSON, Excel, GEXF, GraphML or CSV (zip)', params: NetworkIdParams, querystring: ExportQuery, response: { 200: fileResponse('The file, with Content-Disposition: attachment'), ...webProblems(400, 401, 403, 404, 413, 429) } },
    async (request, reply, w) => handleExport(app, request, reply, w.principal, request.params.id, request.query.format),
  );
}
