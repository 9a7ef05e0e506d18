/**
 * The file formats of import and export (docs/api/import-export.md), as data: the ids the API accepts
 * (`?format=`, the OpenAPI enums), the short name the web app shows and the file ending of an export.
 * The server's format registry (server/src/domain/formats/index.ts: reader and writer of each) is typed
 * against this list, so a format exists in both or the typecheck fails; a test compares them too.
 */
export const FILE_FORMATS = {
  json: { label: 'JSON', ext: 'json' },
  xlsx: { label: 'Excel', ext: 'xlsx' },
  gexf: { label: 'GEXF', ext: 'gexf' },
  graphml: { label: 'GraphML', ext: 'graphml' },
  csv: { label: 'CSV', ext: 'csv' },
} as const satisfies Record<string, { label: string; ext: string }>;

export type FormatId = keyof typeof FILE_FORMATS;

/** Every format id, in the registry's order (the order of the OpenAPI enums). */
export const FORMAT_IDS = Object.keys(FILE_FORMATS) as FormatId[];
