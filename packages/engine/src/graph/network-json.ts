/**
 * Network JSON: the wire format of docs/spec/api.md "Network JSON", with the attribute rules of docs/spec/api.md and
 * docs/spec/decisions.md §3. `validateNetworkJSON` reports every problem (capped) with JSON pointers and returns
 * the cleaned network (empty/null attributes dropped) that is stored and handed to metrics.
 */
import { IdIndex } from './ids.ts';

export type Id = string | number;
export type AttributeValue = string | number;
export type Attributes = Record<string, AttributeValue>;

export interface NodeJSON {
  id: Id;
  attributes?: Attributes;
  x?: number;
  y?: number;
  image?: { url?: string };
  [key: string]: unknown;
}

export interface EdgeJSON {
  id: Id;
  source: Id;
  target: Id;
  attributes?: Attributes;
  [key: string]: unknown;
}

export interface NetworkJSON {
  nodes: NodeJSON[];
  edges?: EdgeJSON[];
  [key: string]: unknown;
}

export interface NetworkProblem {
  /** JSON pointer relative to the network JSON (prefix it with the body path, e.g. `/networkJSON`). */
  path: string;
  message: string;
}

export interface ValidateOptions {
  maxNodes?: number;
  maxEdges?: number;
  /** Stop collecting after this many problems (the answer is capped at 100 anyway). */
  maxProblems?: number;
}

export interface ValidationResult {
  ok: boolean;
  problems: NetworkProblem[];
  /** Set when the node or edge count is over the configured limit (answer 413, not 400). */
  tooLarge?: string;
  nodeCount: number;
  edgeCount: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1');
const isId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));

/** Checks one attributes object; drops null/"" values in place (docs/spec/api.md attribute rule 5). */
function checkAttributes(attrs: unknown, path: string, problems: NetworkProblem[], owner: Record<string, unknown>, cap: number): void {
  if (attrs === undefined) return;
  if (attrs === null) {
    delete owner.attributes;
    return;
  }
  if (!isObj(attrs)) {
    problems.push({ path, message: 'attributes must be an object of String or Number values' });
    return;
  }
  for (const key of Object.keys(attrs)) {
    const v = attrs[key];
    if (key.length === 0 || key.trim().length === 0) {
      if (problems.length < cap) problems.push({ path: `${path}/${esc(key)}`, message: 'attribute names must be non-empty strings' });
      continue;
    }
    if (v === null || v === '') {
      delete attrs[key];
    } else if (typeof v === 'boolean') {
      // a Boolean is stored as the String "true"/"false" (categorical; Gephi sends Boolean columns)
      attrs[key] = v ? 'true' : 'false';
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v) && problems.length < cap) problems.push({ path: `${path}/${esc(key)}`, message: 'numeric attribute values must be finite' });
    } else if (typeof v !== 'string') {
      if (problems.length < cap) {
        problems.push({ path: `${path}/${esc(key)}`, message: `attribute values must be a String, a Number or a Boolean, got ${Array.isArray(v) ? 'an array' : typeof v}` });
      }
    }
  }
}

const NOT_AN_OBJECT = { node: 'must be a node object with an `id`', edge: 'must be an edge object with `id`, `source` and `target`' };

/**
 * Node or edge i: an object (else a problem, and null) whose `id` is a String or finite Number not yet
 * in `ids` (added, with value i). The element's other fields are the caller's.
 */
function checkElement(el: unknown, kind: 'node' | 'edge', i: number, ids: IdIndex, problems: NetworkProblem[], cap: number): Record<string, unknown> | null {
  if (!isObj(el)) {
    if (problems.length < cap) problems.push({ path: `/${kind}s/${i}`, message: NOT_AN_OBJECT[kind] });
    return null;
  }
  const id = el.id;
  if (!isId(id)) {
    if (problems.length < cap) problems.push({ path: `/${kind}s/${i}/id`, message: id === undefined ? 'is required (String or Number)' : `must be a String or a finite Number, got ${show(id)}` });
  } else if (!ids.add(id, i)) {
    if (problems.length < cap) problems.push({ path: `/${kind}s/${i}/id`, message: `duplicate ${kind} id ${JSON.stringify(String(id))}` });
  }
  return el;
}

