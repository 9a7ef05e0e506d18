/** Schemas of the web app's networks endpoints (docs/web-app.md "Networks"). */
import { Type } from 'typebox';
import { NetworkResourceSchema } from './network.ts';

const AccessSchema = Type.Union([Type.Literal('owner'), Type.Literal('edit'), Type.Literal('read')], { title: 'NetworkAccess', description: 'What the signed-in user may do: owner (everything), edit (change), read (view).' });
const PermissionSchema = Type.Union([Type.Literal('View'), Type.Literal('Edit')], { title: 'SharePermission' });
const NullableMax = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null = unlimited' });

export const WebNetworkListQuery = Type.Object(
  { sort: Type.Optional(Type.Union([Type.Literal('modified'), Type.Literal('name')], { description: 'modified (default: last modified first) or name' })) },
  { title: 'WebNetworkListQuery', additionalProperties: false },
);

export const WebNetworkListSchema = Type.Object(
  {
    networks: Type.Array(Type.Intersect([NetworkResourceSchema, Type.Object({ access: AccessSchema })])),
    counts: Type.Object({ public: Type.Integer({ minimum: 0 }), private: Type.Integer({ minimum: 0 }) }, { description: 'Networks you own, by status' }),
    maxima: Type.Object({ public: NullableMax, private: NullableMax }, { description: "Your plan's maxima" }),
  },
  { title: 'WebNetworkList' },
);

export const ShareSchema = Type.Object({ email: Type.String(), name: Type.String(), permission: PermissionSchema }, { title: 'NetworkShare', additionalProperties: false });
export const SharesSchema = Type.Object({ shares: Type.Array(ShareSchema) }, { title: 'NetworkShares', additionalProperties: false });

export const WebNetworkDetailSchema = Type.Intersect(
  [NetworkResourceSchema, Type.Object({ access: AccessSchema, viewCount: Type.Integer({ minimum: 0, description: 'Saved views of the network' }), shares: Type.Array(ShareSchema, { description: 'Empty for viewers' }) })],
  { title: 'WebNetworkDetail' },
);

export const WebNetworkPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 100_000 })),
    status: Type.Optional(Type.Union([Type.Literal('Public'), Type.Literal('Private')])),
    isDirected: Type.Optional(Type.Boolean()),
  },
  { title: 'WebNetworkPatch', additionalProperties: false },
);

export const ShareBody = Type.Object({ email: Type.String({ maxLength: 320 }), permission: PermissionSchema }, { title: 'ShareBody', additionalProperties: false });
export const ShareParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), email: Type.String({ minLength: 1, maxLength: 320 }) }, { title: 'ShareParams' });
