/**
 * Collects the nodes and edges an importer reads, checking what every format shares, with the place of
 * each problem: duplicate node ids (by string form, as the API compares ids), duplicate edge ids, edges
 * naming a node that does not exist (or, for an edge list without a node list, creating the nodes in
 * order of first appearance), the node/edge limits (413 at once), and edge ids missing from the file
 * (numbered 1, 2, … skipping ids that are taken).
 */
import type { Attributes, EdgeJSON, Id, NetworkJSON, NodeJSON } from '@netloom/engine';
import { tooLarge, type Problems } from './problems.ts';

export interface ImportLimits {
  maxNodes: number;
  maxEdges: number;
  /** Largest file (and largest total unzipped size of an xlsx or zip) accepted, in bytes. */
  maxBytes: number;
  maxInflatedBytes: number;
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

  /** `id` undefined: numbered at finish. */
  addEdge(id: Id | undefined, source: Id, target: Id, attributes: Attributes | undefined, loc: number): void {
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
}
