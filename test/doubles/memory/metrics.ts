/** Metrics a test reads back: every recorded event, in order. */
import type { MetricEvent, MetricName } from '#domain/metrics';
import type { Metrics } from '#ports/metrics';

export class RecordingMetrics implements Metrics {
  readonly events: MetricEvent[] = [];

  record(event: MetricEvent): void {
    this.events.push(event);
  }

  /** The events of one name. */
  named<N extends MetricName>(name: N): Extract<MetricEvent, { name: N }>[] {
    return this.events.filter((e): e is Extract<MetricEvent, { name: N }> => e.name === name);
  }
}
