/**
 * What a logged URL may show (docs/security.md, "Logs"): the query string never, and on the respondent
 * pages and their API (`/s/…`) no path segment that could be a link token — a survey link is the
 * respondent's only credential, so `/s/<token>`, `/s/open/<token>` and `/s/api/<token>/answers/q1` are
 * logged as `/s/[token]`, `/s/open/[token]` and `/s/api/[token]/answers/q1`.
 */
const TOKENISH = /^[A-Za-z0-9_-]{16,}$/;

export function loggableUrl(url: string): string {
  const path = url.split('?')[0];
  if (!path.startsWith('/s/')) return path;
  return path
    .split('/')
    .map((seg) => (TOKENISH.test(seg) ? '[token]' : seg))
    .join('/');
}
