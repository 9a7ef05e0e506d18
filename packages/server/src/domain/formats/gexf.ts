/**
 * GEXF 1.2 / 1.3 (Gephi's format), read with the strict tokenizer of xml-scan.ts (the file is held as
 * one string, within the upload limit; saxes took three times as long on a 50 MB file, and every
 * element's attributes became an object) and written as text. Problems name the line of the element.
 *
 * Reading: `<attributes class="node|edge">` declare the attribute types (integer, long, float, double,
 * … → Number, a value that is not a number is a problem naming its line; boolean → "true"/"false";
 * everything else → String) and defaults; `<attvalue for=… value=…>` are the values. `viz:position`
 * gives x/y; `viz:size` and `viz:color` become the hidden attributes `_size` (Number) and `_color`
 * (`#rrggbb`); an edge's `weight` becomes the attribute `weight` and its `viz:color` `_color`. A node
 * label different from the id becomes the attribute `name` (the label in Netloom) unless a `name`
 * attribute is present. `defaultedgetype="undirected"` makes an undirected network; an edge's own
 * `type` (undirected, mutual) is honoured (builder.resolveDirection). Hierarchies flatten with the
 * attribute `parent`. Ids follow values.ts (canonical numbers become Numbers). What is converted or
 * dropped is a warning (docs/api/import-export.md, "Warnings").
 *
 * Writing is the reverse (GEXF 1.3): label = `name` ?? id, every attribute as an attvalue except the
 * ones that went into viz/weight, attribute types `double` when every value is a Number, else `string`.
 */
import type { Attributes, EdgeJSON, NodeJSON } from '@netloom/engine';
import { readFile } from 'node:fs/promises';
import { NetworkBuilder, type EdgeKind } from './builder.ts';
import { Problems, textOf, unreadable, Warnings } from './problems.ts';
import { escapeXml } from './xml-reader.ts';
import { attr, lineIndex, localPart, scanXml, XmlScanError, type ScanHandlers } from './xml-scan.ts';
import { hexColor, idFromText, isLargeInteger, isNotANumberToken, losesDigits, numberFromText, xsdBoolean } from './values.ts';
import type { ExportableNetwork, ExportedFile, ImportedNetwork, ImportLimits, UploadedFile } from './types.ts';

const NUMERIC_TYPES = new Set(['integer', 'long', 'float', 'double', 'short', 'byte', 'bigdecimal', 'biginteger', 'int']);
const IMAGE_ATTRIBUTE = 'nl:image';
/** The id Netloom writes for an attribute called `label` (the XML `label` is the node's label). */
const LABEL_ATTRIBUTE = 'nl:label';
const PARENT_ATTRIBUTE = 'parent';

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A viz colour channel: an integer 0–255, else -1. */
function channel(v: string | undefined): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 255 ? n : -1;
}

interface AttrDef {
  id: string;
  /** Offset of the <attribute> element (a bad <default> is reported there). */
  at: number;
  name: string;
  type: 'number' | 'boolean' | 'string';
  default?: string;
}

