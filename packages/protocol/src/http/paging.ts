/**
 * Pieces the paged job lists share (the public API's http/jobs.ts and the web app's http/web-jobs.ts):
 * the `?limit=&offset=` query, the page's counters, and a job id in the path.
 */
import { Type } from 'typebox';

/** `?limit=&offset=` as sent (strings; the route reads them as numbers). */
export const JobPageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 200, default 50' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$', description: '0 or more, default 0' })),
  },
  { additionalProperties: false },
);

/** What a page of a list says besides its rows: how many there are in all, and which page this is. */
export const pageCounters = () => ({ total: Type.Integer({ minimum: 0 }), limit: Type.Integer(), offset: Type.Integer() });

export const JobIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
