/**
 * The five Networks endpoints of docs/spec/api.md (docs/spec/decisions.md §3). Thin: parse, check access through the
 * domain, one domain command (domain/networks/commands.ts), present.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-type.ts';
import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzipSync } from 'node:zlib';
import { Type } from 'typebox';
import { loadReadableWithGzip } from '../../domain/networks/access.ts';
import { createNetwork, deleteNetwork, listNetworks, replaceNetwork } from '../../domain/networks/commands.ts';
import { checkCallerPlanRoom } from '../../domain/networks/ownership.ts';
import { presentNetwork } from '../../presenters/network.ts';
import { DeletedSchema, NetworkBody, NetworkIdParams, NetworkResourceSchema, NetworkWithJSONSchema, problemResponses, ref } from '@netloom/protocol/http';
import { acceptsGzip } from '../../http/accept-encoding.ts';
import { principalOf } from '../../plugins/principal.ts';

const gunzipAsync = promisify(gunzip);

/** Bodies are checked by parseNetworkBody (all problems at once, legacy input); the schema documents them. */
const noAjv = () => () => true;

/** Stored JSON up to this many gzip bytes is handled with synchronous zlib (cheaper than a threadpool hop). */
const SYNC_ZLIB_BYTES = 64 * 1024;
/** The closing `}` as a gzip member, made once. */
const GZ_CLOSE = gzipSync('}', { level: 1 });

/**
 * Small networks are read far more often than they change: their decompressed JSON is kept, by network
 * id, and used only while the stored gzip bytes are byte-for-byte the ones it came from (so an update,
 * here or by another process, is never missed). Bounded: small stored JSON only, oldest entry evicted.
 */
const TEXT_CACHE_GZ_BYTES = 4 * 1024;
const TEXT_CACHE_TEXT_BYTES = 32 * 1024;
const TEXT_CACHE_ENTRIES = 500;
const textCache = new Map<string, { gz: Buffer; text: string }>();

/** gzip members of response heads (the metadata before networkJSON), by head; bounded like textCache. */
const HEAD_CACHE_ENTRIES = 500;
const HEAD_CACHE_BYTES = 2 * 1024;
const headGzCache = new Map<string, Buffer>();

function remember<V>(cache: Map<string, V>, max: number, key: string, value: V): void {
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

function headGzip(head: string): Buffer {
  let gz = headGzCache.get(head);
  if (!gz) {
    gz = gzipSync(head, { level: 1 });
    if (head.length <= HEAD_CACHE_BYTES) remember(headGzCache, HEAD_CACHE_ENTRIES, head, gz);
  }
  return gz;
}

function smallText(id: string, gz: Buffer): string {
  const hit = textCache.get(id);
  if (hit && hit.gz.equals(gz)) return hit.text;
  const text = gunzipSync(gz).toString('utf8');
  if (gz.byteLength <= TEXT_CACHE_GZ_BYTES && text.length <= TEXT_CACHE_TEXT_BYTES) remember(textCache, TEXT_CACHE_ENTRIES, id, { gz: Buffer.from(gz), text });
  return text;
}

function sendNetworkWithJSON(request: FastifyRequest, reply: FastifyReply, id: string, meta: object, gzBytes: Uint8Array): FastifyReply | Promise<FastifyReply> {
  const gz = Buffer.isBuffer(gzBytes) ? gzBytes : Buffer.from(gzBytes.buffer, gzBytes.byteOffset, gzBytes.byteLength);
  const head = JSON.stringify(meta).slice(0, -1) + ',"networkJSON":';
  reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request.headers['accept-encoding'])) {
    // gzip members concatenate into one valid gzip stream: the stored JSON is sent without re-compressing
    // (the metadata head is small: compressed synchronously, once per distinct head).
    reply.header('content-encoding', 'gzip');
    reply.header('vary', 'accept-encoding');
    return reply.send(Buffer.concat([headGzip(head), gz, GZ_CLOSE]));
  }
  if (gz.byteLength <= TEXT_CACHE_GZ_BYTES) return reply.send(head + smallText(id, gz) + '}');
  if (gz.byteLength <= SYNC_ZLIB_BYTES) return reply.send(Buffer.concat([Buffer.from(head), gunzipSync(gz), Buffer.from('}')]));
  return gunzipAsync(gz).then((text) => reply.send(Buffer.concat([Buffer.from(head), text, Buffer.from('}')])));
}

export async function networkRoutes(app: App): Promise<void> {
  const db = app.database.db;
  const deps = { db, config: app.config };

  app.get(
    '/networks',
    {
      config: { auth: { resource: 'networks' } },
      schema: { summary: 'List your networks (without networkJSON)', tags: ['networks'], response: { 200: Type.Array(ref(NetworkResourceSchema)) } },
    },
    async (request) => {
      const rows = await listNetworks(deps, principalOf(request, 'credential'));
      return rows.map((r) => presentNetwork(r, r.owner_name));
    },
  );

  app.get(
    '/networks/:id',
    {
      config: { auth: { resource: 'networks', anonymous: true } },
      schema: {
        summary: 'Get a network with its networkJSON (Public networks need no credential)',
        tags: ['networks'],
        params: NetworkIdParams,
        response: { 200: ref(NetworkWithJSONSchema), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // one query: access check, metadata and the stored gzip bytes
      const net = await loadReadableWithGzip(db, principalOf(request, 'credential-or-anonymous'), id);
      return sendNetworkWithJSON(request, reply, id, presentNetwork(net, net.owner_name), net.json_gz);
    },
  );

  app.post(
    '/networks',
    {
      config: { auth: { resource: 'networks' } },
      // the caller's plan maximum before the body is read (issue 19, Low; domain/networks/ownership.ts);
      // onRequest (after the credential's): an async preParsing hook would leave a decoder's error unheard
      onRequest: async (request) => {
        await checkCallerPlanRoom(db, deps.config, principalOf(request, 'credential'));
      },
      validatorCompiler: noAjv,
      schema: {
        summary: 'Create a network',
        tags: ['networks'],
        body: ref(NetworkBody),
        response: { 200: ref(NetworkResourceSchema), ...problemResponses(403) },
      },
    },
    async (request) => {
      const rec = await createNetwork(deps, principalOf(request, 'credential'), request.body);
      request.log.info({ networkId: rec.id, nodes: rec.node_count, edges: rec.edge_count }, 'network created');
      return presentNetwork(rec, rec.owner_name);
    },
  );

  app.put(
    '/networks/:id',
    {
      config: { auth: { resource: 'networks' } },
      validatorCompiler: noAjv,
      schema: {
        summary: 'Replace a network: name and networkJSON; description, isDirected and status only when sent',
        tags: ['networks'],
        params: NetworkIdParams,
        body: ref(NetworkBody),
        response: { 200: ref(NetworkResourceSchema), ...problemResponses(403, 404) },
      },
    },
    async (request) => {
      const rec = await replaceNetwork(deps, principalOf(request, 'credential'), request.params.id, request.body);
      return presentNetwork(rec, rec.owner_name);
    },
  );

  app.delete(
    '/networks/:id',
    {
      config: { auth: { resource: 'networks' } },
      schema: { summary: 'Delete a network, its views, grants and embed sessions', tags: ['networks'], params: NetworkIdParams, response: { 200: ref(DeletedSchema), ...problemResponses(404) } },
    },
    async (request) => {
      const { id } = request.params;
      await deleteNetwork(deps, principalOf(request, 'credential'), id);
      return { _id: id, deleted: true as const };
    },
  );
}
