/**
 * The people directory of the public API (docs/spec/decisions.md §9; docs/api/people-and-surveys.md):
 *   GET/POST        /customFields              GET/PUT/DELETE /customFields/:id      (customFields:*)
 *   GET/POST/PUT    /employees                 GET/PUT/DELETE /employees/:id         (employees:*)
 *   POST            /employees/import          GET            /employees/template    (employees:*)
 * Registered twice (http/route-surface.ts): under /api/v2 for credentials with scopes, and under /app/api
 * for the web application (session cookie + CSRF; `{ surface: 'web' }`), with the same schemas and handlers.
 * Thin: the directory of the caller (domain/people/directory.ts), one domain command, present.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { checkedByDomain } from '../http/route-contract.ts';
import { contentDisposition } from '../http/upload.ts';
import { surfaceOf, type SurfaceOptions } from '../http/route-surface.ts';
import { DomainError } from '../domain/errors.ts';
import { directoryOf, type Directory } from '../domain/people/directory.ts';
import { createField, deleteField, getField, listFields, updateField } from '../domain/people/fields.ts';
import { createPerson, listPeople, loadPerson, presentEmployee, replacePerson, upsertPeople } from '../domain/people/employees.ts';
import { erasePerson } from '../domain/people/erasure.ts';
import { importPeople, peopleTemplate } from '../domain/people/import.ts';
import { problemResponses, ref, CustomFieldBody, CustomFieldDeletedSchema, CustomFieldListSchema, CustomFieldPatch, CustomFieldSchema, EmployeeBody, EmployeeErasedSchema, EmployeeImportQuery, EmployeeImportResultSchema, EmployeeListQuery, EmployeeListSchema, EmployeeSchema, EmployeeUpsertBody, EmployeeUpsertResultSchema, IdParams, TemplateQuery } from '@netloom/protocol/http';

const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'];

export async function peopleRoutes(app: App, opts: SurfaceOptions): Promise<void> {
  const db = app.database.db;
  const surface = surfaceOf(opts);
  const dirOf = (request: FastifyRequest): Directory => directoryOf(surface.principal(request));
  const fieldsAuth = surface.config('customFields');
  const peopleAuth = surface.config('employees');
  const fieldTags = ['customFields'];
  const tags = ['employees'];
  const on = surface.schema;

  // the import's body is the file itself (CSV or .xlsx), read as bytes
  app.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  /* ---------------------------------------------------------------- custom fields */

  app.get('/customFields', { config: fieldsAuth, schema: on({ summary: 'Custom fields of your directory', tags: fieldTags, response: { 200: ref(CustomFieldListSchema), ...problemResponses(403) } }) }, async (request) => ({
    customFields: await listFields(db, dirOf(request)),
  }));

  app.post(
    '/customFields',
    { config: fieldsAuth, schema: on({ summary: 'Add a custom field', tags: fieldTags, body: ref(CustomFieldBody), response: { 201: ref(CustomFieldSchema), ...problemResponses(403, 409) } }) },
    async (request, reply) => reply.code(201).send(await createField(db, dirOf(request), request.body)),
  );

  app.get('/customFields/:id', { config: fieldsAuth, schema: on({ summary: 'A custom field', tags: fieldTags, params: IdParams, response: { 200: ref(CustomFieldSchema), ...problemResponses(403, 404) } }) }, async (request) =>
    getField(db, dirOf(request), request.params.id),
  );

  app.put(
    '/customFields/:id',
    { config: fieldsAuth, schema: on({ summary: 'Change the label, options or sensitivity of a custom field', tags: fieldTags, params: IdParams, body: ref(CustomFieldPatch), response: { 200: ref(CustomFieldSchema), ...problemResponses(403, 404) } }) },
    async (request) => updateField(db, dirOf(request), request.params.id, request.body),
  );

  app.delete(
    '/customFields/:id',
    { config: fieldsAuth, schema: on({ summary: 'Delete a custom field and its values from every person', tags: fieldTags, params: IdParams, response: { 200: ref(CustomFieldDeletedSchema), ...problemResponses(403, 404) } }) },
    async (request) => deleteField(db, dirOf(request), request.params.id),
  );

  /* -------------------------------------------------------------------- employees */

  app.get(
    '/employees',
    { config: peopleAuth, validatorCompiler: checkedByDomain, schema: on({ summary: 'People of your directory, paged and searchable', tags, querystring: EmployeeListQuery, response: { 200: ref(EmployeeListSchema), ...problemResponses(403) } }) },
    async (request) => listPeople(db, dirOf(request), request.query),
  );

  app.post(
    '/employees',
    { config: peopleAuth, validatorCompiler: checkedByDomain, schema: on({ summary: 'Add a person', tags, body: ref(EmployeeBody), response: { 201: ref(EmployeeSchema), ...problemResponses(403, 409) } }) },
    async (request, reply) => reply.code(201).send(await createPerson(db, dirOf(request), request.body)),
  );

  app.put(
    '/employees',
    {
      config: peopleAuth,
      validatorCompiler: checkedByDomain,
      schema: on({
        summary: 'Bulk upsert keyed by employeeId (merge, or replace: everyone else becomes `left`)',
        description: 'Every problem of the list is reported with its JSON pointer; nothing is stored when there is any.',
        tags,
        body: ref(EmployeeUpsertBody),
        response: { 200: ref(EmployeeUpsertResultSchema), ...problemResponses(403, 409) },
      }),
    },
    async (request) => upsertPeople(db, dirOf(request), request.body),
  );

  app.post(
    '/employees/import',
    {
      config: peopleAuth,
      validatorCompiler: checkedByDomain,
      schema: on({
        summary: 'Import people from an Excel (.xlsx) or CSV file (the request body)',
        description:
          'Columns `EmployeeId`, `Name`, `Email`, `Manager` (optional `PhotoUrl`), then one per custom field (its key or label). Every problem is listed at once with its row and column; nothing is stored when there is any. `dryRun=true` checks and counts only.',
        tags,
        consumes: FILE_TYPES,
        querystring: EmployeeImportQuery,
        body: Type.String({ format: 'binary' }),
        response: { 200: ref(EmployeeImportResultSchema), ...problemResponses(403, 409) },
      }),
    },
    async (request) => {
      const q = request.query;
      const mode = q.mode ?? 'merge';
      if (mode !== 'merge' && mode !== 'replace') throw new DomainError('INVALID_ARGS', 'query.mode: must be "merge" or "replace"', [{ path: '/query/mode', message: 'must be "merge" or "replace"' }]);
      if (q.dryRun !== undefined && q.dryRun !== 'true' && q.dryRun !== 'false') throw new DomainError('INVALID_ARGS', 'query.dryRun: must be true or false', [{ path: '/query/dryRun', message: 'must be true or false' }]);
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const dryRun = q.dryRun === 'true';
      const result = await importPeople(db, dirOf(request), { bytes, contentType: request.headers['content-type'] }, { mode, dryRun });
      return { ...result, dryRun };
    },
  );

  app.get(
    '/employees/template',
    {
      config: peopleAuth,
      schema: on({
        summary: 'The import template (your custom fields as columns, one example row)',
        tags,
        querystring: TemplateQuery,
        response: {
          200: {
            description: 'The template file',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...problemResponses(403),
        },
      }),
    },
    async (request, reply) => {
      const t = await peopleTemplate(db, dirOf(request), request.query.format ?? 'xlsx');
      reply.header('content-disposition', contentDisposition(t.filename, t.filename));
      reply.header('cache-control', 'private, no-store');
      reply.type(t.contentType);
      return reply.send(t.body);
    },
  );

  app.get('/employees/:id', { config: peopleAuth, schema: on({ summary: 'A person', tags, params: IdParams, response: { 200: ref(EmployeeSchema), ...problemResponses(403, 404) } }) }, async (request) =>
    presentEmployee(await loadPerson(db, dirOf(request), request.params.id)),
  );

  app.put(
    '/employees/:id',
    { config: peopleAuth, validatorCompiler: checkedByDomain, schema: on({ summary: 'Replace a person', tags, params: IdParams, body: ref(EmployeeBody), response: { 200: ref(EmployeeSchema), ...problemResponses(403, 404, 409) } }) },
    async (request) => replacePerson(db, dirOf(request), request.params.id, request.body),
  );

  app.delete(
    '/employees/:id',
    {
      config: peopleAuth,
      schema: on({
        summary: "Erase a person: the row, the person's answers and the nominations of them in every survey of the directory, and the person in the networks generated from those surveys",
        tags,
        params: IdParams,
        response: { 200: ref(EmployeeErasedSchema), ...problemResponses(403, 404) },
      }),
    },
    async (request) => erasePerson(db, app.config, dirOf(request), request.params.id),
  );
}
