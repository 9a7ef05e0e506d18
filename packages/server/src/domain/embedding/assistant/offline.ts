/**
 * The built-in offline assistant: answers from the network itself, deterministically (same network and
 * question, same answer), in Markdown. It recognises, in English:
 * - centrality ("who is most central / important / influential / a broker"): degree, plus betweenness
 *   through the engine for networks up to BETWEENNESS_MAX_NODES nodes;
 * - communities ("communities", "clusters", "groups"): Louvain through the engine;
 * - counts ("how many nodes have team Sales", "how many nodes"): attribute values named in the question;
 * - attributes ("what attributes / fields / data"): names, types and example values;
 * - neighbours ("who is connected to Ana", "neighbors of …"): by label or id;
 * - actions: "color by <attribute>", "size by <attribute>", "show only <value>" (a filter layer) and
 *   "open the view <name>"; the viewer applies them.
 * Anything else gets a short overview of the network and the kinds of questions it can answer.
 */
import type { Assistant, AssistantAction, AssistantAnswer, AssistantInput } from './types.ts';
import { networkFacts, topK, visibleAttributes, type AttributeFacts, type NetworkFacts } from './facts.ts';

export const BETWEENNESS_MAX_NODES = 5_000;
const TOP = 5;

/** Markdown-escapes a label or value shown in an answer (inline delimiters, and `|` for table cells). */
export function md(s: string): string {
  return s.replace(/[\\`*_~[\]()|]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}

function norm(s: string): string {
  return s.toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/** Whether `needle` occurs in `hay` as whole words. */
function hasWords(hay: string, needle: string): boolean {
  if (!needle) return false;
  const i = hay.indexOf(needle);
  if (i < 0) return false;
  const before = i === 0 ? ' ' : hay[i - 1];
  const after = i + needle.length >= hay.length ? ' ' : hay[i + needle.length];
  return !/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after);
}

/** The attribute named in the question (longest name first). */
function findAttribute(q: string, attrs: AttributeFacts[]): AttributeFacts | undefined {
  return [...attrs].sort((a, b) => b.name.length - a.name.length).find((a) => hasWords(q, norm(a.name)));
}

/** Attribute values named in the question (string values; longest first); each with its attribute. */
function findValue(q: string, attrs: AttributeFacts[]): { attr: AttributeFacts; value: string | number; count: number } | undefined {
  const cands: { attr: AttributeFacts; value: string | number; count: number }[] = [];
  for (const a of attrs) for (const v of a.values) if (typeof v.value === 'string' && hasWords(q, norm(v.value))) cands.push({ attr: a, value: v.value, count: v.count });
  cands.sort((x, y) => String(y.value).length - String(x.value).length || x.attr.name.localeCompare(y.attr.name));
  return cands[0];
}

/** A node named in the question after `prefix` (label, else id); longest label wins. */
function findNode(q: string, f: NetworkFacts): number[] {
  const byLabel = new Map<string, number[]>();
  for (let i = 0; i < f.labels.length; i++) {
    for (const key of new Set([norm(f.labels[i]), norm(f.ids[i])])) {
      const list = byLabel.get(key);
      if (list) list.push(i);
      else byLabel.set(key, [i]);
    }
  }
  let best: string | null = null;
  for (const key of byLabel.keys()) if (hasWords(q, key) && (best === null || key.length > best.length)) best = key;
  return best === null ? [] : byLabel.get(best)!;
}

function list(f: NetworkFacts, idx: number[], value?: (i: number) => string): string {
  return idx.map((i, k) => `${k + 1}. **${md(f.labels[i])}**${value ? ` — ${value(i)}` : ''}`).join('\n');
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

async function centrality(input: AssistantInput, f: NetworkFacts): Promise<AssistantAnswer> {
  const n = f.ids.length;
  if (n === 0) return { content: 'The network has no nodes.', actions: [] };
  const parts = [`**Most central by degree** (number of connections):\n\n${list(f, topK(f.degree, TOP, f), (i) => `${f.degree[i]} connections`)}`];
  if (n <= BETWEENNESS_MAX_NODES) {
    const values = (await input.compute('betweennessCentrality', {}))['Betweenness Centrality'] ?? {};
    const bc = f.ids.map((id) => Number(values[id] ?? 0));
    parts.push(`**Most central by betweenness** (how often a node lies on shortest paths between others — brokers):\n\n${list(f, topK(bc, TOP, f), (i) => fmt(bc[i]))}`);
  } else {
    parts.push(`Betweenness is left out: the network has ${n} nodes (the chat computes it up to ${BETWEENNESS_MAX_NODES}); run it from the metrics menu.`);
  }
  return { content: parts.join('\n\n'), actions: [] };
}

async function communities(input: AssistantInput, f: NetworkFacts): Promise<AssistantAnswer> {
  if (f.ids.length === 0) return { content: 'The network has no nodes.', actions: [] };
  const values = (await input.compute('communities', {})).Community ?? {};
  const groups = new Map<string, number[]>();
  for (let i = 0; i < f.ids.length; i++) {
    const c = String(values[f.ids[i]] ?? 'none');
    const g = groups.get(c);
    if (g) g.push(i);
    else groups.set(c, [i]);
  }
  const sorted = [...groups.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
  const shown = sorted.slice(0, 8).map((g, k) => {
    const top = topK(g.map((i) => f.degree[i]), 3, { ...f, labels: g.map((i) => f.labels[i]), ids: g.map((i) => f.ids[i]) }).map((j) => md(f.labels[g[j]]));
    return `${k + 1}. ${g.length} nodes, around ${top.join(', ')}`;
  });
  const more = sorted.length > 8 ? `\n\n…and ${sorted.length - 8} smaller communities.` : '';
  const actions: AssistantAction[] = [];
  const stored = visibleAttributes(f).find((a) => /^community$/i.test(a.name));
  if (stored) actions.push({ type: 'layer', operation: 'Color', attribute: stored.name });
  return { content: `Louvain finds **${sorted.length} communities** (groups more connected inside than to each other):\n\n${shown.join('\n')}${more}`, actions };
}

function attributesAnswer(f: NetworkFacts): AssistantAnswer {
  const attrs = visibleAttributes(f);
  if (attrs.length === 0) return { content: `The nodes have no attributes besides their ${f.attributes.some((a) => a.name === 'name') ? 'names' : 'ids'}.`, actions: [] };
  const rows = attrs.map((a) => {
    const ex = a.type === 'number' ? `from ${fmt(a.min ?? 0)} to ${fmt(a.max ?? 0)}` : a.values.slice(0, 4).map((v) => md(String(v.value))).join(', ') + (a.distinct > 4 ? ', …' : '');
    return `| ${md(a.name)} | ${a.type === 'number' ? 'number' : 'text'} | ${a.count} | ${ex} |`;
  });
  return { content: `The nodes have ${attrs.length} attribute${attrs.length === 1 ? '' : 's'}:\n\n| Attribute | Type | Nodes | Values |\n|---|---|---|---|\n${rows.join('\n')}`, actions: [] };
}

function countAnswer(q: string, f: NetworkFacts): AssistantAnswer {
  const hit = findValue(q, visibleAttributes(f));
  if (!hit) return { content: `The network has **${f.ids.length} nodes** and **${f.edgeCount} edges**.`, actions: [] };
  const share = f.ids.length ? Math.round((hit.count / f.ids.length) * 1000) / 10 : 0;
  return {
    content: `**${hit.count}** of ${f.ids.length} nodes (${share}%) have ${md(hit.attr.name)} = ${md(String(hit.value))}.`,
    actions: [],
  };
}

function neighborsAnswer(q: string, f: NetworkFacts): AssistantAnswer | null {
  const m = /(?:connected to|connections of|neighbou?rs of|linked to|knows?|who does)\s+(.+?)[?.!]*$/.exec(q);
  const target = m ? norm(m[1]) : q;
  const nodes = findNode(target, f);
  if (nodes.length === 0) return null;
  if (nodes.length > 1) return { content: `Several nodes are called **${md(f.labels[nodes[0]])}** (ids ${nodes.slice(0, 10).map((i) => md(f.ids[i])).join(', ')}); ask by id.`, actions: [] };
  const i = nodes[0];
  const nb = f.neighbors[i];
  if (nb.length === 0) return { content: `**${md(f.labels[i])}** has no connections.`, actions: [] };
  const shown = [...nb].sort((a, b) => f.degree[b] - f.degree[a] || f.labels[a].localeCompare(f.labels[b])).slice(0, 20);
  return {
    content: `**${md(f.labels[i])}** is connected to ${nb.length} node${nb.length === 1 ? '' : 's'}:\n\n${shown.map((j) => `- ${md(f.labels[j])}`).join('\n')}${nb.length > 20 ? `\n- …and ${nb.length - 20} more` : ''}`,
    actions: [],
  };
}

function layerAnswer(q: string, f: NetworkFacts, op: 'Color' | 'Size'): AssistantAnswer {
  const attrs = visibleAttributes(f).filter((a) => (op === 'Size' ? a.type === 'number' || a.distinct <= 50 : true));
  const a = findAttribute(q, attrs);
  if (!a) {
    const names = attrs.map((x) => md(x.name)).join(', ');
    return { content: names ? `By which attribute? The nodes have: ${names}.` : 'The nodes have no attribute to do that by.', actions: [] };
  }
  const verb = op === 'Color' ? 'Colored' : 'Sized';
  return { content: `${verb} the nodes by **${md(a.name)}**.`, actions: [{ type: 'layer', operation: op, attribute: a.name }] };
}

function filterAnswer(q: string, f: NetworkFacts): AssistantAnswer | null {
  const hit = findValue(q, visibleAttributes(f));
  if (!hit) return null;
  return {
    content: `Showing only the ${hit.count} nodes with ${md(hit.attr.name)} = ${md(String(hit.value))}.`,
    actions: [{ type: 'layer', operation: 'Filter', attribute: hit.attr.name, values: [hit.value] }],
  };
}

function viewAnswer(q: string, views: AssistantInput['views']): AssistantAnswer {
  if (views.length === 0) return { content: 'This network has no saved views.', actions: [] };
  const v = [...views].sort((a, b) => b.name.length - a.name.length).find((x) => hasWords(q, norm(x.name)));
  if (!v) return { content: `Which view? Saved views: ${views.map((x) => `**${md(x.name)}**`).join(', ')}.`, actions: [] };
  return { content: `Opened the view **${md(v.name)}**.`, actions: [{ type: 'openView', viewId: v.id, name: v.name }] };
}

function overview(input: AssistantInput, f: NetworkFacts): AssistantAnswer {
  const attrs = visibleAttributes(f).map((a) => md(a.name));
  return {
    content: [
      `**${md(input.network.name || 'This network')}** has ${f.ids.length} nodes and ${f.edgeCount} edges${attrs.length ? `; node attributes: ${attrs.join(', ')}` : ''}.`,
      '',
      'I answer from the network itself. Try:',
      '- *Who is most central?*',
      '- *Which communities are there?*',
      '- *How many nodes have …?* (an attribute value)',
      '- *What attributes do the nodes have?*',
      '- *Who is connected to …?*',
      '- *Color / size the nodes by …*, *show only …*, *open the view …*',
    ].join('\n'),
    actions: [],
  };
}

export class OfflineAssistant implements Assistant {
  readonly name = 'offline';

  async answer(input: AssistantInput): Promise<AssistantAnswer> {
    const q = norm(input.question);
    const f = networkFacts(input.network.json);
    input.signal.throwIfAborted();
    if (/\b(open|show|load)\b.*\bview\b|\bview\b.*\b(open|show)\b|\bsaved views?\b/.test(q)) return viewAnswer(q, input.views);
    if (/\bcolou?r\b/.test(q)) return layerAnswer(q, f, 'Color');
    if (/\bsize\b/.test(q) && !/\bhow (big|large)\b/.test(q)) return layerAnswer(q, f, 'Size');
    if (/\b(show only|only show|filter|keep only|hide all but)\b/.test(q)) {
      const a = filterAnswer(q, f);
      if (a) return a;
    }
    if (/\b(communit|cluster|group|modul)/.test(q)) return communities(input, f);
    if (/\b(central|centrality|important|influential|influence|key (people|players|nodes)|hubs?|brokers?|bridges?|betweenness|degree|most connected|best connected|well connected)\b/.test(q)) return centrality(input, f);
    if (/\b(connected to|connections of|neighbou?rs of|linked to|knows?)\b/.test(q)) {
      const a = neighborsAnswer(q, f);
      if (a) return a;
    }
    if (/\bhow many\b|\bcount\b|\bnumber of\b/.test(q)) return countAnswer(q, f);
    if (/\b(attributes?|fields?|properties|columns?|what data)\b/.test(q)) return attributesAnswer(f);
    return overview(input, f);
  }
}
