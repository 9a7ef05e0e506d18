/**
 * The metric registry: endpoint id -> definition. Routes, validation, OpenAPI and docs/metrics.md are
 * generated from it; adding a metric is one file plus its test, and one line here.
 */
import type { AnyMetric, ReportMetric } from './types.ts';
import { inDegree, outDegree, totalDegree } from './degree.ts';
// --- paths (betweenness, closeness, harmonic, load, current flow, diameter, avg path length) ---
import { betweennessCentrality, closenessCentrality, harmonicCentrality, loadCentrality, currentFlowClosenessCentrality, diameter, avgShortestPathLength } from './paths.ts';
// --- spectral & local (eigenvector, katz, HITS, pageRank, clustering, constraint, ...) ---
import { eigenvectorCentrality, katzCentrality, HITS, pageRank } from './spectral.ts';
import { clustering } from './clustering.ts';
import { constraint, effectiveSize, efficiency } from './structural-holes.ts';
import { averageNeighborDegree } from './neighbor-degree.ts';
import { coreNumber } from './core.ts';
import { connectedComponents, kCliqueCommunities } from './components.ts';
import { modularity } from './modularity.ts';
// --- communities & Polinode-specific metrics ---
import { communities } from './communities.ts';
import { antiCommunities } from './antiCommunities.ts';
import { corePeriphery } from './corePeriphery.ts';
import { brokerage } from './brokerage.ts';
import { complexCentrality } from './complexCentrality.ts';
import { externalVsInternal } from './externalVsInternal.ts';
import { identifyInfluencers } from './identifyInfluencers.ts';
import { informalAlignment, informalDistance } from './informal.ts';
// --- reports (structured answers) ---
import { groups } from './groups.ts';

const all: AnyMetric[] = [
  inDegree,
  outDegree,
  totalDegree,
  // --- paths ---
  betweennessCentrality,
  closenessCentrality,
  harmonicCentrality,
  loadCentrality,
  currentFlowClosenessCentrality,
  diameter,
  avgShortestPathLength,
  // --- spectral & local ---
  eigenvectorCentrality,
  katzCentrality,
  HITS,
  pageRank,
  clustering,
  constraint,
  effectiveSize,
  efficiency,
  averageNeighborDegree,
  coreNumber,
  connectedComponents,
  kCliqueCommunities,
  modularity,
  // --- communities & extras ---
  communities,
  antiCommunities,
  corePeriphery,
  brokerage,
  complexCentrality,
  externalVsInternal,
  identifyInfluencers,
  informalAlignment,
  informalDistance,
  // --- reports ---
  groups,
];

export const metrics: ReadonlyMap<string, AnyMetric> = new Map(all.map((m) => [m.id, m]));
export const networkMetrics = all.filter((m) => m.kind === 'network');
export const nodeMetrics = all.filter((m) => m.kind === 'node');

/** What the web app's and the viewer's metric lists show of a metric. */
export interface OfferedMetric {
  id: string;
  title: string;
  kind: 'node' | 'network';
}

/** A metric the lists can offer runs with its defaults: every required parameter has a default. */
export function runsWithDefaults(m: AnyMetric): boolean {
  const p = m.params as { required?: string[]; properties?: Record<string, { default?: unknown }> };
  return (p.required ?? []).every((k) => p.properties?.[k]?.default !== undefined);
}

/**
 * The metrics the web app and the embedded viewer offer to run (served by the server: GET /app/api/metrics
 * and GET /api/v2/embed/viewer/metrics): every metric of the registry that runs with its defaults, in the
 * registry's order, read when asked — a metric added to the registry appears in both lists with no other
 * edit (packages/server/test/metric-lists.test.ts adds one and looks).
 */
export function offeredMetrics(kind?: OfferedMetric['kind']): OfferedMetric[] {
  const out: OfferedMetric[] = [];
  for (const m of metrics.values()) if ((m.kind === 'node' || m.kind === 'network') && runsWithDefaults(m) && (!kind || m.kind === kind)) out.push({ id: m.id, title: m.title, kind: m.kind as OfferedMetric['kind'] });
  return out;
}
export const reportMetrics = all.filter((m): m is ReportMetric => m.kind === 'report');
