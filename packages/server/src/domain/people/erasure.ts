/**
 * Erasure of a person (docs/spec/decisions.md §9, `DELETE /employees/:id`): the directory row, the
 * person's own answers in every survey of the directory, and every nomination of them in the answers
 * of others — one transaction; the answer says how many of each, and the audit log records it (ids
 * and counts only).
 */
import type { Kysely } from 'kysely';
import { inTransaction } from '../../store/db.ts';
import { deleteEmployee } from '../../store/people.ts';
import type { Database } from '../../store/schema.ts';
import { eraseFromSurveys } from '../surveys/erasure.ts';
import { auditDirectory, type Directory } from './directory.ts';
import { loadPerson } from './employees.ts';

export interface Erased {
  _id: string;
  employeeId: string;
  deleted: true;
  responsesRemoved: number;
  answersRemoved: number;
  nominationsRemoved: number;
}

export async function erasePerson(db: Kysely<Database>, dir: Directory, id: string): Promise<Erased> {
  const person = await loadPerson(db, dir, id);
  return inTransaction(db, async (trx) => {
    const counts = await eraseFromSurveys(trx, dir.key, person.employee_id);
    await deleteEmployee(trx, dir.key, id);
    await auditDirectory(trx, dir, 'person.erased', person.employee_id, { ...counts });
    return { _id: id, employeeId: person.employee_id, deleted: true as const, ...counts };
  });
}
