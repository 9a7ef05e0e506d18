// The people directory (docs/spec/decisions.md §9) through the real HTTP stack, on SQLite and PostgreSQL.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgApp, DIALECTS } from './helpers/app.ts';
import { fixture } from './helpers/fixture.ts';
import { workbookFromRows } from '../src/domain/formats/xlsx.ts';

for (const dialect of DIALECTS) {
  describe(`people directory (${dialect})`, () => {
    const t = fixture(() => orgApp(dialect));

    test('custom fields: create, 409 on a taken key, validation names the field, change, delete removes values', async () => {
      const dept = await t.api('POST', '/customFields', { key: 'dept', label: 'Department', type: 'category', options: ['Sales', 'Eng'] });
      assert.equal(dept.statusCode, 201, dept.body);
      assert.equal(dept.json().sensitive, false);
      const again = await t.api('POST', '/customFields', { key: 'dept', label: 'Other', type: 'text' });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'CONFLICT');
      const bad = await t.api('POST', '/customFields', { key: 'a b', label: '', type: 'colour' });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((e: { path: string }) => e.path).sort();
      assert.ok(paths.includes('/key') && paths.includes('/type'), JSON.stringify(bad.json()));
      const gender = await t.api('POST', '/customFields', { key: 'gender', label: 'Gender', type: 'text', sensitive: true });
      assert.equal(gender.statusCode, 201);
      const tmp = await t.api('POST', '/customFields', { key: 'tmp', label: 'Temp', type: 'number' });
      const person = await t.api('POST', '/employees', { employeeId: 'T1', name: 'Temp Person', fields: { tmp: 3 } });
      assert.equal(person.statusCode, 201, person.body);
      const changed = await t.api('PUT', `/customFields/${tmp.json()._id}`, { label: 'Temporary', sensitive: true });
      assert.equal(changed.json().label, 'Temporary');
      assert.equal(changed.json().sensitive, true);
      const typeChange = await t.api('PUT', `/customFields/${tmp.json()._id}`, { type: 'text' });
      assert.equal(typeChange.statusCode, 400);
      const del = await t.api('DELETE', `/customFields/${tmp.json()._id}`);
      assert.deepEqual(del.json(), { _id: tmp.json()._id, deleted: true, valuesRemoved: 1 });
      const after = await t.api('GET', `/employees/${person.json()._id}`);
      assert.deepEqual(after.json().fields, {});
      await t.api('DELETE', `/employees/${person.json()._id}`);
      const list = await t.api('GET', '/customFields');
      assert.deepEqual(list.json().customFields.map((f: { key: string }) => f.key), ['dept', 'gender']);
    });

    test('employees: create, list with paging and search, replace, value checks with pointers, conflicts', async () => {
      const a = await t.api('POST', '/employees', { employeeId: 'E1', name: 'Ana Lima', email: 'ana@example.com', fields: { dept: 'Sales', gender: 'f' } });
      assert.equal(a.statusCode, 201, a.body);
      const b = await t.api('POST', '/employees', { employeeId: 'E2', name: 'Ben Ode', email: 'ben@example.com', managerId: 'E1', photoUrl: 'https://example.com/b.png' });
      assert.equal(b.statusCode, 201, b.body);
      const dupEmail = await t.api('POST', '/employees', { employeeId: 'E3', name: 'X', email: 'ANA@example.com' });
      assert.equal(dupEmail.statusCode, 409);
      const bad = await t.api('POST', '/employees', { employeeId: '', name: 'Y', email: 'nope', photoUrl: 'javascript:alert(1)', managerId: 'E9', fields: { dept: 'Legal', nope: 1 } });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((e: { path: string }) => e.path).sort();
      assert.deepEqual(paths, ['/email', '/employeeId', '/fields/dept', '/fields/nope', '/photoUrl']);
      const noManager = await t.api('POST', '/employees', { employeeId: 'E4', name: 'Z', managerId: 'E9' });
      assert.equal(noManager.statusCode, 400);
      assert.match(noManager.json().detail, /managerId/);

      const page = await t.api('GET', '/employees?limit=1&offset=1');
      assert.equal(page.statusCode, 200);
      assert.equal(page.json().total, 2);
      assert.equal(page.json().employees.length, 1);
      assert.equal(page.json().employees[0].employeeId, 'E2');
      const q = await t.api('GET', '/employees?q=BEN%40');
      assert.deepEqual(q.json().employees.map((e: { employeeId: string }) => e.employeeId), ['E2']);
      const like = await t.api('GET', '/employees?q=%25');
      assert.equal(like.json().total, 0, 'a % in q is a literal');
      const tooMany = await t.api('GET', '/employees?limit=501');
      assert.equal(tooMany.statusCode, 400);
      assert.equal(tooMany.json().errors[0].path, '/query/limit');

      const put = await t.api('PUT', `/employees/${b.json()._id}`, { employeeId: 'E2', name: 'Ben Odede', status: 'left' });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.json().status, 'left');
      assert.equal(put.json().email, undefined);
      const left = await t.api('GET', '/employees?status=left');
      assert.deepEqual(left.json().employees.map((e: { name: string }) => e.name), ['Ben Odede']);
    });

    test('bulk upsert: merge and replace counts, every problem with its pointer and nothing stored, e-mails may change hands', async () => {
      const before = (await t.api('GET', '/employees?limit=500')).json().total;
      const bad = await t.api('PUT', '/employees', {
        mode: 'merge',
        employees: [{ employeeId: 'B1', name: 'One' }, { employeeId: 'B1', name: 'Dup' }, { employeeId: 'B3', name: '' }, { employeeId: 'B4', name: 'Four', managerId: 'nobody', fields: { dept: 7 } }],
      });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().errors.map((e: { path: string }) => e.path).sort(), ['/employees/1/employeeId', '/employees/2/name', '/employees/3/fields/dept', '/employees/3/managerId']);
      assert.equal((await t.api('GET', '/employees?limit=500')).json().total, before, 'nothing stored');

      const merge = await t.api('PUT', '/employees', { mode: 'merge', employees: [{ employeeId: 'E1', name: 'Ana Lima', email: 'ana@example.com', fields: { dept: 'Eng', gender: 'f' } }, { employeeId: 'B1', name: 'One', managerId: 'E1' }, { employeeId: 'B2', name: 'Two', email: 'two@example.com' }] });
      assert.equal(merge.statusCode, 200, merge.body);
      assert.deepEqual(merge.json(), { created: 2, updated: 1, left: 0 });
      const same = await t.api('PUT', '/employees', { employees: [{ employeeId: 'B1', name: 'One', managerId: 'E1' }] });
      assert.deepEqual(same.json(), { created: 0, updated: 0, left: 0 }, 'unchanged people are not counted');
      // two people swap addresses in one call
      const swap = await t.api('PUT', '/employees', { employees: [{ employeeId: 'E1', name: 'Ana Lima', email: 'two@example.com', fields: { dept: 'Eng', gender: 'f' } }, { employeeId: 'B2', name: 'Two', email: 'ana@example.com' }] });
      assert.equal(swap.statusCode, 200, swap.body);
      assert.deepEqual(swap.json(), { created: 0, updated: 2, left: 0 });
      const replace = await t.api('PUT', '/employees', { mode: 'replace', employees: [{ employeeId: 'E1', name: 'Ana Lima' }, { employeeId: 'B1', name: 'One' }] });
      assert.equal(replace.statusCode, 200);
      assert.deepEqual(replace.json(), { created: 0, updated: 2, left: 1 }, 'B2 leaves (E2 had already left)');
      const b2 = (await t.api('GET', '/employees?q=B2')).json().employees[0];
      assert.equal(b2.status, 'left');
      const badMode = await t.api('PUT', '/employees', { mode: 'sync', employees: [] });
      assert.equal(badMode.statusCode, 400);
      assert.equal(badMode.json().errors[0].path, '/mode');
    });

    test('import from CSV and Excel: all problems with row and column, dry run, template', async () => {
      const csv = 'EmployeeId,Name,Email,Manager,Department\r\nI1,Imp One,imp1@example.com,,Sales\r\nI2,Imp Two,not-an-email,I1,Legal\r\n,No Id,,,\r\n';
      const bad = await t.api('POST', '/employees/import', csv, t.ownerToken, { 'content-type': 'text/csv' });
      assert.equal(bad.statusCode, 400, bad.body);
      const msgs = bad.json().errors.map((e: { message: string }) => e.message);
      assert.ok(msgs.some((m: string) => /^row 3, column C \(Email\)/.test(m)), msgs.join('\n'));
      assert.ok(msgs.some((m: string) => /^row 3, column E \(Department\)/.test(m)), msgs.join('\n'));
      assert.ok(msgs.some((m: string) => /^row 4, column A \(EmployeeId\)/.test(m)), msgs.join('\n'));
      const unknownCol = await t.api('POST', '/employees/import', 'EmployeeId,Name,Shoe\r\nX,Y,42\r\n', t.ownerToken, { 'content-type': 'text/csv' });
      assert.equal(unknownCol.statusCode, 400);
      assert.match(unknownCol.json().errors[0].message, /column C \(Shoe\)/);

      const good = 'EmployeeId,Name,Email,Manager,dept\r\nI1,Imp One,imp1@example.com,,Sales\r\nI2,Imp Two,imp2@example.com,I1,Eng\r\n';
      const dry = await t.api('POST', '/employees/import?dryRun=true', good, t.ownerToken, { 'content-type': 'text/csv' });
      assert.deepEqual(dry.json(), { created: 2, updated: 0, left: 0, rows: 2, dryRun: true });
      assert.equal((await t.api('GET', '/employees?q=Imp')).json().total, 0);
      const xlsx = await workbookFromRows({ People: [['EmployeeId', 'Name', 'Email', 'Manager', 'Department'], [1001, 'Xl One', 'xl1@example.com', null, 'Sales'], ['I1', 'Imp One', null, 1001, 'Eng']] });
      const imp = await t.api('POST', '/employees/import', xlsx, t.ownerToken, { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
      assert.equal(imp.statusCode, 200, imp.body);
      assert.deepEqual(imp.json(), { created: 2, updated: 0, left: 0, rows: 2, dryRun: false });
      const i1 = (await t.api('GET', '/employees?q=Imp One')).json().employees[0];
      assert.equal(i1.managerId, '1001');
      assert.deepEqual(i1.fields, { dept: 'Eng' });

      const tpl = await t.api('GET', '/employees/template?format=csv');
      assert.equal(tpl.statusCode, 200);
      assert.match(tpl.body.split('\r\n')[0], /^"EmployeeId","Name","Email","Manager","dept","gender"$/);
      const tx = await t.api('GET', '/employees/template');
      assert.equal(tx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.equal(tx.rawPayload.subarray(0, 2).toString(), 'PK');
    });

    test('access: Access-only members 403, other organizations never see a person (404), scopes 403', async () => {
      const person = (await t.api('GET', '/employees?q=E1')).json().employees[0];
      const viewer = await t.user();
      await t.member(t.orgId, viewer.id, 'Access-only');
      const viewerToken = await t.token(viewer.id);
      assert.equal((await t.api('GET', '/employees', undefined, viewerToken)).statusCode, 403);
      const std = await t.user();
      await t.member(t.orgId, std.id, 'Standard User');
      const stdList = await t.api('GET', '/employees?q=E1', undefined, await t.token(std.id));
      assert.equal(stdList.json().employees[0]._id, person._id, 'a Standard User works in the organization directory');
      const orgCred = await t.token(t.owner.id, { orgId: t.orgId });
      assert.equal((await t.api('GET', `/employees/${person._id}`, undefined, orgCred)).json().employeeId, 'E1', 'an organization credential works in the organization directory');
      const other = await t.user();
      await t.org(other.id);
      const otherToken = await t.token(other.id);
      for (const [m, u] of [['GET', `/employees/${person._id}`], ['PUT', `/employees/${person._id}`], ['DELETE', `/employees/${person._id}`]] as const) {
        const r = await t.api(m, u, m === 'PUT' ? { employeeId: 'E1', name: 'Hijack' } : undefined, otherToken);
        assert.equal(r.statusCode, 404, `${m} ${u}`);
      }
      assert.equal((await t.api('GET', '/employees', undefined, otherToken)).json().total, 0);
      const noScope = await t.token((await t.user()).id, { scopes: ['networks:read'] });
      const r = await t.api('GET', '/employees', undefined, noScope);
      assert.equal(r.statusCode, 403);
      assert.equal(r.json().code, 'INSUFFICIENT_SCOPE');
      const readOnly = await t.token((await t.user()).id, { scopes: ['employees:read'] });
      assert.equal((await t.api('POST', '/employees', { employeeId: 'Q', name: 'Q' }, readOnly)).json().code, 'INSUFFICIENT_SCOPE');
    });
  });
}
