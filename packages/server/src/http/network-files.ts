/**
 * Import and export of network files as HTTP exchanges, one implementation for the API
 * (`POST /api/v2/networks/import`, `GET /api/v2/networks/:id/export`) and the web app's upload and
 * download (docs/api/import-export.md): the multipart upload streamed to disk and cleaned up, the domain
 * command, and the file answer with its Content-Disposition.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { importNetwork } from '../domain/networks/import.ts';
import { checkCallerPlanRoom } from '../domain/networks/ownership.ts';
import { exportCallerOf } from '../domain/networks/export.ts';
import type { FormatId } from '../domain/formats/index.ts';
import type { Principal } from '../domain/identity/credentials/principal.ts';
import { contentDisposition, readUpload } from './upload.ts';
import { presentNetwork } from '../presenters/network.ts';

/** The import route's work, shared with the web app's upload. */
export async function handleImport(app: FastifyInstance, request: FastifyRequest, principal: Principal) {
  // an owner with no room left on the plan is refused before the upload is received (issue 19, Low)
  await checkCallerPlanRoom(app.database.db, app.config, principal);
  const upload = await readUpload(request);
  try {
    const rec = await importNetwork(app.database.db, app.config, principal, {
      file: upload.files.get('file'),
      nodesFile: upload.files.get('nodesFile'),
      fields: upload.fields,
    });
    request.log.info({ networkId: rec.id, format: rec.format, nodes: rec.node_count, edges: rec.edge_count }, 'network imported');
    return { ...presentNetwork(rec, rec.owner_name), warnings: rec.warnings };
  } finally {
    await upload.cleanup();
  }
}

/** The export route's work, shared with the web app's download (limits and cache: domain/networks/export.ts). */
export async function handleExport(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, principal: Principal | null, id: string, format: FormatId) {
  const out = await app.networkExports.export(app.database.db, principal, exportCallerOf(principal, request.ip), id, format, (rec) => ({ ...presentNetwork(rec, rec.owner_name) }));
  request.log.info({ networkId: id, format, bytes: out.file.body.byteLength, cached: out.cached }, 'network exported');
  reply.header('content-disposition', contentDisposition(out.filename, out.filenameUtf8));
  reply.header('cache-control', 'private, no-store');
  reply.type(out.file.contentType);
  return reply.send(out.file.body);
}
