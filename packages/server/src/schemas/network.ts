/**
 * TypeBox schemas of the Networks API: the single description of the wire shapes, used for response
 * serialization and the OpenAPI document. Request bodies of POST/PUT are checked by
 * domain/network-body.ts instead of Ajv because DECISIONS.md §3 accepts legacy input (string booleans,
 * ignored internal fields) and requires every problem of the body and its network JSON in one answer.
 */
import { Type } from 'typebox';

export const Attributes = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
  description: 'Key/value pairs; values are Strings (categorical) or Numbers. `null` or "" mean no value and are dropped. Names starting with `_` are hidden in the detail panel.',
});

export const NodeSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Number()]),
    attributes: Type.Optional(Attributes),
    x: Type.Optional(Type.Number()),
    y: Type.Optional(Type.Number()),
    image: Type.Optional(Type.Object({ url: Type.Optional(Type.String({ format: 'uri', description: 'http: or https: URL of an image drawn inside the node' })) })),
  },
  { additionalProperties: true },
);

export const EdgeSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Number()]),
    source: Type.Union([Type.String(), Type.Number()]),
    target: Type.Union([Type.String(), Type.Number()]),
    attributes: Type.Optional(Attributes),
  },
  { additionalProperties: true },
);

export const NetworkJSONSchema = Type.Object(
  { nodes: Type.Array(NodeSchema), edges: Type.Optional(Type.Array(EdgeSchema)) },
  { additionalProperties: true, description: 'Network data. Ids are compared by their string form; edges must name existing nodes.' },
);

export const NetworkBody = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    networkJSON: NetworkJSONSchema,
    description: Type.Optional(Type.String()),
    isDirected: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], { default: true })),
    status: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Private')], { default: 'Private' })),
    owner: Type.Optional(Type.String({ description: 'E-mail or user id of the owner; honoured for organization credentials only.' })),
  },
  { additionalProperties: true, description: 'Internal fields (_id, billing, created, fileType, handpicked, modified, originalFileType, networkUUID) and unknown keys are ignored.' },
);

export const NetworkResourceSchema = Type.Object({
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
});

export const NetworkWithJSONSchema = Type.Intersect([NetworkResourceSchema, Type.Object({ networkJSON: NetworkJSONSchema })]);

export const NetworkIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

export const DeletedSchema = Type.Object({ _id: Type.String(), deleted: Type.Literal(true) });

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String(),
    detail: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    requestId: Type.String(),
  },
  { description: 'RFC 9457 problem details with a stable `code`.' },
);
