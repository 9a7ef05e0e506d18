/**
 * 0016: the version a generated network had right after its generation (survey_networks.network_version;
 * networks.version counts every change of a network). Erasure of a person (docs/spec/decisions.md §10.1)
 * regenerates a survey network nobody changed since (same version), and removes only the person's node and
 * ties from one that was changed by hand (or by a metric write-back, a saved layout) so those changes stay.
 * Null for networks generated before this migration: they count as changed.
 */
import type { AnyDb } from './tables.ts';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('survey_networks').addColumn('network_version', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('survey_networks').dropColumn('network_version').execute();
}
