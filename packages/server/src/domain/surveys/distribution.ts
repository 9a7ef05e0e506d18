/**
 * Distributing respondent links (docs/spec/decisions.md §9, "Distribution"): the list of links (name,
 * e-mail, employeeId, link, status) as JSON, CSV or Excel for any channel; re-issuing one person's link
 * (the old one answers LINK_REVOKED from then on) and revoking it. Links are derived, never stored
 * (links.ts). Re-issues and revocations are in the audit log. Needs Edit access: links open answers.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { inTransaction, nowIso } from '../../store/db.ts';
import { allEmployees } from '../../store/people.ts';
import type { Database, ResponseStatus } from '../../store/schema.ts';
import { getRespondent, insertLinkHistory, listRespondents, updateRespondent } from '../../store/surveys.ts';
import { DomainError } from '../errors.ts';
import { workbookFromRows } from '../formats/xlsx.ts';
import { auditDirectory, type Directory } from '../people/directory.ts';
import { loadSurvey } from './access.ts';
import { linkKey, respondentToken, respondentUrl, tokenHash } from './links.ts';

export interface LinkDeps {
  db: Kysely<Database>;
  config: Config;
}

export interface LinkRow {
  employeeId: string;
  name: string;
  email: string | null;
  /** null when revoked. */
  link: string | null;
  status: ResponseStatus;
}

export async function listLinks(deps: LinkDeps, dir: Directory, id: string): Promise<LinkRow[]> {
  const { survey } = await loadSurvey(deps.db, dir, id, 'edit');
  if (survey.status === 'draft') throw new DomainError('SURVEY_NOT_OPEN', 'links exist once the survey is launched');
  const key = await linkKey(deps.db, deps.config);
  const people = new Map((await allEmployees(deps.db, survey.dir)).map((p) => [p.employee_id, p]));
  return (await listRespondents(deps.db, id))
    .map((r) => {
      const p = people.get(r.employee_id);
      return {
        employeeId: r.employee_id,
        name: p?.name ?? '',
        email: p?.email ?? null,
        link: r.token_hash === null ? null : respondentUrl(deps.config, respondentToken(key, id, r.employee_id, r.token_gen)),
        status: r.status,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.employeeId < b.employeeId ? -1 : 1));
}

function csvCell(v: string): string {
  // neutralise spreadsheet formulas (a cell starting with = + - @ is prefixed with ')
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replaceAll('"', '""')}"`;
}

export async function linksFile(deps: LinkDeps, dir: Directory, id: string, format: 'csv' | 'xlsx'): Promise<{ body: Buffer; contentType: string; filename: string }> {
  const rows = await listLinks(deps, dir, id);
  const header = ['name', 'email', 'employeeId', 'link', 'status'];
  const cells = rows.map((r) => [r.name, r.email ?? '', r.employeeId, r.link ?? '(revoked)', r.status]);
  if (format === 'xlsx') {
    return { body: await workbookFromRows({ Links: [header, ...cells.map((c) => c.map((v) => (/^[=+\-@]/.test(v) ? `'${v}` : v)))] }), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', filename: 'survey-links.xlsx' };
  }
  const text = [header, ...cells].map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
  return { body: Buffer.from(text), contentType: 'text/csv; charset=utf-8', filename: 'survey-links.csv' };
}

/** A new link for one respondent (`revoke: true`: none); the previous one answers LINK_REVOKED. */
export async function changeLink(deps: LinkDeps, dir: Directory, id: string, employeeId: string, revoke: boolean): Promise<LinkRow> {
  const { survey } = await loadSurvey(deps.db, dir, id, 'edit');
  const r = await getRespondent(deps.db, id, employeeId);
  if (!r) throw new DomainError('NOT_FOUND', `${JSON.stringify(employeeId)} is not a respondent of this survey`);
  const key = await linkKey(deps.db, deps.config);
  const at = nowIso();
  const gen = r.token_gen + 1;
  const token = respondentToken(key, id, employeeId, gen);
  await inTransaction(deps.db, async (trx) => {
    await insertLinkHistory(trx, { hash: tokenHash(respondentToken(key, id, employeeId, r.token_gen)), survey_id: id, employee_id: employeeId, revoked_at: at });
    await updateRespondent(trx, id, employeeId, { token_gen: gen, token_hash: revoke ? null : tokenHash(token), modified: at });
    await auditDirectory(trx, dir, revoke ? 'survey.link.revoked' : 'survey.link.reissued', id, { employeeId });
  });
  const person = (await allEmployees(deps.db, survey.dir)).find((p) => p.employee_id === employeeId);
  return { employeeId, name: person?.name ?? '', email: person?.email ?? null, link: revoke ? null : respondentUrl(deps.config, token), status: r.status };
}
