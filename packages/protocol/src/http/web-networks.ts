/** Schemas of the web app's networks endpoints (docs/web-app.md "Networks"); named ones are in WEB_NETWORK_SCHEMAS. */
import { Type } from 'typebox';
import { networkProperties } from './network.ts';
import { ref } from './ref.ts';

const AccessSchema = Type.Union([Type.Literal('owner'), Type.Literal('edit'), Type.Literal('read')], { $id: 'NetworkAccess', description: 'What the signed-in user may do: owner (everything), edit (change), read (view).' });
const PermissionSchema = Type.Union([Type.Literal('View'), Type.Literal('Edit')], { $id: 'SharePermission' });
const NullableMax = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null = unlimited' });

export const WebNetworkListQuery = Type.Object(
  { sort: Type.Optional(Type.Union([Type.Literal('modified'), Type.Literal('name')], { description: 'modified (default: last modified first) or name' })) },
  { additionalProperties: false },
);

/** A network of the list: the API's `Network` plus the signed-in user's access. */
export const WebNetworkSchema = Type.Object({ ...networkProperties, access: ref(AccessSchema) }, { $id: 'WebNetwork', additionalProperties: false });

export const WebNetworkListSchema = Type.Object(
  {
    networks: Type.Array(ref(WebNetworkSchema)),
    counts: Type.Object({ public: Type.Integer({ minimum: 0 }), private: Type.Integer({ minimum: 0 }) }, { additionalProperties: false, description: 'Networks you own, by status' }),
    maxima: Type.Object({ public: NullableMax, private: NullableMax }, { additionalProperties: false, description: "Your plan's maxima" }),
  },
  { $id: 'WebNetworkList', additionalProperties: false },
);

export const ShareSchema = Type.Object({ email: Type.String(), name: Type.String(), permission: ref(PermissionSchema) }, { $id: 'NetworkShare', additionalProperties: false });
export const SharesSchema = Type.Object({ shares: Type.Array(ref(ShareSchema)) }, { $id: 'NetworkShares', additionalProperties: false });

export const WebNetworkDetailSchema = Type.Object(
  {
    ...networkProperties,
    access: ref(AccessSchema),
    viewCount: Type.Integer({ minimum: 0, description: 'Saved views of the network' }),
    shares: Type.Array(ref(ShareSchema), { description: 'Empty for viewers' }),
  },
  { $id: 'WebNetworkDetail', additionalProperties: false },
);

export const WebNetworkPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 100_000 })),
    status: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Private')])),
    isDirected: Type.Optional(Type.Boolean()),
  },
  { $id: 'WebNetworkPatch', additionalProperties: false },
);

export const ShareBody = Type.Object({ email: Type.String({ maxLength: 320 }), permission: ref(PermissionSchema) }, { $id: 'ShareBody', additionalProperties: false });
export const ShareParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 1, maxLength: 320 }) });

/** The named schemas of this file (http/index.ts registers them). */
export const WEB_NETWORK_SCHEMAS = [AccessSchema, PermissionSchema, WebNetworkSchema, WebNetworkListSchema, ShareSchema, SharesSchema, WebNetworkDetailSchema, WebNetworkPatchBody, ShareBody];
