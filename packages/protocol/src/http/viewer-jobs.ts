/**
 * The embedded viewer's metric job (docs/embedding-api.md "Metric jobs"; `ViewerJob` of @netloom/protocol):
 * what the Metrics panel needs to draw a progress bar, an ETA and the values — none of the API job's
 * worker or shard records.
 */
import { Type, type Static } from 'typebox';
import { JOB_STATUSES, type JobStatus } from '../viewer-contract.ts';
import { ref } from './ref.ts';
import { ProblemSchema } from './problem.ts';

export const ViewerJobSchema = Type.Object(
  {
    jobId: Type.String(),
    status: Type.Unsafe<JobStatus>({ type: 'string', enum: [...JOB_STATUSES], description: '`queued` → `running` → `succeeded` | `failed` | `cancelled`.' }),
    progress: Type.Number({ minimum: 0, maximum: 1, description: 'Work done (sources done / total, or iterations); never decreases.' }),
    etaSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'Estimated seconds left; null until there is progress.' }),
    metric: Type.String({ description: 'Metric id, e.g. `betweennessCentrality`.' }),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    result: Type.Optional(Type.Unknown({ description: 'When succeeded: what the synchronous viewer call answers — a number (network metrics) or `{ values, meta }` (node metrics); in owner-mode Explore with edit access `{ _id, networkUUID, attributes, meta }` (the values were written).' })),
    error: Type.Optional(ref(ProblemSchema)),
  },
  { $id: 'ViewerJob', additionalProperties: false, description: "A metric job of the viewer's session." },
);
export type ViewerJobWire = Static<typeof ViewerJobSchema>;

export const VIEWER_JOB_SCHEMAS = [ViewerJobSchema] as const;