/** Checks an edge endpoint: a node id (String or Number) of an existing node. */
function checkEnd(v: unknown, end: 'source' | 'target', i: number, checkNodes: boolean, ids: IdIndex, problems: NetworkProblem[], cap: number): void {
  if (!isId(v)) {
    if (problems.length < cap) problems.push({ path: `/edges/${i}/${end}`, message: v === undefined ? 'is required (a node id)' : `must be a node id (String or Number), got ${show(v)}` });
  } else if (checkNodes && ids.get(v) < 0) {
    if (problems.length < cap) problems.push({ path: `/edges/${i}/${end}`, message: `no node with id ${JSON.stringify(String(v))}` });
  }
}

/**
 * Validates a network JSON in one pass and reports every problem (up to `maxProblems`) as JSON pointers
 * relative to the network JSON. Cleans the network in place: attributes with `null` or `""` values are
 * removed (they mean "no value"); a missing `edges` becomes `[]`. Everything else is kept as sent.
 */
export function validateNetworkJSON(input: unknown, opts: ValidateOptions = {}): ValidationResult {
  const cap = opts.maxProblems ?? 100;
  const problems: NetworkProblem[] = [];
  if (!isObj(input)) {
    return { ok: false, problems: [{ path: '', message: 'networkJSON must be an object with a `nodes` array' }], nodeCount: 0, edgeCount: 0 };
  }
  const nodes = input.nodes;
  if (!Array.isArray(nodes)) {
    problems.push({ path: '/nodes', message: nodes === undefined ? 'is required (an array of node objects)' : 'must be an array of node objects' });
  }
  if (input.edges === undefined || input.edges === null) input.edges = [];
  const edges = input.edges;
  if (!Array.isArray(edges)) problems.push({ path: '/edges', message: 'must be an array of edge objects' });
  const nodeCount = Array.isArray(nodes) ? nodes.length : 0;
  const edgeCount = Array.isArray(edges) ? edges.length : 0;
  if (opts.maxNodes !== undefined && nodeCount > opts.maxNodes) {
    return { ok: false, problems, tooLarge: `the network has ${nodeCount} nodes; at most ${opts.maxNodes} are allowed`, nodeCount, edgeCount };
  }
  if (opts.maxEdges !== undefined && edgeCount > opts.maxEdges) {
    return { ok: false, problems, tooLarge: `the network has ${edgeCount} edges; at most ${opts.maxEdges} are allowed`, nodeCount, edgeCount };
  }
  // Paths are built only for problems (a string per node and edge costs more than the checks).
  const ids = new IdIndex(nodeCount);
  if (Array.isArray(nodes)) {
    for (let i = 0; i < nodes.length; i++) {
      const node = checkElement(nodes[i], 'node', i, ids, problems, cap);
      if (!node) continue;
      if (node.attributes !== undefined) checkAttributes(node.attributes, `/nodes/${i}/attributes`, problems, node, cap);
      const x = node.x;
      if (x !== undefined && (typeof x !== 'number' || !Number.isFinite(x)) && problems.length < cap) {
        problems.push({ path: `/nodes/${i}/x`, message: `must be a finite Number, got ${show(x)}` });
      }
      const y = node.y;
      if (y !== undefined && (typeof y !== 'number' || !Number.isFinite(y)) && problems.length < cap) {
        problems.push({ path: `/nodes/${i}/y`, message: `must be a finite Number, got ${show(y)}` });
      }
      const image = node.image;
      if (image !== undefined) {
        const p = `/nodes/${i}`;
        if (!isObj(image)) {
          if (problems.length < cap) problems.push({ path: `${p}/image`, message: 'must be an object like { "url": "https://…" }' });
        } else if (image.url !== undefined) {
          let okUrl = false;
          if (typeof image.url === 'string') {
            try {
              const u = new URL(image.url);
              okUrl = u.protocol === 'http:' || u.protocol === 'https:';
            } catch {
              okUrl = false;
            }
          }
          if (!okUrl && problems.length < cap) problems.push({ path: `${p}/image/url`, message: `must be an http: or https: URL, got ${show(image.url)}` });
        }
      }
    }
  }
  if (Array.isArray(edges)) {
    const edgeIds = new IdIndex(edgeCount);
    const checkNodes = Array.isArray(nodes);
    for (let i = 0; i < edges.length; i++) {
      const edge = checkElement(edges[i], 'edge', i, edgeIds, problems, cap);
      if (!edge) continue;
      checkEnd(edge.source, 'source', i, checkNodes, ids, problems, cap);
      checkEnd(edge.target, 'target', i, checkNodes, ids, problems, cap);
      if (edge.attributes !== undefined) checkAttributes(edge.attributes, `/edges/${i}/attributes`, problems, edge, cap);
    }
  }
  return { ok: problems.length === 0, problems, nodeCount, edgeCount };
}
