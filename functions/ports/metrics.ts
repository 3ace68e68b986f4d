/** Business metrics: what happened, told once where it happens (the events are in domain/metrics). */
import type { MetricEvent } from '#domain/metrics';

export interface Metrics {
  /** Never throws and never waits: a metric that cannot be written must not fail the work it counts. */
  record(event: MetricEvent): void;
}
