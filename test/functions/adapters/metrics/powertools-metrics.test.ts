import { powertoolsMetrics } from '#adapters/metrics/powertools-metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#domain/metrics';

/** The Embedded Metric Format lines written to stdout while `record` runs (what CloudWatch Logs would read). */
function emfLinesOf(record: () => void): any[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    record();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l));
}

const dimensionsOf = (line: any): string[][] => line._aws.CloudWatchMetrics[0].Dimensions;

describe('Powertools metrics (Lambda)', () => {
  test('a failed job is one line by service (for alarms) and one by service and error code (for the dashboard)', () => {
    const lines = emfLinesOf(() => powertoolsMetrics().record({ name: 'JobsFailed', code: 'engine_failed' }));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: METRICS_NAMESPACE, Metrics: [{ Name: 'JobsFailed', Unit: 'Count' }] });
      expect(line).toMatchObject({ service: SERVICE_NAME, JobsFailed: 1 });
    }
    expect(lines.map(dimensionsOf)).toEqual([[['service']], [['service', 'error_code']]]);
    expect(lines[1].error_code).toBe('engine_failed');
  });

  test('render time is written in seconds, by step', () => {
    const lines = emfLinesOf(() => powertoolsMetrics().record({ name: 'RenderSeconds', step: 'compose', seconds: 12.5 }));
    expect(lines.map((l) => [l.RenderSeconds, l.step, l._aws.CloudWatchMetrics[0].Metrics[0].Unit])).toEqual([
      [12.5, undefined, 'Seconds'],
      [12.5, 'compose', 'Seconds'],
    ]);
  });

  test('events without a dimension are one line; charged units carry their count', () => {
    const lines = emfLinesOf(() => {
      const metrics = powertoolsMetrics();
      metrics.record({ name: 'JobsStarted' });
      metrics.record({ name: 'UnitsCharged', units: 2 });
    });
    expect(lines.map((l) => [dimensionsOf(l), l.JobsStarted ?? l.UnitsCharged])).toEqual([
      [[['service']], 1],
      [[['service']], 2],
    ]);
  });

  test('a failure without an error code still counts by service, and only there', () => {
    const lines = emfLinesOf(() => powertoolsMetrics().record({ name: 'JobsFailed', code: '' }));
    expect(lines.map(dimensionsOf)).toEqual([[['service']]]);
  });
});
