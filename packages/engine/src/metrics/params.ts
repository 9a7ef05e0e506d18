/** Parameter schemas shared by several metric endpoints (docs/spec/api.md "Common body parameters"). */
import { Type } from 'typebox';

export const metricEdgeWeightsParam = Type.Optional(
  Type.Union([Type.Boolean(), Type.String({ minLength: 1 })], {
    description: 'true: use the edge attribute `weight` as weight; a String: use that edge attribute. Missing values count as 1.',
  }),
);

export const directedParam = Type.Boolean({ default: true, description: 'Treat a directed network as directed (false: as undirected).' });
export const normalizedParam = Type.Boolean({ default: true, description: 'Normalize the values.' });
export const kPercentParam = Type.Number({
  minimum: 0,
  maximum: 100,
  default: 100,
  description: 'Percentage of nodes used as sampled sources; below 100 only for very large networks that cannot finish in the time limit.',
});
export const seedParam = Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, description: 'Overrides the seed derived from the network content and parameters.' }));