export async function importGexf(file: UploadedFile, limits: ImportLimits): Promise<ImportedNetwork> {
  const label = file.filename || 'file';
  const problems = new Problems('the GEXF file has problems');
  const warnings = new Warnings();
  const source = textOf(await readFile(file.path), label);
  // locations are offsets while reading; lines are counted only for problems
  const lineAt = lineIndex(source);
  const lineOf = (at: number) => `${label} line ${lineAt(at)}`;
  const builder = new NetworkBuilder(problems, limits, (_kind, at, field) => `${lineOf(at)}${field === 'id' ? '' : `, ${field}`}`);
  const defs: Record<'node' | 'edge', Map<string, AttrDef>> = { node: new Map(), edge: new Map() };
  let sawRoot = false;
  let sawGraph = false;
  let isDirected = false;
  let description: string | undefined;
  let title: string | undefined;
  let attrClass: 'node' | 'edge' = 'node';
  let defaultKind: EdgeKind | undefined;
  let currentDef: AttrDef | null = null;
  let textTarget: 'default' | 'description' | 'title' | null = null;
  let text = '';
  let node: NodeJSON | null = null;
  let nodeAt = 0;
  let nodeLabel: string | undefined;
  let edge: { id?: string; source?: string; target?: string; at: number; kind?: EdgeKind } | null = null;
  let attrs: Attributes = {};
  /** Enclosing nodes of a hierarchy (GEXF `<node><nodes><node>`): their state while a child is read. */
  const outer: { node: NodeJSON; at: number; label: string | undefined; attrs: Attributes }[] = [];
  const lossy = new Map<string, 'node' | 'edge'>();

  const convert = (def: AttrDef | undefined, raw: string, at: number, key: string, kind: 'node' | 'edge'): string | number | undefined => {
    if (raw === '') return undefined;
    if (!def || def.type === 'string') return raw;
    if (def.type === 'boolean') {
      const v = xsdBoolean(raw);
      if (v === undefined) problems.add(lineOf(at), `attribute ${JSON.stringify(def.name)}: ${JSON.stringify(raw)} is not a boolean (true, false, 1 or 0)`);
      return v;
    }
    if (isNotANumberToken(raw)) {
      warnings.add(`nan:${kind}:${def.id}`, lineOf(at), `attribute ${JSON.stringify(def.name)}: INF, -INF, NaN and null are not numbers; read as absent values`);
      return undefined;
    }
    const n = numberFromText(raw);
    if (n === undefined) {
      problems.add(lineOf(at), `attribute ${JSON.stringify(def?.name ?? key)}: ${JSON.stringify(raw)} is not a number (the attribute is declared numeric)`);
      return undefined;
    }
    if (losesDigits(raw)) {
      warnings.add(`lossy:${kind}:${def.id}`, lineOf(at), `attribute ${JSON.stringify(def.name)} is read as text: it holds an integer too long for a number to keep every digit`);
      lossy.set(def.name, kind);
      return raw.trim();
    }
    if (isLargeInteger(raw)) warnings.add(`large:${kind}:${def.id}`, lineOf(at), `attribute ${JSON.stringify(def.name)} stays numeric: its integers beyond 2^53 are kept exactly`);
    return n;
  };
  const setValue = (kind: 'node' | 'edge', a: readonly string[], at: number) => {
    const key = attr(a, 'for') ?? attr(a, 'id');
    const raw = attr(a, 'value');
    if (key === undefined || raw === undefined) {
      problems.add(lineOf(at), '<attvalue> needs `for` and `value`');
      return;
    }
    if (kind === 'node' && key === IMAGE_ATTRIBUTE && node) {
      if (raw !== '') node.image = { url: raw };
      return;
    }
    if (attr(a, 'start') !== undefined || attr(a, 'end') !== undefined || attr(a, 'timestamp') !== undefined || attr(a, 'timestamps') !== undefined || attr(a, 'intervals') !== undefined) {
      warnings.add(`dynamic:${kind}:${key}`, lineOf(at), `dynamic values (start/end/timestamp) of attribute ${JSON.stringify(defs[kind].get(key)?.name ?? key)}: only the last value of each element is kept`);
    }
    const def = defs[kind].get(key);
    if (!def) warnings.add(`undeclared:${kind}:${key}`, lineOf(at), `attribute ${JSON.stringify(key)} is not declared in <attributes>: its values are read as text`);
    const value = convert(def, raw, at, key, kind);
    if (value !== undefined) attrs[def?.name ?? key] = value;
  };
  const applyDefaults = (kind: 'node' | 'edge') => {
    for (const def of defs[kind].values()) {
      if (def.default !== undefined && attrs[def.name] === undefined) {
        const v = convert(def, def.default, def.at, def.name, kind);
        if (v !== undefined) attrs[def.name] = v;
      }
    }
  };
  const color = (a: readonly string[]): string | undefined => {
    const hex = hexColor(attr(a, 'hex'));
    if (hex) return hex;
    const r = channel(attr(a, 'r'));
    const g = channel(attr(a, 'g'));
    const b = channel(attr(a, 'b'));
    return r < 0 || g < 0 || b < 0 ? undefined : `#${HEX2[r]}${HEX2[g]}${HEX2[b]}`;
  };
  const numberAttr = (a: readonly string[], key: string, at: number, what: string): number | undefined => {
    const raw = attr(a, key);
    if (raw === undefined) return undefined;
    const v = numberFromText(raw);
    if (v === undefined && what) {
      if (isNotANumberToken(raw)) warnings.add(`nan:${what}`, lineOf(at), `${what}: INF, -INF, NaN and null are not numbers; read as absent`);
      else problems.add(lineOf(at), `${what} ${JSON.stringify(raw)} is not a number`);
    }
    return v;
  };

  const handlers: ScanHandlers = {
    open(tagName, a, at) {
      const name = localPart(tagName);
      if (!sawRoot) {
        if (name !== 'gexf') throw unreadable(lineOf(at), `not a GEXF file: the root element is <${tagName}>, expected <gexf>`);
        sawRoot = true;
        return;
      }
      switch (name) {
        case 'attvalue':
          if (edge) setValue('edge', a, at);
          else if (node) setValue('node', a, at);
          break;
        case 'node': {
          if (!sawGraph) throw unreadable(lineOf(at), '<node> outside a <graph>');
          const id = attr(a, 'id');
          if (id === undefined) problems.add(lineOf(at), '<node> needs an `id`');
          if (node) {
            outer.push({ node, at: nodeAt, label: nodeLabel, attrs });
            warnings.add('nested', lineOf(at), `nodes inside nodes (a GEXF hierarchy) are kept, each with the attribute ${JSON.stringify(PARENT_ATTRIBUTE)} naming the node it is in`);
          }
          const parentId = node ? node.id : attr(a, 'pid');
          node = { id: idFromText(id ?? '') };
          nodeAt = at;
          nodeLabel = attr(a, 'label');
          attrs = {};
          if (parentId !== undefined) {
            attrs[PARENT_ATTRIBUTE] = typeof parentId === 'string' ? idFromText(parentId) : parentId;
            if (outer.length === 0) warnings.add('pid', lineOf(at), `a node's pid (its parent in a GEXF hierarchy) is kept as the attribute ${JSON.stringify(PARENT_ATTRIBUTE)}`);
          }
          break;
        }
        case 'edge': {
          if (!sawGraph) throw unreadable(lineOf(at), '<edge> outside a <graph>');
          const source = attr(a, 'source');
          const target = attr(a, 'target');
          const type = attr(a, 'type');
          let kind: EdgeKind | undefined;
          if (type === 'directed' || type === 'undirected' || type === 'mutual') kind = type;
          else if (type !== undefined) problems.add(lineOf(at), `<edge type=${JSON.stringify(type)}>: must be directed, undirected or mutual`);
          edge = { id: attr(a, 'id'), source, target, at, kind };
          attrs = {};
          if (source === undefined || target === undefined) problems.add(lineOf(at), '<edge> needs `source` and `target`');
          const w = numberAttr(a, 'weight', at, 'weight');
          if (w !== undefined) attrs.weight = w;
          const edgeLabel = attr(a, 'label');
          if (edgeLabel !== undefined && edgeLabel !== '') attrs.label = edgeLabel;
          break;
        }
        case 'position':
          if (node && !edge) {
            const x = numberAttr(a, 'x', at, 'viz position x');
            if (x !== undefined) node.x = x;
            const y = numberAttr(a, 'y', at, 'viz position y');
            if (y !== undefined) node.y = y;
          }
          break;
        case 'size':
          if (node && !edge) {
            const v = numberAttr(a, 'value', at, 'viz size');
            if (v !== undefined) attrs._size ??= v;
          }
          break;
        case 'thickness':
          if (edge) {
            const v = numberAttr(a, 'value', at, '');
            if (v !== undefined) attrs._thickness ??= v;
          }
          break;
        case 'color': {
          const c = color(a);
          if (c === undefined) problems.add(lineOf(at), 'viz color needs r, g, b (0–255) or hex="#rrggbb"');
          else if (edge || node) attrs._color ??= c;
          break;
        }
        case 'graph': {
          if (sawGraph) throw unreadable(lineOf(at), 'a second <graph>: a GEXF file holds one graph');
          sawGraph = true;
          // GEXF's default edge type is undirected; `mutual` edges go both ways (builder.resolveDirection)
          const type = attr(a, 'defaultedgetype') ?? 'undirected';
          isDirected = type !== 'undirected';
          if (type === 'mutual') defaultKind = 'mutual';
          break;
        }
        case 'spells':
        case 'spell':
          if (name === 'spells') warnings.add('spells', lineOf(at), 'spells (when a node or edge exists) are not kept: every node and edge is read');
          break;
        case 'parents':
          warnings.add('parents', lineOf(at), '<parents> (several parents in a GEXF hierarchy) are not kept');
          break;
        case 'description':
          if (!node && !edge) {
            textTarget = 'description';
            text = '';
          }
          break;
        case 'title':
          if (!node && !edge && !sawGraph) {
            textTarget = 'title';
            text = '';
          }
          break;
        case 'attributes':
          attrClass = attr(a, 'class') === 'edge' ? 'edge' : 'node';
          break;
        case 'attribute': {
          const title = attr(a, 'title');
          const id = attr(a, 'id') ?? title;
          if (id === undefined) {
            problems.add(lineOf(at), '<attribute> needs an `id`');
            break;
          }
          const t = (attr(a, 'type') ?? 'string').toLowerCase();
          currentDef = { id, at, name: id === LABEL_ATTRIBUTE ? 'label' : (title ?? id), type: NUMERIC_TYPES.has(t) ? 'number' : t === 'boolean' ? 'boolean' : 'string' };
          defs[attrClass].set(id, currentDef);
          break;
        }
        case 'default':
          if (currentDef) {
            textTarget = 'default';
            text = '';
          }
          break;
        default:
          break;
      }
    },
    close(rawName) {
      const name = localPart(rawName);
      if (name === 'node' && node && !edge) {
        applyDefaults('node');
        // attvalues first, then viz (the ??= above keeps an explicit `_size`/`_color` attvalue)
        if (nodeLabel !== undefined && nodeLabel !== '' && nodeLabel !== String(node.id)) {
          if (attrs.name === undefined) attrs.name = nodeLabel;
          else if (attrs.name !== nodeLabel) warnings.add('label-dropped', lineOf(nodeAt), 'a node label is not kept: the node has a "name" attribute, which is its label');
        }
        if (Object.keys(attrs).length > 0) node.attributes = attrs;
        builder.addNode(node, nodeAt);
        const up = outer.pop();
        if (up) {
          node = up.node;
          nodeAt = up.at;
          nodeLabel = up.label;
          attrs = up.attrs;
        } else {
          node = null;
          attrs = {};
        }
      } else if (name === 'edge' && edge) {
        applyDefaults('edge');
        if (edge.source !== undefined && edge.target !== undefined) {
          builder.addEdge(edge.id === undefined ? undefined : idFromText(edge.id), idFromText(edge.source), idFromText(edge.target), attrs, edge.at, edge.kind ?? defaultKind);
        }
        edge = null;
        attrs = {};
      } else if (name === 'default' && textTarget === 'default' && currentDef) {
        currentDef.default = text;
        textTarget = null;
      } else if (name === 'description' && textTarget === 'description') {
        description = text;
        textTarget = null;
      } else if (name === 'title' && textTarget === 'title') {
        if (text.trim() !== '') title = text.trim();
        textTarget = null;
      } else if (name === 'attribute') {
        currentDef = null;
      }
    },
    text(t) {
      if (textTarget) text += t;
    },
  };
  try {
    scanXml(source, handlers);
  } catch (err) {
    if (!(err instanceof XmlScanError)) throw err;
    if (err.message.includes('DOCTYPE')) throw unreadable(`${label} line ${err.line}`, err.message);
    throw unreadable(`${label} line ${err.line}, column ${err.column}`, `not well-formed XML: ${err.message}`);
  }
  if (!sawRoot) throw unreadable(label, 'not a GEXF file (no <gexf> element)');
  if (!sawGraph) throw unreadable(label, 'the GEXF file has no <graph> element: there is no network in it');
  const networkJSON = builder.finish(false);
  problems.throwIfAny();
  for (const [attrName, kind] of lossy) {
    for (const el of kind === 'node' ? networkJSON.nodes : (networkJSON.edges ?? [])) {
      const v = el.attributes?.[attrName];
      if (typeof v === 'number') el.attributes![attrName] = String(v);
    }
  }
  const directed = builder.resolveDirection(isDirected, warnings, 'GEXF file');
  return { networkJSON, isDirected: directed, description, name: title, warnings: warnings.list() };
}

