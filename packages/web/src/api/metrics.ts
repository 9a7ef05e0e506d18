/**
 * The metrics the app offers to run on a network (with their default parameters; docs/metrics.md has
 * them all) and how a job's metric and time left are named on screen.
 */
export const RUNNABLE_METRICS: { id: string; title: string; kind: 'node' | 'network' }[] = [
  { id: 'totalDegree', title: 'Degree', kind: 'node' },
  { id: 'pageRank', title: 'PageRank', kind: 'node' },
  { id: 'betweennessCentrality', title: 'Betweenness centrality', kind: 'node' },
  { id: 'closenessCentrality', title: 'Closeness centrality', kind: 'node' },
  { id: 'eigenvectorCentrality', title: 'Eigenvector centrality', kind: 'node' },
  { id: 'harmonicCentrality', title: 'Harmonic centrality', kind: 'node' },
  { id: 'clustering', title: 'Clustering coefficient', kind: 'node' },
  { id: 'coreNumber', title: 'Core number (k-core)', kind: 'node' },
  { id: 'communities', title: 'Communities (Louvain)', kind: 'node' },
  { id: 'diameter', title: 'Diameter', kind: 'network' },
  { id: 'avgShortestPathLength', title: 'Average shortest path length', kind: 'network' },
];

export function metricTitle(id: string | undefined): string {
  return RUNNABLE_METRICS.find((m) => m.id === id)?.title ?? id ?? 'Batch';
}

/** "about 2 min left" from a job's `etaSeconds` (null: not known yet). */
export function etaText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'estimating time left…';
  if (seconds < 5) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds - hours * 3600) / 60);
  return `about ${hours} h${minutes ? ` ${minutes} min` : ''} left`;
}
