/**
 * The two OpenAPI documents made from the one description of every route (@fastify/swagger over the
 * routes' TypeBox schemas; docs/spec/contract.md):
 * - `/api/v2/openapi.json`: the public API (credentials: bearer token, legacy Basic key, the embedded
 *   viewer's access token, the operator token) — every `/api/v2/...` operation and the health checks;
 * - `/app/api/openapi.json`: the web application's own session endpoints (`/app/api/...`, cookie +
 *   CSRF). They are documented, but apart: they are not an API for integrations and may change with
 *   the web application.
 * Each document keeps only the named schemas and security schemes its operations use, so both lint
 * clean (no unused components).
 */
type Json = Record<string, unknown>;

export const WEB_APP_PREFIX = '/app/api/';

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) into.add(decodeURIComponent(v.slice('#/components/schemas/'.length)));
      else collectRefs(v, into);
    }
  }
}

function collectSecurity(paths: Json, global: unknown): Set<string> {
  const out = new Set<string>();
  const add = (list: unknown) => {
    if (Array.isArray(list)) for (const req of list) for (const name of Object.keys(req as Json)) out.add(name);
  };
  let usesGlobal = false;
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops as Json)) {
      const security = (op as Json).security;
      if (security === undefined) usesGlobal = true;
      else add(security);
    }
  }
  if (usesGlobal) add(global);
  return out;
}

/** The document limited to the paths `keep` accepts, with only the components they reach. */
export function documentFor(full: Json, keep: (path: string) => boolean, info: Json): Json {
  const doc = structuredClone(full) as Json & { paths: Json; components: Json & { schemas?: Json; securitySchemes?: Json } };
  doc.info = { ...(doc.info as Json), ...info };
  doc.paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([path]) => keep(path)));
  const schemas = doc.components.schemas ?? {};
  const used = new Set<string>();
  collectRefs(doc.paths, used);
  // named schemas reference others: follow until nothing new
  for (let frontier = [...used]; frontier.length; ) {
    const next = new Set<string>();
    for (const name of frontier) collectRefs(schemas[name], next);
    frontier = [...next].filter((n) => !used.has(n));
    for (const n of frontier) used.add(n);
  }
  doc.components.schemas = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  const security = collectSecurity(doc.paths, doc.security);
  doc.components.securitySchemes = Object.fromEntries(Object.entries(doc.components.securitySchemes ?? {}).filter(([name]) => security.has(name)));
  if (Array.isArray(doc.security)) {
    doc.security = (doc.security as Json[]).filter((req) => Object.keys(req).every((name) => security.has(name)));
    if ((doc.security as Json[]).length === 0) delete doc.security;
  }
  const tags = new Set<string>();
  for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops as Json)) for (const t of ((op as Json).tags as string[] | undefined) ?? []) tags.add(t);
  if (Array.isArray(doc.tags)) doc.tags = (doc.tags as { name: string }[]).filter((t) => tags.has(t.name));
  return doc;
}

export const isWebAppPath = (path: string): boolean => path.startsWith(WEB_APP_PREFIX);
