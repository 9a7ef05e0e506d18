/**
 * Erasure of a person (docs/spec/decisions.md §10.1, `DELETE /employees/:id`): the directory row, the
 * person's own answers in every survey of the directory, every nomination of them in the answers of
 * others, and the person in the networks generated from those surveys (surveys/erase-networks.ts:
 * regenerated, or trimmed when changed since) — one transaction; the answer says how many of each, and
 * the audit log records it (ids and counts only).
 */
import type { Kysely } from 'kysely';
import { inTransaction } from '../../store/db.ts';
import { deleteEmployee } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import type { Config } from '../../config.ts';
import { listSurveysOfDirectory } from '../../store/surveys.ts';
import { eraseFromSurveys } from '../surveys/erasure.ts';
import { eraseFromSurveyNetworks } from '../surveys/erase-networks.ts';
import { auditDirectory, type Directory } from './directory.ts';
import { loadPerson } from './employees.ts';

export interface Erased {
  _id: string;
  employeeId: string;
  deleted: true;
  responsesRemoved: number;
  answersRemoved: number;
  nominationsRemoved: number;
  networksRegenerated: number;
  networksTrimmed: number;
}

export async function erasePerson(db: Kysely<Database>, config: Config, dir: Directory, id: string): Promise<Erased> {
  const person = await loadPerson(db, dir, id);
  return inTransaction(db, async (trx) => {
    const answers = await eraseFromSurveys(trx, dir.key, person.employee_id);
    await deleteEmployee(trx, dir.key, id);
    // after the row, answers and nominations are gone: regenerated networks are built without the person
    const networks = await eraseFromSurveyNetworks(trx, config, await listSurveysOfDirectory(trx, dir.key), person.employee_id);
    const counts = { ...answers, ...networks };
    await auditDirectory(trx, dir, 'person.erased', person.employee_id, { ...counts });
    return { _id: id, employeeId: person.employee_id, deleted: true as const, ...counts };
  });
}
