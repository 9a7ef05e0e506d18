/**
 * Wire shapes of the people directory (docs/spec/decisions.md §9; docs/api/people-and-surveys.md):
 * employees and custom fields. Bodies of employees are checked by domain/people (every problem with
 * its JSON pointer); these schemas document them and type the handlers.
 */
import { Type } from 'typebox';
import { ref } from './ref.ts';

const FieldValue = Type.Union([Type.String(), Type.Number()]);
const FieldValues = Type.Record(Type.String(), FieldValue, { description: '{ <custom field key>: String | Number }' });

export const CustomFieldSchema = Type.Object(
  {
    _id: Type.String(),
    key: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Unique in the directory; never changes.' }),
    label: Type.String(),
    type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date'), Type.Literal('category')]),
    options: Type.Optional(Type.Array(Type.String(), { description: 'The values of a category field.' })),
    sensitive: Type.Boolean({ description: 'Never shown to respondents; never a group below the minimum group size.' }),
    created: Type.String({ format: 'date-time' }),
    modified: Type.String({ format: 'date-time' }),
  },
  { $id: 'CustomField', additionalProperties: false },
);

export const CustomFieldBody = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date'), Type.Literal('category')]),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 500 })),
    sensitive: Type.Optional(Type.Boolean()),
  },
  { $id: 'CustomFieldBody', additionalProperties: false },
);

export const CustomFieldPatch = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'Accepted only unchanged.' })),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    type: Type.Optional(Type.String({ description: 'Accepted only unchanged.' })),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 500 })),
    sensitive: Type.Optional(Type.Boolean()),
  },
  { $id: 'CustomFieldPatch', additionalProperties: false, description: 'Changes label, options (category) and sensitive when sent.' },
);

export const CustomFieldListSchema = Type.Object({ customFields: Type.Array(ref(CustomFieldSchema)) }, { $id: 'CustomFieldList', additionalProperties: false });

export const CustomFieldDeletedSchema = Type.Object(
  { _id: Type.String(), deleted: Type.Literal(true), valuesRemoved: Type.Integer({ minimum: 0, description: 'People who held a value of the field.' }) },
  { $id: 'CustomFieldDeleted', additionalProperties: false },
);

export const EmployeeSchema = Type.Object(
  {
    _id: Type.String(),
    employeeId: Type.String({ minLength: 1, maxLength: 128, description: "The organization's own HR id, unique in the directory." }),
    name: Type.String(),
    email: Type.Optional(Type.String({ description: 'Unique in the directory (case-insensitive).' })),
    managerId: Type.Optional(Type.String({ description: 'The employeeId of the manager.' })),
    photoUrl: Type.Optional(Type.String({ description: 'http: or https: URL.' })),
    fields: FieldValues,
    status: Type.Union([Type.Literal('active'), Type.Literal('left')]),
    created: Type.String({ format: 'date-time' }),
    modified: Type.String({ format: 'date-time' }),
  },
  { $id: 'Employee', additionalProperties: false },
);

const employeeInputProps = {
  employeeId: Type.String({ minLength: 1, maxLength: 128 }),
  name: Type.String({ minLength: 1, maxLength: 300 }),
  email: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  managerId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  photoUrl: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  fields: Type.Optional(Type.Record(Type.String(), Type.Union([FieldValue, Type.Null()]))),
};

export const EmployeeBody = Type.Object(
  { ...employeeInputProps, status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('left')])) },
  { $id: 'EmployeeBody', description: 'A person. `null` or "" clears an optional value. Unknown keys are 400.' },
);

export const EmployeeUpsertItem = Type.Object(employeeInputProps, { $id: 'EmployeeUpsertItem' });

export const EmployeeUpsertBody = Type.Object(
  {
    employees: Type.Array(ref(EmployeeUpsertItem), { maxItems: 200000 }),
    mode: Type.Optional(Type.Union([Type.Literal('merge'), Type.Literal('replace')], { description: 'merge (default): create or update the listed people; replace: also mark everyone else `left`.' })),
  },
  { $id: 'EmployeeUpsertBody' },
);

export const EmployeeUpsertResultSchema = Type.Object(
  {
    created: Type.Integer({ minimum: 0 }),
    updated: Type.Integer({ minimum: 0, description: 'Listed people whose stored values changed.' }),
    left: Type.Integer({ minimum: 0, description: 'People marked `left` (replace mode).' }),
  },
  { $id: 'EmployeeUpsertResult', additionalProperties: false },
);

export const EmployeeImportResultSchema = Type.Object(
  {
    created: Type.Integer({ minimum: 0 }),
    updated: Type.Integer({ minimum: 0 }),
    left: Type.Integer({ minimum: 0 }),
    rows: Type.Integer({ minimum: 0, description: 'People rows read from the file.' }),
    dryRun: Type.Boolean({ description: 'true: checked and counted, nothing stored.' }),
  },
  { $id: 'EmployeeImportResult', additionalProperties: false },
);

export const EmployeeListSchema = Type.Object(
  { total: Type.Integer({ minimum: 0 }), offset: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 1 }), employees: Type.Array(ref(EmployeeSchema)) },
  { $id: 'EmployeeList', additionalProperties: false },
);

export const EmployeeErasedSchema = Type.Object(
  {
    _id: Type.String(),
    employeeId: Type.String(),
    deleted: Type.Literal(true),
    responsesRemoved: Type.Integer({ minimum: 0, description: "Surveys in which the person's own answers were removed." }),
    answersRemoved: Type.Integer({ minimum: 0, description: 'Answers of the person removed (every survey of the directory).' }),
    nominationsRemoved: Type.Integer({ minimum: 0, description: 'Nominations of the person removed from the answers of others.' }),
    networksRegenerated: Type.Integer({ minimum: 0, description: 'Networks generated from the surveys of the directory that held the person and were unchanged since their generation: generated again with their recorded options, without the person (same `_id`, new `networkUUID`).' }),
    networksTrimmed: Type.Integer({ minimum: 0, description: "Generated networks that held the person and were changed since their generation (edited, metric values written back, a layout saved): the person's node and every tie of it removed, the other changes kept (new `networkUUID`)." }),
  },
  { $id: 'EmployeeErased', additionalProperties: false },
);

export const EmployeeListQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ maxLength: 9, description: '1 to 500, default 100' })),
    offset: Type.Optional(Type.String({ maxLength: 12, description: 'default 0' })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive part of the name, e-mail or employeeId' })),
    status: Type.Optional(Type.String({ description: 'active | left' })),
  },
  { additionalProperties: false },
);

export const EmployeeImportQuery = Type.Object(
  {
    mode: Type.Optional(Type.Union([Type.Literal('merge'), Type.Literal('replace')])),
    dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: check and count only' })),
  },
  { additionalProperties: false },
);

export const TemplateQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')], { description: 'default xlsx' })) }, { additionalProperties: false });

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const PEOPLE_SCHEMAS = [
  CustomFieldSchema,
  CustomFieldBody,
  CustomFieldPatch,
  CustomFieldListSchema,
  CustomFieldDeletedSchema,
  EmployeeSchema,
  EmployeeBody,
  EmployeeUpsertItem,
  EmployeeUpsertBody,
  EmployeeUpsertResultSchema,
  EmployeeImportResultSchema,
  EmployeeListSchema,
  EmployeeErasedSchema,
];
