/**
 * Parses a `POST/PUT /networks` body with the rules of docs/spec/api.md and docs/spec/decisions.md §3, reporting every problem
 * at once with JSON pointers (the network JSON's problems included):
 * - `name` (non-empty String) and `networkJSON` required;
 * - `description` String; `status` `Public` | `Private`; `isDirected` Boolean or "true"/"false";
 * - internal fields (`_id, billing, created, fileType, handpicked, modified, originalFileType,
 *   networkUUID`) and unknown top-level keys are ignored;
 * - `owner` (String) is returned for the ownership rules.
 */
import { validateNetworkJSON, type NetworkJSON } from '@netloom/engine';
import { isDirectedOf } from '@netloom/engine/pool/request.ts';
import type { NetworkStatus } from '../../store/schema.ts';
import { DomainError, invalidArgs, type ProblemItem } from '../errors.ts';

export interface NetworkInput {
  name: string;
  description: string;
  isDirected: boolean;
  status: NetworkStatus;
  networkJSON: NetworkJSON;
  owner: string | undefined;
  nodeCount: number;
  edgeCount: number;
  /** Which optional fields the body carried: PUT replaces only those (docs/spec/decisions.md §3). */
  sent: { description: boolean; isDirected: boolean; status: boolean };
}

/** Boolean or the String "true" / "false" (undefined otherwise), as every body reads `isDirected`. */
export { parseBooleanish as parseBoolean } from '@netloom/engine/pool/request.ts';

export function parseNetworkBody(body: unknown, limits: { maxNodes: number; maxEdges: number }): NetworkInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidArgs([{ path: '', message: 'body must be a JSON object with `name` and `networkJSON`' }]);
  }
  const b = body as Record<string, unknown>;
  const problems: ProblemItem[] = [];
  if (b.name === undefined || b.name === null) problems.push({ path: '/name', message: 'is required' });
  else if (typeof b.name !== 'string' || b.name.trim() === '') problems.push({ path: '/name', message: 'must be a non-empty String' });
  if (b.description !== undefined && b.description !== null && typeof b.description !== 'string') {
    problems.push({ path: '/description', message: 'must be a String' });
  }
  if (b.status !== undefined && b.status !== null && b.status !== 'Public' && b.status !== 'Private') {
    problems.push({ path: '/status', message: 'must be "Public" or "Private"' });
  }
  const isDirected = isDirectedOf(b, problems);
  if (b.owner !== undefined && b.owner !== null && (typeof b.owner !== 'string' || b.owner === '')) {
    problems.push({ path: '/owner', message: 'must be an e-mail address or a user id' });
  }
  let nodeCount = 0;
  let edgeCount = 0;
  if (b.networkJSON === undefined || b.networkJSON === null) {
    problems.push({ path: '/networkJSON', message: 'is required' });
  } else {
    const result = validateNetworkJSON(b.networkJSON, { maxNodes: limits.maxNodes, maxEdges: limits.maxEdges, maxProblems: 100 });
    if (result.tooLarge) throw new DomainError('PAYLOAD_TOO_LARGE', result.tooLarge);
    for (const p of result.problems) problems.push({ path: `/networkJSON${p.path}`, message: p.message });
    nodeCount = result.nodeCount;
    edgeCount = result.edgeCount;
  }
  if (problems.length > 0) throw invalidArgs(problems);
  return {
    name: (b.name as string).trim(),
    description: typeof b.description === 'string' ? b.description : '',
    isDirected,
    status: (b.status as NetworkStatus | undefined) ?? 'Private',
    networkJSON: b.networkJSON as NetworkJSON,
    owner: typeof b.owner === 'string' ? b.owner : undefined,
    nodeCount,
    edgeCount,
    sent: {
      description: typeof b.description === 'string',
      isDirected: b.isDirected !== undefined && b.isDirected !== null,
      status: b.status !== undefined && b.status !== null,
    },
  };
}
