/**
 * Metrics on Lambda: Powertools writes each event as one Embedded Metric Format line to the function's
 * log, which CloudWatch turns into metrics; no API call, nothing to flush at the end of an invocation.
 */
import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRIC_SHAPES, METRICS_NAMESPACE, SERVICE_NAME, type MetricEvent } from '#domain/metrics';
import type { Metrics } from '#ports/metrics';

const valueOf = (event: MetricEvent): number => ('seconds' in event ? event.seconds : 'units' in event ? event.units : 1);
const dimensionValueOf = (event: MetricEvent): string | undefined =>
  'code' in event ? event.code : 'step' in event ? event.step : 'reason' in event ? event.reason : undefined;

export function powertoolsMetrics(): Metrics {
  const metrics = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  return {
    record(event) {
      try {
        const { dimension, unit } = METRIC_SHAPES[event.name];
        const value = valueOf(event);
        // Once by `service` alone (what alarms watch), once more by the event's own dimension (what the dashboard splits by).
        metrics.singleMetric().addMetric(event.name, MetricUnit[unit], value);
        const dimensionValue = dimensionValueOf(event);
        if (dimension && dimensionValue) metrics.singleMetric().addDimension(dimension, dimensionValue).addMetric(event.name, MetricUnit[unit], value);
      } catch {
        // A malformed metric (e.g. an empty dimension) is dropped rather than failing the job or request it counts.
      }
    },
  };
}
