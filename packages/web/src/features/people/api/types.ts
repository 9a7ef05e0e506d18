/**
 * Wire types of the directory (people and custom fields; @netloom/protocol/http people.ts): `Static<>` of
 * the shared contract's schemas. The People pages and the surveys (roster, respondents, tracking) use these.
 */
import type { Static } from 'typebox';
import type * as C from '@netloom/protocol/http';

export type Employee = Static<typeof C.EmployeeSchema>;
export type EmployeeInput = Static<typeof C.EmployeeBody>;
export type EmployeeList = Static<typeof C.EmployeeListSchema>;
export type EmployeeErased = Static<typeof C.EmployeeErasedSchema>;
export type ImportResult = Static<typeof C.EmployeeImportResultSchema>;
export type CustomField = Static<typeof C.CustomFieldSchema>;
export type CustomFieldList = Static<typeof C.CustomFieldListSchema>;
export type CustomFieldInput = Static<typeof C.CustomFieldBody>;
export type CustomFieldChange = Static<typeof C.CustomFieldPatch>;
export type CustomFieldDeleted = Static<typeof C.CustomFieldDeletedSchema>;
export type FieldType = CustomField['type'];
