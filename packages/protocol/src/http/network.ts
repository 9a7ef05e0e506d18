/**
 * TypeBox schemas of the Networks API: the single description of the wire shapes, used for response
 * serialization and the OpenAPI document. Request bodies of POST/PUT are checked by
 * domain/networks/body.ts instead of Ajv because docs/spec/decisions.md §3 accepts legacy input (string booleans,
 * ignored internal fields) and requires every problem of the body and its network JSON in one answer.
 */
import { Type } from 'typebox';
import { ref } from './ref.ts';
import { ProblemSchema as NamedProblemSchema } from './problem.ts';

export const Attributes = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
  $id: 'Attributes',
  description: 'Key/value pairs; values are Strings (categorical) or Numbers. A Boolean is stored as the String "true"/"false"; `null` or "" mean no value and are dropped (stored networks hold Strings and Numbers only). Names starting with `_` are hidden in the detail panel.',
});

export const NodeSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Number()]),
    attributes: Type.Optional(ref(Attributes)),
    x: Type.Optional(Type.Number()),
    y: Type.Optional(Type.Number()),
    image: Type.Optional(Type.Object({ url: Type.Optional(Type.String({ format: 'uri', description: 'http: or https: URL of an image drawn inside the node' })) })),
  },
  { $id: 'Node', additionalProperties: true },
);

export const EdgeSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Number()]),
    source: Type.Union([Type.String(), Type.Number()]),
    target: Type.Union([Type.String(), Type.Number()]),
    attributes: Type.Optional(ref(Attributes)),
  },
  { $id: 'Edge', additionalProperties: true },
);

export const NetworkJSONSchema = Type.Object(
  { nodes: Type.Array(ref(NodeSchema)), edges: Type.Optional(Type.Array(ref(EdgeSchema))) },
  { $id: 'NetworkJSON', additionalProperties: true, description: 'Network data. Ids are compared by their string form; edges must name existing nodes.' },
);

export const NetworkBody = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    networkJSON: ref(NetworkJSONSchema),
    description: Type.Optional(Type.String()),
    isDirected: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], { default: true })),
    status: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Private')], { default: 'Private' })),
    owner: Type.Optional(Type.String({ description: 'E-mail or user id of the owner; honoured for organization credentials only.' })),
  },
  { $id: 'NetworkBody', additionalProperties: true, description: 'Internal fields (_id, billing, created, fileType, handpicked, modified, originalFileType, networkUUID) and unknown keys are ignored.' },
);

export const networkProperties = {
  _id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  isDirected: Type.Boolean(),
  status: Type.Union([Type.Literal('Public'), Type.Literal('Private')]),
  created: Type.String({ format: 'date-time' }),
  modified: Type.String({ format: 'date-time' }),
  fileType: Type.String(),
  originalFileType: Type.String(),
  networkUUID: Type.String(),
  handpicked: Type.Boolean(),
  billing: Type.Object({ maxViews: Type.Number() }),
  owner: Type.Object({ _id: Type.String(), name: Type.String() }),
  nodeCount: Type.Integer(),
  edgeCount: Type.Integer(),
};

export const NetworkResourceSchema = Type.Object(networkProperties, { $id: 'Network', additionalProperties: false, description: 'A network without its data (lists, create, edit).' });

export const ImportWarningSchema = Type.Object(
  {
    path: Type.String({ description: 'The first place it happened: file and line, or sheet and cell ("" for the file as a whole)' }),
    message: Type.String({ description: 'What was converted, dropped or interpreted, naming its first places' }),
    count: Type.Integer({ minimum: 1, description: 'How many places (cells, lines, elements) it concerns' }),
  },
  { $id: 'ImportWarning', additionalProperties: false },
);

export const ImportedNetworkSchema = Type.Object(
  { ...networkProperties, warnings: Type.Array(ref(ImportWarningSchema), { maxItems: 100 }) },
  { $id: 'ImportedNetwork', additionalProperties: false, description: 'The network an import created, with what the reader converted, dropped or interpreted (docs/api/import-export.md, "Warnings").' },
);

export const NetworkWithJSONSchema = Type.Object(
  { ...networkProperties, networkJSON: ref(NetworkJSONSchema) },
  { $id: 'NetworkWithJSON', additionalProperties: false, description: 'A network with its data (`GET /networks/:id`).' },
);

export const NetworkIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const DeletedSchema = Type.Object({ _id: Type.String(), deleted: Type.Literal(true) }, { $id: 'NetworkDeleted', additionalProperties: false });

/**
 * Older route files declare problems as `400: ProblemRef`: a reference to the named `Problem` schema,
 * rewritten to an `application/problem+json` answer by http/route-contract.ts. New code uses
 * `problemResponses(...)` from http/problem.ts.
 */
export const ProblemRef = ref(NamedProblemSchema);
