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
export const reportMetrics = all.filter((m): m is ReportMetric => m.kind === 'report');
