/**
 * Schemas of import, export, templates and Discover (docs/api/import-export.md). The multipart body of
 * import is read by http/upload.ts (streamed to disk, limits); its schema documents the parts.
 */
import { Type } from 'typebox';
import { FORMAT_IDS } from './formats.ts';

const formatLiterals = FORMAT_IDS.map((f) => Type.Literal(f));

export const FormatSchema = Type.Union(formatLiterals, { description: 'json | xlsx | gexf | graphml | csv (csv: a zip of nodes.csv, edges.csv and network.csv)' });

export const ExportQuery = Type.Object({ format: FormatSchema }, { additionalProperties: false });

export const TemplateParams = Type.Object({ format: FormatSchema });

export const ImportBody = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The network file: .json, .xlsx, .gexf, .graphml, .csv (edge list) or a .zip of nodes.csv + edges.csv.' }),
    nodesFile: Type.Optional(Type.String({ format: 'binary', description: 'Nodes CSV for a CSV edge list.' })),
    name: Type.Optional(Type.String({ description: 'Default: the name in the file, else the file name.' })),
    description: Type.Optional(Type.String()),
    status: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Private')])),
    isDirected: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Default: what the file says, else true.' })),
    owner: Type.Optional(Type.String({ description: 'E-mail or user id of the owner; honoured for organization credentials only.' })),
    format: Type.Optional(FormatSchema),
  },
  { description: 'multipart/form-data' },
);

export const DiscoverQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive part of the name' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 100, default 20' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'default 0' })),
  },
  { additionalProperties: false },
);

/** A binary download with Content-Disposition. */
export function fileResponse(description: string) {
  const binary = { type: 'string', format: 'binary' };
  return {
    description,
    content: {
      'application/json': { schema: Type.Object({}, { additionalProperties: true }) },
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: binary },
      'application/gexf+xml': { schema: binary },
      'application/graphml+xml': { schema: binary },
      'application/zip': { schema: binary },
    },
  };
}
