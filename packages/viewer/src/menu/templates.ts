/**
 * Built-in view templates: a few one-click combinations of layers, offered according to the network's
 * attributes. A template is a list of steps run through the same command engine the SDK uses
 * (`layers.color`, `layers.size`, `layers.filter`), after an optional local computation (degree). No DOM.
 */
import type { NetworkModel } from '../model.ts';
import { attributesByType, degrees, valueCounts } from './attrs.ts';

export type TemplateStep =
  | { command: 'layers.color' | 'layers.size'; args: { attribute: string } }
  | { command: 'layers.filter'; args: { attribute: string; values?: string[]; min?: number; max?: number } }
  | { compute: 'degree'; attribute: string };

export interface Template {
  id: string;
  title: string;
  description: string;
  steps: TemplateStep[];
}

export const DEGREE_ATTRIBUTE = 'Degree';

/** The first categorical attribute that makes a useful palette: 2–12 distinct values, not the label, not `_`. */
export function firstCategorical(model: NetworkModel): string | null {
  for (const a of attributesByType(model).categorical) {
    if (a === 'name' || a.startsWith('_')) continue;
    const n = valueCounts(model, a).length;
    if (n >= 2 && n <= 12) return a;
  }
  return null;
}

export function templates(model: NetworkModel): Template[] {
  const out: Template[] = [];
  const cat = firstCategorical(model);
  if (cat) out.push({ id: 'color-by-category', title: `Color by ${cat}`, description: `A color per value of ${cat}, with a legend.`, steps: [{ command: 'layers.color', args: { attribute: cat } }] });
  out.push({ id: 'size-by-degree', title: 'Size by degree', description: 'Nodes with more connections are drawn larger.', steps: [{ compute: 'degree', attribute: DEGREE_ATTRIBUTE }, { command: 'layers.size', args: { attribute: DEGREE_ATTRIBUTE } }] });
  const numeric = attributesByType(model).numeric.filter((a) => !a.startsWith('_') && a !== DEGREE_ATTRIBUTE);
  if (numeric.length) out.push({ id: 'color-by-number', title: `Color by ${numeric[0]}`, description: `A gradient from low to high ${numeric[0]}.`, steps: [{ command: 'layers.color', args: { attribute: numeric[0] } }] });
  if (cat) out.push({ id: 'overview', title: `Overview: ${cat} and degree`, description: `Color by ${cat} and size by degree.`, steps: [{ compute: 'degree', attribute: DEGREE_ATTRIBUTE }, { command: 'layers.color', args: { attribute: cat } }, { command: 'layers.size', args: { attribute: DEGREE_ATTRIBUTE } }] });
  out.push({ id: 'hubs', title: 'Hubs only', description: 'Keeps the 10% best-connected nodes.', steps: [{ compute: 'degree', attribute: DEGREE_ATTRIBUTE }, { command: 'layers.filter', args: { attribute: DEGREE_ATTRIBUTE, min: hubThreshold(model) } }] });
  return out;
}

/** Degree at the 90th percentile (nodes at or above it are the hubs). */
export function hubThreshold(model: NetworkModel): number {
  const d = [...degrees(model).values()].sort((a, b) => a - b);
  if (d.length === 0) return 0;
  return d[Math.min(d.length - 1, Math.floor(d.length * 0.9))];
}
