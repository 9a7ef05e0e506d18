/**
 * 0014: the networks generated from a survey (docs/spec/decisions.md §10.4 "From responses to
 * networks"). One row per (survey, question | "combined"): the network it made, so that running the
 * generation again updates the same network (same `_id`, new `networkUUID`), the options it ran with
 * (provenance, shown in `GET /surveys/:id`), and whether the survey was still collecting (preliminary).
 * The group report and compare read it to honour the survey's minimum group size (§11).
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('survey_networks')
    .addColumn('survey_id', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('network_id', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('preliminary', 'integer', (c) => c.notNull())
    .addColumn('generated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('survey_networks_pk', ['survey_id', 'question'])
    .execute();
  await db.schema.createIndex('survey_networks_network_ix').on('survey_networks').column('network_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('survey_networks').ifExists().execute();
}
