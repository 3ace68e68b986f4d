/**
 * What the service counts for its dashboard and alarms (lib/cloud/observability.ts): one event per
 * thing that happened, named where it happens. On AWS each becomes a CloudWatch metric in
 * METRICS_NAMESPACE (Embedded Metric Format), with the `service` dimension and the event's own.
 */
import type { ErrorCode } from './errors';

export const METRICS_NAMESPACE = 'ReactionStudio';
/** The `service` dimension of every metric (and the logger's service name). */
export const SERVICE_NAME = 'reaction-studio';

/** The refusals of a body or an uploaded file: too large (413), of a type not taken (415), unreadable media or no face in it (422). */
const UPLOAD_REFUSALS = ['payload_too_large', 'unsupported_media_type', 'invalid_media', 'no_face'] as const satisfies readonly ErrorCode[];
export type UploadRefusal = (typeof UPLOAD_REFUSALS)[number];

export type MetricEvent =
  /** A video job was accepted and its execution started. */
  | { name: 'JobsStarted' }
  /** A job finished with its video. */
  | { name: 'JobsDone' }
  /** A job ended failed; `code` is the job's error code (what the client reads). */
  | { name: 'JobsFailed'; code: string }
  /** Seconds one render step (generation, preview, composition) took, successful or not. */
  | { name: 'RenderSeconds'; step: string; seconds: number }
  /** Allowance units a job that ended was charged. */
  | { name: 'UnitsCharged'; units: number }
  /** A request refused for its body or file. */
  | { name: 'UploadsRefused'; reason: UploadRefusal }
  /** A webhook delivery reached its endpoint (a 2xx). */
  | { name: 'WebhooksDelivered' }
  /** A webhook delivery gave up: attempts ran out, a 410, or its endpoint was disabled or deleted. */
  | { name: 'WebhooksFailed' };

export type MetricName = MetricEvent['name'];

/** The dimension each event adds to `service`, if any, and the unit of its value. */
export const METRIC_SHAPES: Readonly<Record<MetricName, { dimension?: 'error_code' | 'step' | 'reason'; unit: 'Count' | 'Seconds' }>> = {
  JobsStarted: { unit: 'Count' },
  JobsDone: { unit: 'Count' },
  JobsFailed: { dimension: 'error_code', unit: 'Count' },
  RenderSeconds: { dimension: 'step', unit: 'Seconds' },
  UnitsCharged: { unit: 'Count' },
  UploadsRefused: { dimension: 'reason', unit: 'Count' },
  WebhooksDelivered: { unit: 'Count' },
  WebhooksFailed: { unit: 'Count' },
};

export const isUploadRefusal = (code: string): code is UploadRefusal => (UPLOAD_REFUSALS as readonly string[]).includes(code);
