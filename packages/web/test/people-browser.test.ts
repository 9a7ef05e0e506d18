// The People page in Chromium (issue 21 item 1; docs/spec/decisions.md §10.1): the organization's Owner,
// only through the web app, sets up three custom fields in the fields editor, downloads the import
// template, imports 40 people from an .xlsx built here with exceljs, sees them listed with the field
// columns, searches, edits one, adds a field marked sensitive, and imports a file with problems: every
// problem is listed with its row and column and nothing is stored. Erasing a person says what went.
// axe-core: no serious or critical violation on the page and its dialogs; the page fits a 390-px phone.
// Screenshots are written to NETLOOM_SCREENSHOT_DIR when it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { webEnvFixture, signIn, axe, horizontalOverflow, keepShot, skipBrowser } from './helpers/web-env.ts';

const env = webEnvFixture();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FIRST = ['Ada', 'Bram', 'Chen', 'Dina', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun'];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka'];
const TEAMS = ['Sales', 'Engineering', 'Operations'];

async function workbook(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('People');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const HEADER = ['EmployeeId', 'Name', 'Email', 'Manager', 'Team', 'Office', 'Tenure'];
const people = Array.from({ length: 40 }, (_, i) => {
  const name = `${FIRST[i % 10]} ${LAST[Math.floor(i / 10)]}`;
  return [`E${String(i + 1).padStart(3, '0')}`, name, `${name.toLowerCase().replace(' ', '.')}@example.com`, i === 0 ? null : 'E001', TEAMS[i % 3], i % 2 ? 'Lisbon' : 'Oslo', (i % 12) + 1];
});

/** At 390 px nothing sticks out; the screenshot is of the whole page, or of the screen when a dialog is open. */
async function fits390(page: Page, name: string, dialog = false): Promise<void> {
  await page.setViewportSize({ width: 390, height: 800 });
  const o = await horizontalOverflow(page);
  assert.equal(o.scrollWidth, o.viewport, `${name} at 390 px: page scrolls sideways; offenders ${o.offenders.join(', ')}`);
  assert.deepEqual(o.offenders, [], `${name} at 390 px: elements stick out`);
  keepShot(`people-${name}-390`, await page.screenshot({ fullPage: !dialog }));
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function apiPeople(q = ''): Promise<{ total: number; employees: { employeeId: string; name: string; fields: Record<string, unknown> }[] }> {
  const r = await env.api('GET', `/api/v2/employees?limit=500${q ? `&q=${encodeURIComponent(q)}` : ''}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as never;
}

test('People: fields, template, import of 40 from Excel, list, search, edit, a sensitive field, a file with problems, erase', { skip: skipBrowser, timeout: 300_000 }, async () => {
  const page = await env.newPage({ width: 1280, height: 800 });
  await signIn(page, env.base, env.owner.email, env.owner.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
  await page.getByRole('heading', { level: 2, name: 'No people yet' }).waitFor({ timeout: 60_000 });
  keepShot('people-empty-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'empty People page: axe serious/critical violations');
  await fits390(page, 'empty');

  /* ---- three custom fields through the fields editor */
  await page.getByRole('button', { name: 'Set up custom fields' }).click();
  const fieldsDialog = page.getByRole('dialog', { name: 'Custom fields' });
  const add = fieldsDialog.getByTestId('new-field');
  const addField = async (label: string, type: string, options?: string) => {
    await add.getByLabel('Label').fill(label);
    await add.getByLabel('Type').selectOption(type);
    if (options) await add.getByLabel('Values').fill(options);
    await add.getByRole('button', { name: 'Add field' }).click();
    await fieldsDialog.getByTestId('field-list').getByText(label === 'Tenure (years)' ? 'tenure_years' : label.toLowerCase(), { exact: true }).waitFor();
  };
  await addField('Team', 'category', TEAMS.join('\n'));
  await addField('Office', 'text');
  await addField('Tenure (years)', 'number');
  keepShot('people-fields-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'fields editor: axe serious/critical violations');
  await fieldsDialog.getByRole('button', { name: 'Done' }).click();
  const fields = (await env.api('GET', '/api/v2/customFields')).body.customFields as { key: string; type: string; options?: string[] }[];
  assert.deepEqual(fields.map((f) => [f.key, f.type]), [['team', 'category'], ['office', 'text'], ['tenure_years', 'number']]);
  assert.deepEqual(fields[0].options, TEAMS);

  /* ---- the template names the fields; import 40 people from an .xlsx */
  await page.getByRole('button', { name: 'Import from Excel or CSV' }).first().click();
  const importDialog = page.getByRole('dialog', { name: 'Import people' });
  const [download] = await Promise.all([page.waitForEvent('download'), importDialog.getByTestId('people-template-xlsx').click()]);
  const template = new ExcelJS.Workbook();
  await template.xlsx.load(readFileSync(String(await download.path())) as unknown as ArrayBuffer);
  const headerRow = (template.worksheets[0].getRow(1).values as unknown[]).filter((v) => typeof v === 'string');
  for (const col of ['EmployeeId', 'Name', 'Email', 'Manager']) assert.ok(headerRow.includes(col), `template header ${headerRow.join(', ')} lacks ${col}`);
  assert.ok(headerRow.some((h) => /team/i.test(String(h))) && headerRow.some((h) => /tenure/i.test(String(h))), `template header ${headerRow.join(', ')} names the fields`);

  const HEADER_IMPORT = HEADER.map((h) => (h === 'Tenure' ? 'tenure_years' : h));
  await importDialog.getByTestId('people-import-file').setInputFiles({ name: 'people.xlsx', mimeType: XLSX, buffer: await workbook([HEADER_IMPORT, ...people]) });
  await importDialog.getByRole('button', { name: 'Check the file' }).click();
  await importDialog.getByTestId('import-checked').waitFor({ timeout: 60_000 });
  assert.match(await importDialog.getByTestId('import-checked').innerText(), /40 rows — 40 to add, 0 to update/);
  assert.equal((await apiPeople()).total, 0, 'a check stores nothing');
  keepShot('people-import-checked-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'import dialog: axe serious/critical violations');
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await importDialog.waitFor({ state: 'hidden', timeout: 60_000 });
  await page.getByTestId('people-count').filter({ hasText: '40 people' }).waitFor({ timeout: 60_000 });
  const table = page.getByTestId('people-table');
  assert.equal(await table.locator('tbody tr').count(), 40);
  const headers = (await table.locator('thead th').allInnerTexts()).map((s) => s.trim());
  for (const h of ['Name', 'Employee id', 'Manager', 'Team', 'Office', 'Tenure (years)', 'Status']) assert.ok(headers.includes(h), `column ${h} in ${headers.join(' | ')}`);
  const row7 = table.locator('tbody tr', { hasText: 'E007' });
  assert.equal((await row7.locator('td[data-label="Team"]').innerText()).trim(), 'Sales');
  assert.equal((await row7.locator('td[data-label="Tenure (years)"]').innerText()).trim(), '7');
  keepShot('people-list-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'People list: axe serious/critical violations');
  await fits390(page, 'list');

  /* ---- search */
  await page.getByLabel('Search people by name, e-mail or employee id').fill('farah moreau');
  await page.getByTestId('people-count').filter({ hasText: '1 person matches' }).waitFor();
  assert.equal(await table.locator('tbody tr').count(), 1);
  assert.match(await table.locator('tbody tr').innerText(), /Farah Moreau/);
  await page.getByLabel('Search people by name, e-mail or employee id').fill('tanaka');
  await page.getByTestId('people-count').filter({ hasText: '10 people match' }).waitFor();

  /* ---- edit one, with the keyboard */
  await page.getByRole('button', { name: 'Edit Farah Tanaka' }).focus();
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: 'Edit Farah Tanaka' });
  await edit.getByLabel('Team').selectOption('Engineering');
  await edit.getByLabel('Office').fill('Porto');
  assert.deepEqual(await axe(page), [], 'edit dialog: axe serious/critical violations');
  await fits390(page, 'edit-dialog', true);
  await edit.getByLabel('E-mail').fill('not an address');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.locator('.field-error').first().waitFor();
  assert.match(await edit.locator('.field-error').first().innerText(), /.+/);
  await edit.getByLabel('E-mail').fill('farah.t@example.com');
  await edit.getByRole('button', { name: 'Save' }).press('Enter');
  await edit.waitFor({ state: 'hidden' });
  const farah = table.locator('tbody tr', { hasText: 'Farah Tanaka' });
  await farah.locator('td[data-label="Office"]', { hasText: 'Porto' }).waitFor();
  const stored = (await apiPeople('farah tanaka')).employees[0];
  assert.deepEqual([stored.fields.team, stored.fields.office], ['Engineering', 'Porto']);

  /* ---- a field marked sensitive */
  await page.getByRole('button', { name: 'Custom fields', exact: true }).click();
  await add.getByLabel('Label').fill('Gender');
  await add.getByLabel('Sensitive').check();
  assert.match(await add.locator('.check-with-hint .field-hint').innerText(), /never shown to respondents/);
  await add.getByRole('button', { name: 'Add field' }).click();
  await fieldsDialog.getByTestId('field-list').getByText('gender', { exact: true }).waitFor();
  keepShot('people-fields-sensitive-1280', await page.screenshot({ fullPage: true }));
  await fits390(page, 'fields-dialog', true);
  await fieldsDialog.getByRole('button', { name: 'Done' }).click();
  const gender = ((await env.api('GET', '/api/v2/customFields')).body.customFields as { key: string; sensitive: boolean }[]).find((f) => f.key === 'gender');
  assert.equal(gender?.sensitive, true);
  await table.locator('thead th', { hasText: 'Gender' }).filter({ hasText: 'sensitive' }).waitFor();

  /* ---- a file with problems: each listed with its row and column, nothing stored */
  await page.getByRole('button', { name: 'Import from Excel or CSV' }).click();
  const bad = await workbook([
    HEADER_IMPORT,
    ['E041', 'New Person', 'new@example.com', 'E001', 'Sales', 'Oslo', 3],
    ['E042', '', 'nameless@example.com', 'E001', 'Sales', 'Oslo', 2],
    ['E043', 'Wrong Team', 'wrong@example.com', 'E001', 'Marketing', 'Oslo', 1],
    ['E044', 'Bad Tenure', 'tenure@example.com', 'E001', 'Sales', 'Oslo', 'long'],
  ]);
  await importDialog.getByTestId('people-import-file').setInputFiles({ name: 'people-with-problems.xlsx', mimeType: XLSX, buffer: bad });
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  const problems = importDialog.getByTestId('import-problems');
  await problems.waitFor({ timeout: 60_000 });
  const cells = await problems.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())));
  const where = cells.map((c) => `${c[0]}:${c[1]}`).sort();
  assert.deepEqual(where, ['3:B (Name)', '4:E (Team)', '5:G (tenure_years)'], JSON.stringify(cells));
  assert.ok(cells.every((c) => c[2].length > 0), 'every problem says what is wrong');
  assert.match(await problems.innerText(), /Nothing was imported/);
  keepShot('people-import-problems-1280', await page.screenshot({ fullPage: true }));
  assert.deepEqual(await axe(page), [], 'import problems: axe serious/critical violations');
  await fits390(page, 'import-problems', true);
  assert.equal((await apiPeople()).total, 40, 'nothing of the file with problems was stored (not even its good row)');
  await importDialog.getByRole('button', { name: 'Cancel' }).click();

  /* ---- erase one: the answer says what went */
  await page.getByRole('button', { name: 'Erase Jun Tanaka' }).click();
  await page.getByRole('dialog', { name: 'Erase Jun Tanaka?' }).getByRole('button', { name: 'Erase' }).click();
  const summary = page.getByTestId('erased-summary');
  await summary.waitFor();
  assert.match(await summary.innerText(), /0 answers of theirs in 0 surveys[\s\S]*0 nominations of them/);
  await page.getByRole('dialog', { name: 'Jun Tanaka was erased' }).getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('people-count').filter({ hasText: '9 people match' }).waitFor();
  assert.equal((await apiPeople()).total, 39);
});
