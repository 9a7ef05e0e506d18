/**
 * Collects the nodes and edges an importer reads, checking what every format shares, with the place of
 * each problem: duplicate node ids (by string form, as the API compares ids), duplicate edge ids, edges
 * naming a node that does not exist (or, for an edge list without a node list, creating the nodes in
 * order of first appearance), the node/edge limits (413 at once), and edge ids missing from the file
 * (numbered 1, 2, … skipping ids that are taken).
 */
import type { Attributes, EdgeJSON, Id, NetworkJSON, NodeJSON } from '@netloom/engine';
import { tooLarge, type Problems, type Warnings } from './problems.ts';

/** The direction an edge declares itself (GEXF `type`, GraphML `directed`, CSV `Type`). */
export type EdgeKind = 'directed' | 'undirected' | 'mutual';
const KIND_CODE: Record<EdgeKind, number> = { directed: 1, undirected: 2, mutual: 3 };

export interface ImportLimits {
  maxNodes: number;
  maxEdges: number;
  /** Largest file (and largest total unzipped size of an xlsx or zip) accepted, in bytes. */
  maxBytes: number;
  maxInflatedBytes: number;
  /** Heap limit of a reader worker thread, in MiB (read-pool.ts). */
  readerHeapMb?: number;
}

/** Where a node or edge was read (its row or line), as the `path` of a problem. */
export type Locate = (kind: 'node' | 'edge', loc: number, field: string) => string;

/**
 * The key an id is compared by: its string form, as the API compares ids — kept as the Number for a
 * Number id or a String that is the canonical form of one (`"12"` and `12` are the same id), so the
 * common numeric ids are never turned into strings just to be compared.
 */
function idKey(id: Id): string | number {
  if (typeof id === 'number') return id;
  const c = id.charCodeAt(0);
  if ((c >= 48 && c <= 57) || c === 45 /* - */) {
    const n = Number(id);
    if (String(n) === id) return n;
  }
  return id;
}

export class NetworkBuilder {
  readonly nodes: NodeJSON[] = [];
  readonly edges: EdgeJSON[] = [];
  private readonly nodeAt = new Map<string | number, number>();
  private readonly edgeAt = new Map<string | number, number>();
  private readonly edgeLocs: number[] = [];
  /** Per edge: 0 as the graph's default, else KIND_CODE (only filled once an edge declares one). */
  private edgeKinds: number[] | undefined;
  private readonly problems: Problems;
  private readonly limits: ImportLimits;
  private readonly locate: Locate;

  constructor(problems: Problems, limits: ImportLimits, locate: Locate) {
    this.problems = problems;
    this.limits = limits;
    this.locate = locate;
  }

  addNode(node: NodeJSON, loc: number): void {
    const key = idKey(node.id);
    const first = this.nodeAt.get(key);
    if (first !== undefined) {
      this.problems.add(this.locate('node', loc, 'id'), `duplicate node id ${JSON.stringify(String(key))} (first at ${this.locate('node', first, 'id')})`);
      return;
    }
    this.nodeAt.set(key, loc);
    this.nodes.push(node);
    if (this.nodes.length > this.limits.maxNodes) throw tooLarge(`the file has more than ${this.limits.maxNodes} nodes`);
  }

  /** `id` undefined: numbered at finish. `kind`: the edge's own direction, when it declares one. */
  addEdge(id: Id | undefined, source: Id, target: Id, attributes: Attributes | undefined, loc: number, kind?: EdgeKind): void {
    const edge: EdgeJSON = { id: id ?? '', source, target };
    if (attributes && Object.keys(attributes).length > 0) edge.attributes = attributes;
    if (id !== undefined) {
      const key = idKey(id);
      const first = this.edgeAt.get(key);
      if (first !== undefined) {
        this.problems.add(this.locate('edge', loc, 'id'), `duplicate edge id ${JSON.stringify(String(key))} (first at ${this.locate('edge', first, 'id')})`);
        return;
      }
      this.edgeAt.set(key, loc);
    } else {
      (edge as { id: Id | undefined }).id = undefined;
    }
    this.edges.push(edge);
    this.edgeLocs.push(loc);
    if (kind !== undefined) {
      this.edgeKinds ??= [];
      this.edgeKinds[this.edges.length - 1] = KIND_CODE[kind];
    }
    if (this.edges.length > this.limits.maxEdges) throw tooLarge(`the file has more than ${this.limits.maxEdges} edges`);
  }

