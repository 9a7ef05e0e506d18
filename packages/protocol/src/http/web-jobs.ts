/**
 * Wire shapes of the web app's metric jobs (docs/web-app.md "Metric jobs"): the public API's job
 * (http/jobs.ts, without its result) with the name of its network, the list, and the body of a run.
 */
import { Type } from 'typebox';
import { ref } from './ref.ts';
import { jobProperties } from './jobs.ts';
import { JobIdParams, JobPageQuery, pageCounters } from './paging.ts';

export const WebJobSchema = Type.Object(
  {
    ...jobProperties,
    networkName: Type.Union([Type.String(), Type.Null()], { description: 'The network’s name (null with posted network JSON, or when the network was deleted).' }),
    value: Type.Union([Type.Number(), Type.Null()], { description: 'A network-level metric’s one number once the job succeeded (e.g. the diameter); null for other jobs.' }),
  },
  { $id: 'WebJob', additionalProperties: false },
);

export const WebJobListSchema = Type.Object(
  { jobs: Type.Array(ref(WebJobSchema), { description: 'Newest first.' }), ...pageCounters() },
  { $id: 'WebJobList', additionalProperties: false },
);

/** The web app's job list pages and names jobs as the public API's does. */
export const WebJobListQuery = JobPageQuery;
export const WebJobIdParams = JobIdParams;
export const WebMetricJobParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), metricId: Type.String({ minLength: 1, maxLength: 100 }) });
export const WebMetricJobBody = Type.Record(Type.String(), Type.Unknown(), { $id: 'WebMetricJobBody', description: "The metric's own parameters (docs/metrics.md); {} for its defaults." });

/** `POST /app/api/networks/:id/metrics/:metricId/value`: a network-level metric computed now. */
export const WebNetworkValueSchema = Type.Object(
  {
    metric: Type.String({ description: 'The metric’s id (docs/metrics.md).' }),
    value: Type.Number({ description: 'The metric’s one number.' }),
    parameters: Type.Record(Type.String(), Type.Unknown(), { description: 'The parameters it ran with (as sent; {} for the defaults).' }),
    ms: Type.Number({ minimum: 0, description: 'How long it took, in milliseconds.' }),
  },
  { $id: 'WebNetworkValue', additionalProperties: false },
);

/** The named schemas of this file (http/index.ts registers them). */
export const WEB_JOB_SCHEMAS = [WebJobSchema, WebJobListSchema, WebMetricJobBody, WebNetworkValueSchema];
