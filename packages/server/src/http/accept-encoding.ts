/**
 * Whether a request's `Accept-Encoding` admits a gzip answer (RFC 9110 §12.5.3): `gzip` (or its alias
 * `x-gzip`) listed with a non-zero weight, or — when gzip is not named — `*` with a non-zero weight.
 * `gzip;q=0` refuses gzip even if `*` is allowed. No header: identity only (we never assume gzip).
 * The one check used wherever stored gzip bytes may be sent as they are (GET /networks/:id, signed data links).
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let gzip: number | null = null;
  let star: number | null = null;
  for (const part of value.split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    if (!coding) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([0-9.]+)$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q)) q = 0;
    const name = coding.toLowerCase();
    if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (name === '*') star = Math.max(star ?? 0, q);
  }
  if (gzip !== null) return gzip > 0;
  return star !== null && star > 0;
}
