/**
 * GraphML, read with a streaming XML parser (xml-reader.ts) and written as text.
 *
 * Reading: `<key id for attr.name attr.type>` (+ `<default>`) declare attributes: int, long, float,
 * double → Number (a value that is not a number is a problem naming its line), boolean →
 * "true"/"false", string → String. Keys with id `x` and `y` on nodes (Gephi's convention) are the
 * position, the key with id `nl:image` the node image URL; yEd's `<y:Geometry x y>` gives a position
 * too. `edgedefault="undirected"` makes an undirected network. `<data>` holding markup (yEd graphics)
 * is not an attribute value and is skipped. Ids follow values.ts (canonical numbers become Numbers).
 *
 * Writing is the reverse: one key per attribute (`double` when every value is a Number, else
 * `string`), keys `x`/`y` for positions and `nl:image` for images.
 */
import type { EdgeJSON, Id, NodeJSON } from '@netloom/engine';
import { NetworkBuilder } from './builder.ts';
import { Problems, unreadable } from './problems.ts';
import { escapeXml, localName, readXml } from './xml-reader.ts';
import { idFromText, numberFromText } from './values.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

const NUMERIC_TYPES = new Set(['int', 'long', 'float', 'double', 'integer', 'short', 'byte']);
const IMAGE_KEY = 'nl:image';
const NAME_KEY = 'nl:name';
const DESCRIPTION_KEY = 'nl:description';

interface KeyDef {
  name: string;
  for: string;
  type: 'number' | 'boolean' | 'string';
  default?: string;
}

