/**
 * The allowed-host-origin rule, shared by the service (domain/embedding/rules.ts: settings and sessions)
 * and the web console (which refuses an invalid origin as it is added to the list, with the same reason
 * the service would give on Save). Pure: no TypeBox, no DOM.
 */
/**
 * An allowed host origin: exactly `scheme://host[:port]` with scheme http or https. Wildcards, paths
 * (a trailing `/` included), queries, fragments and user info are refused with the reason. The result
 * is the browser's serialisation of the origin (lowercase host, default port dropped), which is what a
 * browser sends and what `frame-ancestors` compares.
 */
export function parseOrigin(value: unknown): { origin: string } | { error: string } {
  if (typeof value !== 'string' || value.length === 0) return { error: 'must be a non-empty String such as https://app.example.com' };
  if (value.length > 2048) return { error: 'is too long' };
  if (value.includes('*')) return { error: 'wildcards are not accepted; list each exact origin (scheme://host[:port])' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: 'is not an origin of the form scheme://host[:port]' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: 'scheme must be https or http' };
  if (url.username || url.password) return { error: 'must not contain user information' };
  if (url.search || value.includes('?')) return { error: 'must not contain a query' };
  if (url.hash || value.includes('#')) return { error: 'must not contain a fragment' };
  const afterAuthority = value.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  if (afterAuthority !== '') return { error: `paths are not accepted (found ${JSON.stringify(afterAuthority)}); give scheme://host[:port] only` };
  return { origin: url.origin };
}

