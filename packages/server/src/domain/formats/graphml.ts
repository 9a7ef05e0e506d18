/**
 * GraphML, read with a streaming XML parser (xml-reader.ts) and written as text.
 *
 * Reading: `<key id for attr.name attr.type>` (+ `<default>`) declare attributes: int, long, float,
 * double → Number (a value that is not a number is a problem naming its line), boolean →
 * "true"/"false", string → String. Keys with id `x` and `y` on nodes (Gephi's convention) are the
 * position, the key with id `nl:image` the node image URL; yEd's `<y:Geometry x y>` gives a position
 * too, `<y:NodeLabel>` the node label (`name`). `edgedefault="undirected"` makes an undirected network;
 * an edge's own `directed` is honoured (builder.resolveDirection). Nested graphs flatten, each inner
 * node with the attribute `parent`. A key named `label` is the node label unless one is named `name`.
 * Hyperedges, ports and locators are refused with a 400 naming their line. `<data>` holding markup (yEd
 * graphics) is not an attribute value and is skipped. Ids follow values.ts (canonical numbers become
 * Numbers). What is converted or dropped is a warning (docs/api/import-export.md, "Warnings").
 *
 * Writing is the reverse: one key per attribute (`double` when every value is a Number, else
 * `string`), keys `x`/`y` for positions and `nl:image` for images.
 */
import type { EdgeJSON, Id, NodeJSON } from '@netloom/engine';
import { NetworkBuilder, type EdgeKind } from './builder.ts';
import { Problems, unreadable, Warnings } from './problems.ts';
import { escapeXml, localName, readXml } from './xml-reader.ts';
import { idFromText, isLargeInteger, isNotANumberToken, losesDigits, numberFromText, xsdBoolean } from './values.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

const NUMERIC_TYPES = new Set(['int', 'long', 'float', 'double', 'integer', 'short', 'byte']);
const IMAGE_KEY = 'nl:image';
const NAME_KEY = 'nl:name';
const DESCRIPTION_KEY = 'nl:description';
/** The key Netloom writes for an attribute called `label` (a key named `label` is read as the node label). */
const LABEL_ATTRIBUTE_KEY = 'nl:label';
/** The attribute naming the enclosing node of a node of a nested graph (yEd groups). */
export const PARENT_ATTRIBUTE = 'parent';

interface KeyDef {
  id: string;
  name: string;
  for: string;
  type: 'number' | 'boolean' | 'string';
  default?: string;
  line: number;
}

type Values = Record<string, string | number>;

interface OpenNode {
  node: NodeJSON & { attributes: Values };
  line: number;
  /** The first y:NodeLabel text (yEd). */
  yedLabel?: string;
}