  /**
   * The network JSON. `implicitNodes`: an edge list without a node list, whose nodes are the edges'
   * endpoints; otherwise an endpoint that names no node is a problem.
   */
  finish(implicitNodes: boolean): NetworkJSON {
    let next = 1;
    for (let i = 0; i < this.edges.length; i++) {
      const e = this.edges[i];
      for (const end of ['source', 'target'] as const) {
        const key = idKey(e[end]);
        if (this.nodeAt.has(key)) continue;
        if (implicitNodes) {
          this.nodeAt.set(key, -1);
          this.nodes.push({ id: e[end] });
          if (this.nodes.length > this.limits.maxNodes) throw tooLarge(`the file has more than ${this.limits.maxNodes} nodes`);
        } else {
          this.problems.add(this.locate('edge', this.edgeLocs[i], end), `no node with id ${JSON.stringify(String(key))}`);
        }
      }
      if (e.id === undefined) {
        while (this.edgeAt.has(next)) next++;
        e.id = next;
        this.edgeAt.set(next, this.edgeLocs[i]);
      }
    }
    return { nodes: this.nodes, edges: this.edges };
  }

  /**
   * The network's direction from each edge's own direction (after finish): the graph's default when
   * no edge says otherwise; undirected when every edge is undirected; otherwise (a mixed network, or
   * `mutual` edges) directed, with each undirected or mutual edge stored as two arcs — the second
   * with the id `<id>-r` — and a warning naming them (docs/api/import-export.md).
   */
  resolveDirection(defaultDirected: boolean, warnings: Warnings, what: string): boolean {
    const kinds = this.edgeKinds;
    if (!kinds) return defaultDirected;
    const deflt = defaultDirected ? 1 : 2;
    let directed = 0;
    let undirected = 0;
    let mutual = 0;
    const n = this.edges.length;
    for (let i = 0; i < n; i++) {
      const k = kinds[i] || deflt;
      if (k === 1) directed++;
      else if (k === 2) undirected++;
      else mutual++;
    }
    if (mutual === 0 && (directed === 0 || undirected === 0)) {
      const isDirected = undirected === 0;
      if (n > 0 && isDirected !== defaultDirected) warnings.add('direction:all', '', `every edge of the ${what} declares itself ${isDirected ? 'directed' : 'undirected'}: the network is ${isDirected ? 'directed' : 'undirected'} (the graph's default says otherwise)`);
      return isDirected;
    }
    for (let i = 0; i < n; i++) {
      const k = kinds[i] || deflt;
      if (k === 1) continue;
      const e = this.edges[i];
      const place = this.locate('edge', this.edgeLocs[i], 'id');
      if (String(e.source) === String(e.target)) continue;
      let rid = `${String(e.id)}-r`;
      for (let j = 2; this.edgeAt.has(idKey(rid)); j++) rid = `${String(e.id)}-r${j}`;
      this.edgeAt.set(rid, this.edgeLocs[i]);
      const arc: EdgeJSON = { id: rid, source: e.target, target: e.source };
      if (e.attributes) arc.attributes = { ...e.attributes };
      this.edges.push(arc);
      if (this.edges.length > this.limits.maxEdges) throw tooLarge(`the file has more than ${this.limits.maxEdges} edges`);
      warnings.add(
        k === 3 ? 'direction:mutual' : 'direction:mixed',
        place,
        k === 3
          ? 'mutual edges go both ways: each is stored as two arcs (the second with the id "<id>-r"), in a directed network'
          : 'the file mixes directed and undirected edges: the network is directed and each undirected edge is stored as two arcs (the second with the id "<id>-r")',
      );
    }
    return true;
  }
}
