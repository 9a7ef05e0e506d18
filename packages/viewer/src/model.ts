/**
 * The viewer's one graph model, built once from the session's network JSON: ids (as strings), labels
 * (the `name` attribute, else the id), attributes, positions (x/y, or equally spread on a circle when
 * absent), images, edges, attribute types. Immutable after build; layers and selection live in
 * ViewerState and only produce display attributes (docs/architecture.md, "Conventions"). No DOM.
 */
import type { AttributeType, Attributes, NetworkInfo, NodeSummary } from '@netloom/protocol';
import { circlePoint } from './layout/arrange.ts';

export interface NetworkJsonNode {
  id: string | number;
  attributes?: Record<string, unknown>;
  x?: number;
  y?: number;
  image?: { url?: string };
}

export interface NetworkJsonEdge {
  id: string | number;
  source: string | number;
  target: string | number;
  attributes?: Record<string, unknown>;
}

export interface NetworkJson {
  nodes: NetworkJsonNode[];
  edges?: NetworkJsonEdge[];
}

export interface ModelEdge {
  id: string;
  source: number;
  target: number;
  attributes: Attributes;
}

export interface NetworkModel {
  networkId: string;
  name: string;
  directed: boolean;
  ids: string[];
  index: Map<string, number>;
  labels: string[];
  attributes: Attributes[];
  x: Float64Array;
  y: Float64Array;
  /** Each node's `image.url` as stored (exports carry it). */
  images: (string | null)[];
  /** The images the viewer may load (drawn in nodes, shown in details): those the page allows (imageAllowed), else null. */
  shownImages: (string | null)[];
  edges: ModelEdge[];
  /** True when every node came with a stored position (else the missing ones start on a circle). */
  positioned: boolean;
  /** Node attribute name → type (`number` when every present value is a Number). Sorted by name. */
  nodeAttributeTypes: Map<string, AttributeType>;
  /** Edge attribute name → type, as for nodes (ties: weight, kind, …). Sorted by name. */
  edgeAttributeTypes: Map<string, AttributeType>;
}

const NO_ATTRIBUTES: Attributes = Object.freeze({}) as Attributes;

function cleanAttributes(raw: Record<string, unknown> | undefined): Attributes {
  const out: Attributes = {};
  if (!raw) return out;
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    else if (typeof v === 'string' && v !== '') out[k] = v;
    else if (typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}

/**
 * Which image URLs a page may load: the page's own origin, `data:` and `blob:`, and the origins of the
 * page's `data-image-origins` (NETLOOM_VIEWER_IMAGE_ORIGINS; the page's CSP allows the same). A node's
 * image URL is chosen by whoever uploaded the network, so no other URL is ever requested.
 */
export function imagePolicy(pageUrl: string, origins: readonly string[]): (url: string) => boolean {
  const page = new URL(pageUrl).origin;
  const allowed = new Set([page, ...origins]);
  return (url) => {
    try {
      const u = new URL(url, pageUrl);
      return u.protocol === 'data:' || u.protocol === 'blob:' || allowed.has(u.origin);
    } catch {
      return false;
    }
  };
}

export function buildModel(input: { networkId: string; name: string; directed?: boolean; json: NetworkJson; imageAllowed?: (url: string) => boolean }): NetworkModel {
  const nodes = Array.isArray(input.json.nodes) ? input.json.nodes : [];
  const n = nodes.length;
  const ids: string[] = [];
  const index = new Map<string, number>();
  const labels: string[] = [];
  const attributes: Attributes[] = [];
  const images: (string | null)[] = [];
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const types = new Map<string, AttributeType>();
  const missing: number[] = [];
  for (const node of nodes) {
    const id = String(node.id);
    if (index.has(id)) continue; // duplicates: first wins (the service refuses them on upload anyway)
    const i = ids.length;
    index.set(id, i);
    ids.push(id);
    const attrs = cleanAttributes(node.attributes);
    attributes.push(attrs);
    labels.push(attrs.name !== undefined ? String(attrs.name) : id);
    images.push(typeof node.image?.url === 'string' && node.image.url !== '' ? node.image.url : null);
    for (const [k, v] of Object.entries(attrs)) {
      const t: AttributeType = typeof v === 'number' ? 'number' : 'string';
      const prev = types.get(k);
      types.set(k, prev === undefined ? t : prev === t ? t : 'string');
    }
    if (typeof node.x === 'number' && Number.isFinite(node.x) && typeof node.y === 'number' && Number.isFinite(node.y)) {
      x[i] = node.x;
      y[i] = node.y;
    } else missing.push(i);
  }
  // Nodes without a position: equally spread on a circle.
  missing.forEach((i, k) => {
    [x[i], y[i]] = circlePoint(k, missing.length);
  });
  const edges: ModelEdge[] = [];
  const edgeTypes = new Map<string, AttributeType>();
  for (const e of input.json.edges ?? []) {
    const s = index.get(String(e.source));
    const t = index.get(String(e.target));
    if (s === undefined || t === undefined) continue;
    // Most edges carry no attributes: they share one frozen empty object (500k fewer objects at 500k edges).
    const attrs = e.attributes ? cleanAttributes(e.attributes) : NO_ATTRIBUTES;
    for (const k in attrs) {
      const v = attrs[k];
      const ty: AttributeType = typeof v === 'number' ? 'number' : 'string';
      const prev = edgeTypes.get(k);
      if (prev !== ty) edgeTypes.set(k, prev === undefined ? ty : 'string');
    }
    edges.push({ id: String(e.id), source: s, target: t, attributes: attrs });
  }
  const byName = ([a]: [string, AttributeType], [b]: [string, AttributeType]) => (a < b ? -1 : a > b ? 1 : 0);
  const sortedTypes = new Map([...types].sort(byName));
  return {
    networkId: input.networkId,
    name: input.name,
    directed: input.directed ?? false,
    ids,
    index,
    labels,
    attributes,
    x: x.subarray(0, ids.length),
    y: y.subarray(0, ids.length),
    images,
    shownImages: input.imageAllowed ? images.map((u) => (u !== null && input.imageAllowed!(u) ? u : null)) : images,
    edges,
    positioned: missing.length === 0,
    nodeAttributeTypes: sortedTypes,
    edgeAttributeTypes: new Map([...edgeTypes].sort(byName)),
  };
}

export function networkInfo(model: NetworkModel): NetworkInfo {
  return {
    name: model.name,
    nodeCount: model.ids.length,
    edgeCount: model.edges.length,
    nodeAttributes: [...model.nodeAttributeTypes].map(([name, type]) => ({ name, type })),
  };
}

export function nodeSummary(model: NetworkModel, i: number): NodeSummary {
  return { id: model.ids[i], label: model.labels[i], attributes: { ...model.attributes[i] } };
}
