/**
 * Erasure of a person from the networks generated from the surveys of a directory (docs/spec/decisions.md
 * §10.1 "Erasure"): run by people/erasure.ts inside its transaction, after the person's row, answers and
 * nominations are gone. A generated network (survey_networks) that holds the person's node — their
 * employeeId, or their pseudonym in a pseudonymised survey — is
 * - **regenerated** when nobody changed it since its generation (its version is the one recorded then):
 *   with the options recorded in its provenance, as a re-run does (same `_id`, new `networkUUID`), so it
 *   is what the survey now gives without the person;
 * - **trimmed** when it was changed since (edited by hand, a metric written back, a layout saved, or
 *   generated before versions were recorded) or its question is gone: only the person's node and every
 *   tie of it are removed (new `networkUUID`), and the other changes stay.
 * Copies of a network made by users are not followed: they are networks of their own.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { NetworkJSON } from '@netloom/engine/graph/network-json.ts';
import { updateNetwork } from '../../store/networks.ts';
import type { Database } from '../../store/schema.ts';
import { listSurveyNetworks, type SurveyNetworkRecord, type SurveyRecord } from '../../store/surveys.ts';
import { loadStoredNetwork } from '../metrics/runs.ts';
import { firstWaveOf, regenerateNetworks, type StoredOptions } from './generate.ts';
import { linkKey, pseudonymOf } from './links.ts';

export interface NetworkErasureCounts {
  /** Generated networks rebuilt from the survey without the person. */
  networksRegenerated: number;
  /** Generated networks changed since their generation: the person's node and ties removed in place. */
  networksTrimmed: number;
}

interface Holding {
  row: SurveyNetworkRecord;
  version: number;
  network: NetworkJSON;
  nodeIds: Set<string>;
}

/** The node ids the person can have in a network generated with these options. */
async function nodeIdsOf(db: Kysely<Database>, config: Config, survey: SurveyRecord, options: string, employeeId: string): Promise<Set<string>> {
  const ids = new Set([employeeId]);
  const privacy = (JSON.parse(options) as Partial<StoredOptions>).privacy;
  if (privacy === 'pseudonymised' || survey.privacy === 'pseudonymised') ids.add(pseudonymOf(await linkKey(db, config), await firstWaveOf(db, survey), employeeId));
  return ids;
}

/** The generated networks of a survey that hold the person's node. */
async function holdingNetworks(db: Kysely<Database>, config: Config, survey: SurveyRecord, employeeId: string): Promise<Holding[]> {
  const out: Holding[] = [];
  for (const row of await listSurveyNetworks(db, survey.id)) {
    const stored = await loadStoredNetwork(db, null, row.network_id).catch(() => null);
    if (!stored) continue; // deleted by its owner since
    const network = JSON.parse(Buffer.from(stored.text.buffer, stored.text.byteOffset, stored.text.byteLength).toString('utf8')) as NetworkJSON;
    const nodeIds = await nodeIdsOf(db, config, survey, row.options, employeeId);
    if (network.nodes.some((n) => nodeIds.has(String(n.id)))) out.push({ row, version: stored.version, network, nodeIds });
  }
  return out;
}

/** Removes the person's node and every tie of it from a stored network, keeping everything else. */
async function trim(db: Kysely<Database>, h: Holding): Promise<boolean> {
  const nodes = h.network.nodes.filter((n) => !h.nodeIds.has(String(n.id)));
  const edges = (h.network.edges ?? []).filter((e) => !h.nodeIds.has(String(e.source)) && !h.nodeIds.has(String(e.target)));
  const json = JSON.stringify({ ...h.network, nodes, edges });
  return (await updateNetwork(db, h.row.network_id, { json, network_uuid: randomUUID(), node_count: nodes.length, edge_count: edges.length })) !== null;
}

export async function eraseFromSurveyNetworks(db: Kysely<Database>, config: Config, surveys: SurveyRecord[], employeeId: string): Promise<NetworkErasureCounts> {
  const counts: NetworkErasureCounts = { networksRegenerated: 0, networksTrimmed: 0 };
  for (const survey of surveys) {
    const holding = await holdingNetworks(db, config, survey, employeeId);
    // unchanged networks regenerate together per generation run (one options text); the rest are trimmed
    const runs = new Map<string, Holding[]>();
    for (const h of holding) {
      if (h.row.network_version === null || Number(h.row.network_version) !== h.version) continue;
      const list = runs.get(h.row.options) ?? [];
      list.push(h);
      runs.set(h.row.options, list);
    }
    const regenerated = new Set<string>();
    for (const [options, list] of runs) {
      for (const id of await regenerateNetworks({ db, config }, survey, options, list.map((h) => h.row))) regenerated.add(id);
    }
    counts.networksRegenerated += regenerated.size;
    for (const h of holding) if (!regenerated.has(h.row.network_id) && (await trim(db, h))) counts.networksTrimmed++;
  }
  return counts;
}
