/**
 * Import, export, templates and Discover of the public API (docs/api/import-export.md):
 * - `POST /networks/import` (multipart; `networks:write`; ownership and plan rules of `POST /networks`);
 * - `GET /networks/:id/export?format=` (visibility of `GET /networks/:id`; Content-Disposition);
 * - `GET /templates/:format` (no credential);
 * - `GET /networks/public?q=&limit=&offset=` (Discover; no credential).
 * Thin: the domain reads, checks and stores; these routes move files and present.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { listPublicNetworks } from '../../domain/networks/discover.ts';
import { template, TEMPLATE_NAME } from '../../domain/formats/templates.ts';
import { fileBaseName } from '../../domain/formats/values.ts';
import type { FormatId } from '../../domain/formats/index.ts';
import { contentDisposition, registerUploads } from '../../http/upload.ts';
import { presentNetwork } from '../../presenters/network.ts';
import { ImportedNetworkSchema, NetworkIdParams, ProblemRef, ref, DiscoverQuery, ExportQuery, fileResponse, ImportBody, TemplateParams, PublicNetworkListSchema } from '@netloom/protocol/http';
import { principalOf } from '../../plugins/principal.ts';
import { handleExport, handleImport } from '../../http/network-files.ts';

const problems = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ProblemRef]));

export async function networkFileRoutes(app: FastifyInstance): Promise<void> {
  await registerUploads(app, app.config.limits.maxBodyBytes);
  const db = app.database.db;

  app.post(
    '/networks/import',
    {
      config: { auth: { resource: 'networks' } },
      schema: {
        summary: 'Create a network from a file (JSON, Excel, GEXF, GraphML, CSV)',
        description: 'multipart/form-data with a part `file` (and `nodesFile` for a CSV edge list). Every problem of the file is listed in `errors`, each `path` naming sheet and cell or file and line. Nothing is stored when there is a problem. The answer lists in `warnings` what was converted, dropped or interpreted (with file and line or sheet and cell).',
        tags: ['networks'],
        consumes: ['multipart/form-data'],
        body: ImportBody,
        response: { 200: ref(ImportedNetworkSchema), ...problems(400, 401, 403, 413, 415, 429) },
      },
      // the multipart body is read by the handler (streamed to disk); the schema documents it
      validatorCompiler: () => () => true,
    },
    async (request) => handleImport(app, request, principalOf(request, 'credential')),
  );

  app.get(
    '/networks/:id/export',
    {
      config: { auth: { resource: 'networks', anonymous: true } },
      schema: {
        summary: 'Download a network as JSON, Excel, GEXF, GraphML or CSV (zip)',
        tags: ['networks'],
        params: NetworkIdParams,
        querystring: ExportQuery,
        response: { 200: fileResponse('The file, with Content-Disposition: attachment'), ...problems(400, 401, 403, 404, 413, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { format } = request.query as { format: FormatId };
      return handleExport(app, request, reply, principalOf(request, 'credential-or-anonymous'), id, format);
    },
  );

  app.get(
    '/templates/:format',
    {
      config: { auth: { skip: true } },
      schema: {
        summary: 'An upload template (a small advice network with text and numeric attributes)',
        tags: ['networks'],
        params: TemplateParams,
        response: { 200: fileResponse('The template file, with Content-Disposition: attachment'), ...problems(400, 429) },
      },
    },
    async (request, reply) => {
      const { format } = request.params as { format: FormatId };
      const file = await template(format);
      const name = `${fileBaseName(TEMPLATE_NAME)}.${file.extension}`;
      reply.header('content-disposition', contentDisposition(name, name));
      reply.header('cache-control', 'public, max-age=3600');
      reply.type(file.contentType);
      return reply.send(file.body);
    },
  );

  app.get(
    '/networks/public',
    {
      config: { auth: { skip: true } },
      schema: {
        summary: 'Discover: Public networks of everyone, handpicked first, searchable by name',
        tags: ['networks'],
        querystring: DiscoverQuery,
        response: { 200: PublicNetworkListSchema, ...problems(400, 429) },
      },
    },
    async (request) => {
      const q = request.query as { q?: string; limit?: string; offset?: string };
      const limit = q.limit === undefined ? undefined : Number(q.limit);
      if (limit !== undefined && (limit < 1 || limit > 100)) throw new DomainError('INVALID_ARGS', 'query.limit: must be 1 to 100', [{ path: '/query/limit', message: 'must be 1 to 100' }]);
      const page = await listPublicNetworks(db, { q: q.q, limit, offset: q.offset === undefined ? undefined : Number(q.offset) });
      return { networks: page.rows.map((r) => presentNetwork(r, r.owner_name)), total: page.total };
    },
  );
}
