/**
 * 0014: the networks generated from a survey (docs/spec/decisions.md §10.4 "From responses to
 * networks"). One row per (survey, question | "combined"): the network it made, so that running the
 * generation again updates the same network (same `_id`, new `networkUUID`), the options it ran with
 * (provenance, shown in `GET /surveys/:id`), and whether the survey was still collecting (preliminary).
 * The group report and compare read it to honour the survey's minimum group size (§11).
 */
import { createTable, dropTables, index, notNull, text, type AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await createTable(db, 'survey_networks', [text('survey_id', 'question', 'network_id', 'options'), notNull('integer', 'preliminary'), text('generated_at')], {
    primaryKey: ['survey_id', 'question'],
    indexes: [index('survey_networks_network_ix', 'network_id')],
  });
}

export async function down(db: AnyDb): Promise<void> {
  await dropTables(db, 'survey_networks');
}