/**
 * The attribute id written for attribute `k`: the node attribute `label` gets its own id and the
 * title "label (attribute)", so that readers (Gephi among them) keep the XML `label` as the node's
 * label and do not mix the two; Netloom reads the id back as `label`.
 */
function attrId(cls: string, k: string): string {
  return cls === 'node' && k === 'label' ? LABEL_ATTRIBUTE : k;
}

/** Attribute declarations: `double` when every value of the attribute is a Number, else `string`. */
function declare(elements: readonly (NodeJSON | EdgeJSON)[], skip: (el: NodeJSON | EdgeJSON, key: string) => boolean): Map<string, 'double' | 'string'> {
  const types = new Map<string, 'double' | 'string'>();
  for (const el of elements) {
    if (!el.attributes) continue;
    for (const [k, v] of Object.entries(el.attributes)) {
      if (skip(el, k)) continue;
      const t = typeof v === 'number' ? 'double' : 'string';
      const had = types.get(k);
      if (had === undefined || (had === 'double' && t === 'string')) types.set(k, t);
    }
  }
  return types;
}

const nodeVizKey = (el: NodeJSON | EdgeJSON, k: string) =>
  (k === '_size' && typeof el.attributes?._size === 'number') || (k === '_color' && hexColor(el.attributes?._color) === el.attributes?._color);
