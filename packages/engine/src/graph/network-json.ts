/**
 * Network JSON: the wire format of API.md "Network JSON", with the attribute rules of API.md and
 * DECISIONS.md §3. `validateNetworkJSON` reports every problem (capped) with JSON pointers and returns
 * the cleaned network (empty/null attributes dropped) that is stored and handed to metrics.
 */
export type Id = string | number;
export type AttributeValue = string | number;
export type Attributes = Record<string, AttributeValue>;

export interface NodeJSON {
  id: Id;
  attributes?: Attributes;
  x?: number;
  y?: number;
  image?: { url?: string };
  [key: string]: unknown;
}

export interface EdgeJSON {
  id: Id;
  source: Id;
  target: Id;
  attributes?: Attributes;
  [key: string]: unknown;
}

export interface NetworkJSON {
  nodes: NodeJSON[];
  edges?: EdgeJSON[];
  [key: string]: unknown;
}
