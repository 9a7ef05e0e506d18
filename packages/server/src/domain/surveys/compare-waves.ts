/**
 * `POST /api/v2/surveys/:id/compare` (docs/spec/decisions.md §11 "Waves": "its generated networks name
 * the wave, so waves compare in one call"; docs/surveys.md "Compare two waves"): compares the network a
 * question gave in the previous wave (`previousWaveId`) with the one it gave in this survey, through the
 * one compare of domain/networks/compare.ts (`a` = the previous wave, `b` = this one). The group changes
 * honour the larger of the two surveys' minimum group sizes (metrics/survey-groups.ts).
 *
 * Body `{ question?: question id | "combined", attribute?, metrics?, minGroupSize?, metricEdgeWeights? }`:
 * without `question`, the first of this survey's relationship questions (then `combined`) that has a
 * generated network in both waves. 409 when this survey is a first wave or a wave has no network of the
 * question (generate it first: POST /surveys/:id/networks).
 */
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';
import { requireScopeOf, type RunOptions, type MetricRunDeps } from '../metrics/runs.ts';
import { compareStoredNetworks } from '../networks/compare.ts';
import type { Directory } from '../people/directory.ts';
import { getNetwork } from '../../store/networks.ts';
import { listSurveyNetworks } from '../../store/surveys.ts';
import { loadSurvey } from './access.ts';
import { questionsOf } from './answers.ts';

const KEYS = new Set(['question', 'attribute', 'metrics', 'minGroupSize', 'metricEdgeWeights']);

export async function compareWaves(deps: MetricRunDeps, dir: Directory, id: string, body: unknown, opts: RunOptions = {}): Promise<string> {
  requireScopeOf(dir.principal, 'networks:read');
  const { survey } = await loadSurvey(deps.db, dir, id, 'read');
  const o = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const problems: ProblemItem[] = [];
  for (const k of Object.keys(o)) if (!KEYS.has(k)) problems.push({ path: `/${k}`, message: 'is not a parameter (question, attribute, metrics, minGroupSize, metricEdgeWeights)' });
  if (o.question !== undefined && (typeof o.question !== 'string' || o.question === '')) problems.push({ path: '/question', message: 'must be a relationship question id or "combined"' });
  if (problems.length) throw invalidArgs(problems);
  if (!survey.previous_wave_id) throw new DomainError('CONFLICT', 'this survey is a first wave: there is no earlier wave to compare with (copy it with { wave: true } for the next one)');
  const prev = await loadSurvey(deps.db, dir, survey.previous_wave_id, 'read').catch(() => {
    throw new DomainError('CONFLICT', 'the previous wave of this survey is gone or not visible to you');
  });
  const mine = new Map((await listSurveyNetworks(deps.db, survey.id)).map((r) => [r.question, r.network_id]));
  const theirs = new Map((await listSurveyNetworks(deps.db, prev.survey.id)).map((r) => [r.question, r.network_id]));
  const order = [...questionsOf(survey).filter((q) => q.type === 'relationship').map((q) => q.id), 'combined'];
  const question = typeof o.question === 'string' ? o.question : order.find((q) => mine.has(q) && theirs.has(q));
  if (question === undefined || !mine.has(question) || !theirs.has(question)) {
    const missing = question === undefined ? 'no question has a generated network in both waves' : !theirs.has(question) ? `wave ${prev.survey.wave} has no network of ${JSON.stringify(question)}` : `wave ${survey.wave} has no network of ${JSON.stringify(question)}`;
    throw new DomainError('CONFLICT', `${missing}; generate the networks of both waves first (POST /surveys/:id/networks)`);
  }
  const a = theirs.get(question)!;
  const b = mine.get(question)!;
  const comparison = await compareStoredNetworks(deps, dir.principal, { a, b, attribute: o.attribute as string | undefined, metrics: o.metrics as string[] | undefined, minGroupSize: o.minGroupSize as number | undefined, metricEdgeWeights: o.metricEdgeWeights as boolean | string | undefined }, opts);
  const side = async (s: typeof survey, networkId: string) => ({ surveyId: s.id, wave: s.wave, networkId, name: (await getNetwork(deps.db, networkId))?.name ?? '' });
  const head = JSON.stringify({ question, minGroupSize: Math.max(survey.min_group_size, prev.survey.min_group_size, typeof o.minGroupSize === 'number' ? o.minGroupSize : 1), a: await side(prev.survey, a), b: await side(survey, b) });
  return `${head.slice(0, -1)},"comparison":${Buffer.from(comparison.buffer, comparison.byteOffset, comparison.byteLength).toString('utf8')}}`;
}