export async function importGraphml(file: UploadedFile, limits: ImportLimits): Promise<ImportedNetwork> {
  const label = file.filename || 'file';
  const problems = new Problems('the GraphML file has problems');
  const warnings = new Warnings();
  const lineOf = (loc: number) => `${label} line ${loc}`;
  const builder = new NetworkBuilder(problems, limits, (_kind, loc, field) => `${lineOf(loc)}${field === 'id' ? '' : `, ${field}`}`);
  const keys = new Map<string, KeyDef>();
  let sawRoot = false;
  let sawGraph = false;
  /** edgedefault of each open <graph>: true = directed. */
  const graphs: boolean[] = [];
  let topDirected = true;
  let name: string | undefined;
  let graphName: string | undefined;
  let graphId: string | undefined;
  let description: string | undefined;
  let graphDescription: string | undefined;
  let currentKey: KeyDef | null = null;
  let inDefault = false;
  let dataKey: string | null = null;
  let dataLine = 0;
  let dataHasMarkup = false;
  let text = '';
  /** Open <node> elements (a node of a nested graph sits inside its group node). */
  const nodes: OpenNode[] = [];
  let edge: { id?: Id; source?: string; target?: string; attributes: Values; line: number; kind?: EdgeKind } | null = null;
  let yedLabel: string | null = null;
  let descDepth = 0;
  let currentDesc = false;
  /** Attribute names of numeric keys that hold an integer a Number cannot keep: read as text. */
  const lossy = new Map<string, 'node' | 'edge'>();
  let labelIsName = false;

  const convert = (def: KeyDef, raw: string, line: number, kind: 'node' | 'edge' | 'graph', attrName = def.name): string | number | undefined => {
    if (raw === '') return undefined;
    if (def.type === 'string') return raw;
    if (def.type === 'boolean') {
      const v = xsdBoolean(raw);
      if (v === undefined) problems.add(lineOf(line), `${def.name}: ${JSON.stringify(raw)} is not a boolean (true, false, 1 or 0)`);
      return v;
    }
    if (isNotANumberToken(raw)) {
      warnings.add(`nan:${def.id}`, lineOf(line), `key ${JSON.stringify(def.name)}: INF, -INF, NaN and null are not numbers; read as absent values`);
      return undefined;
    }
    const n = numberFromText(raw);
    if (n === undefined) {
      problems.add(lineOf(line), `${def.name}: ${JSON.stringify(raw)} is not a number (the key is declared numeric)`);
      return undefined;
    }
    if (kind !== 'graph' && losesDigits(raw)) {
      warnings.add(`lossy:${def.id}`, lineOf(line), `key ${JSON.stringify(def.name)} is read as text: it holds an integer too long for a number to keep every digit`);
      lossy.set(attrName, kind);
      return raw.trim();
    }
    if (isLargeInteger(raw)) warnings.add(`large:${def.id}`, lineOf(line), `key ${JSON.stringify(def.name)} stays numeric: its integers beyond 2^53 are kept exactly`);
    return n;
  };
  const attributeName = (def: KeyDef): string => (labelIsName && def.for !== 'edge' && def.name === 'label' && def.id !== LABEL_ATTRIBUTE_KEY ? 'name' : def.id === LABEL_ATTRIBUTE_KEY ? 'label' : def.name);
  const applyDefaults = (kind: 'node' | 'edge', target: Values, isNode: boolean) => {
    for (const [id, def] of keys) {
      if (def.default === undefined || (def.for !== kind && def.for !== 'all')) continue;
      if (isNode && (id === 'x' || id === 'y' || id === IMAGE_KEY)) continue;
      const attrName = kind === 'node' ? attributeName(def) : def.name;
      if (target[attrName] === undefined) {
        const v = convert(def, def.default, def.line, kind, attrName);
        if (v !== undefined) target[attrName] = v;
      }
    }
  };
  const refuse = (line: number, what: string) => {
    throw unreadable(lineOf(line), what);
  };

  await readXml(file.path, label, {
    open(tag, line) {
      const tagName = localName(tag.name);
      const a = tag.attributes as Record<string, string>;
      if (!sawRoot) {
        if (tagName !== 'graphml') throw unreadable(lineOf(line), `not a GraphML file: the root element is <${tag.name}>, expected <graphml>`);
        sawRoot = true;
        return;
      }
      if (descDepth > 0) {
        descDepth++;
        return;
      }
      const top = nodes.length > 0 ? nodes[nodes.length - 1] : undefined;
      if (dataKey !== null) {
        dataHasMarkup = true;
        if (top && !edge) {
          if (tagName === 'Geometry') {
            const x = numberFromText(a.x ?? '');
            const y = numberFromText(a.y ?? '');
            if (x !== undefined && top.node.x === undefined) top.node.x = x;
            if (y !== undefined && top.node.y === undefined) top.node.y = y;
          } else if (tagName === 'NodeLabel' && top.yedLabel === undefined && a.hasText !== 'false') {
            yedLabel = '';
          }
        }
        return;
      }
      switch (tagName) {
        case 'key': {
          if (a.id === undefined) {
            problems.add(lineOf(line), '<key> needs an `id`');
            break;
          }
          if (keys.has(a.id)) problems.add(lineOf(line), `a second <key> with the id ${JSON.stringify(a.id)} (first at ${lineOf(keys.get(a.id)!.line)})`);
          const t = (a['attr.type'] ?? 'string').toLowerCase();
          currentKey = { id: a.id, name: a['attr.name'] ?? a.id, for: a.for ?? 'all', type: NUMERIC_TYPES.has(t) ? 'number' : t === 'boolean' ? 'boolean' : 'string', line };
          keys.set(a.id, currentKey);
          break;
        }
        case 'default':
          if (currentKey) {
            inDefault = true;
            text = '';
          }
          break;
        case 'graph': {
          if (!sawGraph) {
            // a key named `label` is the node label (yEd, graphology, Gephi, igraph) unless one is named `name`
            const nodeKeys = [...keys.values()].filter((k) => k.for === 'node' || k.for === 'all');
            labelIsName = nodeKeys.some((k) => k.name === 'label' && k.id !== LABEL_ATTRIBUTE_KEY) && !nodeKeys.some((k) => k.name === 'name');
            if (labelIsName) warnings.add('label-key', '', 'the key "label" is read as the node label (the attribute name)');
          }
          const directed = a.edgedefault === undefined ? (graphs.length > 0 ? graphs[graphs.length - 1] : true) : a.edgedefault !== 'undirected';
          if (graphs.length === 0) {
            if (sawGraph) refuse(line, 'a second top-level <graph>: a GraphML file for Netloom holds one graph');
            if (a.edgedefault === undefined) warnings.add('edgedefault', lineOf(line), 'the <graph> has no edgedefault (GraphML requires one): read as directed');
            topDirected = directed;
            graphId = a.id;
          } else if (!top) refuse(line, 'a <graph> inside an edge is not supported');
          sawGraph = true;
          graphs.push(directed);
          break;
        }
        case 'node':
          if (graphs.length === 0) refuse(line, '<node> outside a <graph>');
          if (a.id === undefined) problems.add(lineOf(line), '<node> needs an `id`');
          if (a.id !== undefined && top) warnings.add('nested', lineOf(line), `nodes of nested graphs (groups) are kept, each with the attribute ${JSON.stringify(PARENT_ATTRIBUTE)} naming the node it is in`);
          nodes.push({ node: { id: idFromText(a.id ?? ''), attributes: top && a.id !== undefined ? { [PARENT_ATTRIBUTE]: top.node.id } : {} }, line });
          break;
        case 'edge': {
          if (graphs.length === 0) refuse(line, '<edge> outside a <graph>');
          if (a.sourceport !== undefined || a.targetport !== undefined) refuse(line, 'edges attached to ports (sourceport/targetport) are not supported: Netloom edges join nodes');
          if (a.source === undefined || a.target === undefined) problems.add(lineOf(line), '<edge> needs `source` and `target`');
          let kind: EdgeKind | undefined;
          if (a.directed !== undefined) {
            const d = xsdBoolean(a.directed);
            if (d === undefined) problems.add(lineOf(line), `<edge directed=${JSON.stringify(a.directed)}>: must be true or false`);
            else kind = d === 'true' ? 'directed' : 'undirected';
          } else if (graphs[graphs.length - 1] !== topDirected) kind = graphs[graphs.length - 1] ? 'directed' : 'undirected';
          edge = { id: a.id === undefined ? undefined : idFromText(a.id), source: a.source, target: a.target, attributes: {}, line, kind };
          break;
        }
        case 'hyperedge':
          refuse(line, 'hyperedges (<hyperedge>) are not supported: a Netloom edge joins two nodes; write each relation as <edge> elements');
          break;
        case 'port':
          refuse(line, 'ports (<port>) are not supported: Netloom edges join nodes, not ports');
          break;
        case 'locator':
          refuse(line, 'a <locator> (a graph kept in another file) is not supported');
          break;
        case 'desc':
          if (graphs.length === 1 && !top && !edge) {
            currentDesc = true;
            text = '';
          } else {
            if (top || edge) warnings.add('desc', lineOf(line), '<desc> of nodes and edges is not kept (it is not an attribute)');
            descDepth = 1;
          }
          break;
        case 'data':
          if (a.key === undefined) {
            problems.add(lineOf(line), '<data> needs a `key`');
            break;
          }
          dataKey = a.key;
          dataLine = line;
          dataHasMarkup = false;
          text = '';
          break;
        default:
          break;
      }
    },
    close(rawName) {
      const tagName = localName(rawName);
      if (descDepth > 0) {
        descDepth--;
        return;
      }
      if (dataKey !== null && tagName !== 'data') {
        if (tagName === 'NodeLabel' && yedLabel !== null) {
          const top = nodes[nodes.length - 1];
          const t = yedLabel.trim();
          if (top && t !== '') top.yedLabel = t;
          yedLabel = null;
        }
        return;
      }
      const top = nodes.length > 0 ? nodes[nodes.length - 1] : undefined;
      switch (tagName) {
        case 'default':
          if (currentKey && inDefault) currentKey.default = text;
          inDefault = false;
          break;
        case 'key':
          currentKey = null;
          break;
        case 'graph':
          graphs.pop();
          break;
        case 'desc':
          if (currentDesc) {
            graphDescription = text;
            currentDesc = false;
          }
          break;
        case 'data': {
          const key = dataKey;
          dataKey = null;
          if (key === null) break;
          const def = keys.get(key);
          if (!def) {
            problems.add(lineOf(dataLine), `<data key="${key}">: no <key> with that id`);
            break;
          }
          // markup inside <data> is yEd's graphics (positions and labels were taken above)
          if (dataHasMarkup) break;
          if (!top && !edge) {
            if (graphs.length !== 1) break;
            if (key === NAME_KEY) {
              if (text.trim() !== '') name = text;
            } else if (key === DESCRIPTION_KEY) description = text;
            else if (def.name === 'name' && text.trim() !== '') graphName = text;
            else if (def.name === 'description') graphDescription = text;
            else if (text.trim() !== '') warnings.add(`graph-data:${key}`, lineOf(dataLine), `graph data ${JSON.stringify(def.name)} is not kept (a network keeps only a name and a description)`);
          } else if (edge) {
            const v = convert(def, text, dataLine, 'edge');
            if (v !== undefined) edge.attributes[def.name] = v;
          } else if (top) {
            const node = top.node;
            if (key === 'x' || key === 'y') {
              const v = numberFromText(text);
              if (v === undefined) {
                if (isNotANumberToken(text)) warnings.add(`nan:${key}`, lineOf(dataLine), `${key}: INF, -INF, NaN and null are not positions; read as absent`);
                else problems.add(lineOf(dataLine), `${key}: ${JSON.stringify(text)} is not a number`);
              } else node[key] = v;
            } else if (key === IMAGE_KEY) {
              if (text !== '') node.image = { url: text };
            } else {
              const attrName = attributeName(def);
              const v = convert(def, text, dataLine, 'node', attrName);
              if (v !== undefined) node.attributes[attrName] = v;
            }
          }
          break;
        }
        case 'node': {
          const open = nodes.pop();
          if (open && !edge) {
            const node = open.node;
            applyDefaults('node', node.attributes, true);
            if (open.yedLabel !== undefined) {
              if (node.attributes.name === undefined) {
                node.attributes.name = open.yedLabel;
                warnings.add('yed-label', lineOf(open.line), 'yEd node labels (y:NodeLabel) are read as the node label (the attribute name)');
              } else if (node.attributes.name !== open.yedLabel) warnings.add('yed-label-dropped', lineOf(open.line), 'a yEd node label (y:NodeLabel) is not kept: the node has a name already');
            }
            const n: NodeJSON = node;
            if (Object.keys(node.attributes).length === 0) delete n.attributes;
            builder.addNode(n, open.line);
          }
          break;
        }
        case 'edge':
          if (edge) {
            applyDefaults('edge', edge.attributes, false);
            if (edge.source !== undefined && edge.target !== undefined) builder.addEdge(edge.id, idFromText(edge.source), idFromText(edge.target), edge.attributes, edge.line, edge.kind);
            edge = null;
          }
          break;
        default:
          break;
      }
    },
    text(t) {
      if (yedLabel !== null) yedLabel += t;
      else if (dataKey !== null || inDefault || currentDesc) text += t;
    },
  });
  if (!sawRoot) throw unreadable(label, 'not a GraphML file (no <graphml> element)');
  if (!sawGraph) throw unreadable(label, 'the GraphML file has no <graph> element: there is no network in it');
  const networkJSON = builder.finish(false);
  problems.throwIfAny();
  if (lossy.size > 0) {
    for (const [attrName, kind] of lossy) {
      for (const el of kind === 'node' ? networkJSON.nodes : (networkJSON.edges ?? [])) {
        const v = el.attributes?.[attrName];
        if (typeof v === 'number') el.attributes![attrName] = String(v);
      }
    }
  }
  const isDirected = builder.resolveDirection(topDirected, warnings, 'GraphML file');
  const graphTitle = name ?? graphName ?? (graphId !== undefined && graphId.trim() !== '' && graphId !== 'G' ? graphId : undefined);
  return { networkJSON, isDirected, name: graphTitle, description: description ?? graphDescription, warnings: warnings.list() };
}