const edgeVizKey = (el: NodeJSON | EdgeJSON, k: string) =>
  (k === 'weight' && typeof el.attributes?.weight === 'number') || (k === '_color' && hexColor(el.attributes?._color) === el.attributes?._color);

export function exportGexf(net: ExportableNetwork): ExportedFile {
  const nodes = net.networkJSON.nodes;
  const edges = net.networkJSON.edges ?? [];
  const out: string[] = [];
  const nodeTypes = declare(nodes, nodeVizKey);
  const edgeTypes = declare(edges, edgeVizKey);
  const hasImage = nodes.some((n) => typeof n.image?.url === 'string' && n.image.url !== '');
  out.push(
    '<?xml version="1.0" encoding="UTF-8"?>\n<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n',
    `  <meta>\n    <creator>Netloom</creator>\n    <description>${escapeXml(net.description)}</description>\n  </meta>\n`,
    `  <graph defaultedgetype="${net.isDirected ? 'directed' : 'undirected'}" mode="static">\n`,
  );
  const writeDecl = (cls: string, types: Map<string, string>, extra: string) => {
    if (types.size === 0 && !extra) return;
    out.push(`    <attributes class="${cls}">\n`);
    for (const [k, t] of types) out.push(`      <attribute id="${escapeXml(attrId(cls, k))}" title="${escapeXml(cls === 'node' && k === 'label' ? 'label (attribute)' : k)}" type="${t}"/>\n`);
    out.push(extra, '    </attributes>\n');
  };
  writeDecl('node', nodeTypes, hasImage ? `      <attribute id="${IMAGE_ATTRIBUTE}" title="image" type="anyURI"/>\n` : '');
  writeDecl('edge', edgeTypes, '');
  const attvalues = (el: NodeJSON | EdgeJSON, cls: 'node' | 'edge', types: Map<string, string>, extra: string): string => {
    let s = '';
    if (el.attributes) for (const [k, v] of Object.entries(el.attributes)) if (types.has(k)) s += `<attvalue for="${escapeXml(attrId(cls, k))}" value="${escapeXml(String(v))}"/>`;
    s += extra;
    return s ? `<attvalues>${s}</attvalues>` : '';
  };
  out.push('    <nodes>\n');
  for (const n of nodes) {
    const a = n.attributes;
    const label = a?.name !== undefined ? String(a.name) : String(n.id);
    let viz = '';
    if (typeof a?._color === 'string' && nodeVizKey(n, '_color')) {
      const h = a._color;
      viz += `<viz:color r="${parseInt(h.slice(1, 3), 16)}" g="${parseInt(h.slice(3, 5), 16)}" b="${parseInt(h.slice(5, 7), 16)}"/>`;
    }
    if (typeof n.x === 'number' || typeof n.y === 'number') {
      viz += `<viz:position${typeof n.x === 'number' ? ` x="${n.x}"` : ''}${typeof n.y === 'number' ? ` y="${n.y}"` : ''}/>`;
    }
    if (typeof a?._size === 'number') viz += `<viz:size value="${a._size}"/>`;
    const image = typeof n.image?.url === 'string' && n.image.url !== '' ? `<attvalue for="${IMAGE_ATTRIBUTE}" value="${escapeXml(n.image.url)}"/>` : '';
    out.push(`      <node id="${escapeXml(String(n.id))}" label="${escapeXml(label)}">${attvalues(n, 'node', nodeTypes, image)}${viz}</node>\n`);
  }
  out.push('    </nodes>\n    <edges>\n');
  for (const e of edges) {
    const a = e.attributes;
    const weight = typeof a?.weight === 'number' ? ` weight="${a.weight}"` : '';
    let viz = '';
    if (typeof a?._color === 'string' && edgeVizKey(e, '_color')) {
      const h = a._color;
      viz = `<viz:color r="${parseInt(h.slice(1, 3), 16)}" g="${parseInt(h.slice(3, 5), 16)}" b="${parseInt(h.slice(5, 7), 16)}"/>`;
    }
    out.push(`      <edge id="${escapeXml(String(e.id))}" source="${escapeXml(String(e.source))}" target="${escapeXml(String(e.target))}"${weight}>${attvalues(e, 'edge', edgeTypes, '')}${viz}</edge>\n`);
  }
  out.push('    </edges>\n  </graph>\n</gexf>\n');
  return { body: Buffer.from(out.join('')), contentType: 'application/gexf+xml', extension: 'gexf' };
}