export async function importGraphml(file: UploadedFile, limits: ImportLimits): Promise<ImportedNetwork> {
  const label = file.filename || 'file';
  const problems = new Problems();
  const lineOf = (loc: number) => `${label} line ${loc}`;
  const builder = new NetworkBuilder(problems, limits, (_kind, loc, field) => `${lineOf(loc)}${field === 'id' ? '' : `, ${field}`}`);
  const keys = new Map<string, KeyDef>();
  let sawRoot = false;
  let isDirected: boolean | undefined;
  let name: string | undefined;
  let description: string | undefined;
  let graphDepth = 0;
  let currentKey: KeyDef | null = null;
  let inDefault = false;
  let dataKey: string | null = null;
  let dataLine = 0;
  let dataHasMarkup = false;
  let text = '';
  let node: (NodeJSON & { attributes: Record<string, string | number> }) | null = null;
  let nodeLine = 0;
  let edge: { id?: Id; source?: string; target?: string; attributes: Record<string, string | number>; line: number } | null = null;

  const convert = (def: KeyDef, raw: string, line: number): string | number | undefined => {
    if (raw === '') return undefined;
    if (def.type === 'string') return raw;
    if (def.type === 'boolean') {
      const v = raw.trim().toLowerCase();
      if (v === 'true' || v === 'false') return v;
      problems.add(lineOf(line), `${def.name}: ${JSON.stringify(raw)} is not a boolean`);
      return undefined;
    }
    const n = numberFromText(raw);
    if (n === undefined) problems.add(lineOf(line), `${def.name}: ${JSON.stringify(raw)} is not a number (the key is declared numeric)`);
    return n;
  };
  const applyDefaults = (kind: 'node' | 'edge', target: Record<string, string | number>, el: NodeJSON | null) => {
    for (const [id, def] of keys) {
      if (def.default === undefined || (def.for !== kind && def.for !== 'all')) continue;
      if (el && (id === 'x' || id === 'y' || id === IMAGE_KEY)) continue;
      if (target[def.name] === undefined) {
        const v = convert(def, def.default, 0);
        if (v !== undefined) target[def.name] = v;
      }
    }
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
      if (dataKey !== null) {
        dataHasMarkup = true;
        if (tagName === 'Geometry' && node && !edge) {
          const x = numberFromText(a.x ?? '');
          const y = numberFromText(a.y ?? '');
          if (x !== undefined && node.x === undefined) node.x = x;
          if (y !== undefined && node.y === undefined) node.y = y;
        }
        return;
      }
      switch (tagName) {
        case 'key': {
          if (a.id === undefined) {
            problems.add(lineOf(line), '<key> needs an `id`');
            break;
          }
          const t = (a['attr.type'] ?? 'string').toLowerCase();
          currentKey = { name: a['attr.name'] ?? a.id, for: a.for ?? 'all', type: NUMERIC_TYPES.has(t) ? 'number' : t === 'boolean' ? 'boolean' : 'string' };
          keys.set(a.id, currentKey);
          break;
        }
        case 'default':
          if (currentKey) {
            inDefault = true;
            text = '';
          }
          break;
        case 'graph':
          graphDepth++;
          if (graphDepth === 1) isDirected = a.edgedefault !== 'undirected';
          break;
        case 'node':
          if (a.id === undefined) problems.add(lineOf(line), '<node> needs an `id`');
          node = { id: idFromText(a.id ?? ''), attributes: {} };
          nodeLine = line;
          break;
        case 'edge':
          if (a.source === undefined || a.target === undefined) problems.add(lineOf(line), '<edge> needs `source` and `target`');
          edge = { id: a.id === undefined ? undefined : idFromText(a.id), source: a.source, target: a.target, attributes: {}, line };
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
      if (dataKey !== null && tagName !== 'data') return;
      switch (tagName) {
        case 'default':
          if (currentKey && inDefault) currentKey.default = text;
          inDefault = false;
          break;
        case 'key':
          currentKey = null;
          break;
        case 'graph':
          graphDepth--;
          break;
        case 'data': {
          const key = dataKey;
          dataKey = null;
          if (key === null || dataHasMarkup) break;
          const def = keys.get(key);
          if (!def) {
            problems.add(lineOf(dataLine), `<data key="${key}">: no <key> with that id`);
            break;
          }
          if (!node && !edge) {
            if (graphDepth === 1 && key === NAME_KEY && text.trim() !== '') name = text;
            else if (graphDepth === 1 && key === DESCRIPTION_KEY) description = text;
          } else if (edge) {
            const v = convert(def, text, dataLine);
            if (v !== undefined) edge.attributes[def.name] = v;
          } else if (node) {
            if (key === 'x' || key === 'y') {
              const v = numberFromText(text);
              if (v === undefined) problems.add(lineOf(dataLine), `${key}: ${JSON.stringify(text)} is not a number`);
              else node[key] = v;
            } else if (key === IMAGE_KEY) {
              if (text !== '') node.image = { url: text };
            } else {
              const v = convert(def, text, dataLine);
              if (v !== undefined) node.attributes[def.name] = v;
            }
          }
          break;
        }
        case 'node':
          if (node && !edge) {
            applyDefaults('node', node.attributes, node);
            const n: NodeJSON = node;
            if (Object.keys(node.attributes).length === 0) delete n.attributes;
            builder.addNode(n, nodeLine);
            node = null;
          }
          break;
        case 'edge':
          if (edge) {
            applyDefaults('edge', edge.attributes, null);
            if (edge.source !== undefined && edge.target !== undefined) builder.addEdge(edge.id, idFromText(edge.source), idFromText(edge.target), edge.attributes, edge.line);
            edge = null;
          }
          break;
        default:
          break;
      }
    },
    text(t) {
      if (dataKey !== null || inDefault) text += t;
    },
  });
  if (!sawRoot) throw unreadable(label, 'not a GraphML file (no <graphml> element)');
  const networkJSON = builder.finish(false);
  problems.throwIfAny('the GraphML file has problems');
  return { networkJSON, isDirected, name, description };
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
  const nodeIds = new Map([...nodeTypes.keys()].map((k, i) => [k, `n${i}`]));
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