function keyTypes(elements: readonly (NodeJSON | EdgeJSON)[]): Map<string, 'double' | 'string'> {
  const types = new Map<string, 'double' | 'string'>();
  for (const el of elements) {
    if (!el.attributes) continue;
    for (const [k, v] of Object.entries(el.attributes)) {
      const t = typeof v === 'number' ? 'double' : 'string';
      const had = types.get(k);
      if (had === undefined || (had === 'double' && t === 'string')) types.set(k, t);
    }
  }
  return types;
}

export function exportGraphml(net: ExportableNetwork): ExportedFile {
  const nodes = net.networkJSON.nodes;
  const edges = net.networkJSON.edges ?? [];
  const nodeTypes = keyTypes(nodes);
  const edgeTypes = keyTypes(edges);
  // an attribute called `label` gets the key id nl:label (a key *named* label is read as the node label)
  const nodeIds = new Map([...nodeTypes.keys()].map((k, i) => [k, k === 'label' ? LABEL_ATTRIBUTE_KEY : `n${i}`]));
  const edgeIds = new Map([...edgeTypes.keys()].map((k, i) => [k, `e${i}`]));
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n',
  ];
  if (nodes.some((n) => typeof n.x === 'number')) out.push('  <key id="x" for="node" attr.name="x" attr.type="double"/>\n');
  if (nodes.some((n) => typeof n.y === 'number')) out.push('  <key id="y" for="node" attr.name="y" attr.type="double"/>\n');
  if (nodes.some((n) => typeof n.image?.url === 'string' && n.image.url !== '')) out.push(`  <key id="${IMAGE_KEY}" for="node" attr.name="image" attr.type="string"/>\n`);
  for (const [k, t] of nodeTypes) out.push(`  <key id="${nodeIds.get(k)}" for="node" attr.name="${escapeXml(k)}" attr.type="${t}"/>\n`);
  for (const [k, t] of edgeTypes) out.push(`  <key id="${edgeIds.get(k)}" for="edge" attr.name="${escapeXml(k)}" attr.type="${t}"/>\n`);
  out.push(`  <key id="${NAME_KEY}" for="graph" attr.name="name" attr.type="string"/>\n  <key id="${DESCRIPTION_KEY}" for="graph" attr.name="description" attr.type="string"/>\n`);
  out.push(`  <graph id="G" edgedefault="${net.isDirected ? 'directed' : 'undirected'}">\n`);
  out.push(`    <data key="${NAME_KEY}">${escapeXml(net.name)}</data>\n    <data key="${DESCRIPTION_KEY}">${escapeXml(net.description)}</data>\n`);
  for (const n of nodes) {
    let d = '';
    if (typeof n.x === 'number') d += `<data key="x">${n.x}</data>`;
    if (typeof n.y === 'number') d += `<data key="y">${n.y}</data>`;
    if (typeof n.image?.url === 'string' && n.image.url !== '') d += `<data key="${IMAGE_KEY}">${escapeXml(n.image.url)}</data>`;
    if (n.attributes) for (const [k, v] of Object.entries(n.attributes)) d += `<data key="${nodeIds.get(k)}">${escapeXml(String(v))}</data>`;
    out.push(`    <node id="${escapeXml(String(n.id))}">${d}</node>\n`);
  }
  for (const e of edges) {
    let d = '';
    if (e.attributes) for (const [k, v] of Object.entries(e.attributes)) d += `<data key="${edgeIds.get(k)}">${escapeXml(String(v))}</data>`;
    out.push(`    <edge id="${escapeXml(String(e.id))}" source="${escapeXml(String(e.source))}" target="${escapeXml(String(e.target))}">${d}</edge>\n`);
  }
  out.push('  </graph>\n</graphml>\n');
  return { body: Buffer.from(out.join('')), contentType: 'application/graphml+xml', extension: 'graphml' };
}
