/**
 * What a request's URL looks like in the logs (docs/security.md "Secrets in logs"): the path without
 * its query, and every invitation or reset link token (`nlk_…`, a secret while the link is valid: it
 * travels in the path of `/link/:token` and `/app/api/links/:token`) replaced by `nlk_[redacted]`.
 */
export function loggedUrl(url: string): string {
  return url.split('?')[0].replace(/nlk_[^/?#]*/g, 'nlk_[redacted]');
}
