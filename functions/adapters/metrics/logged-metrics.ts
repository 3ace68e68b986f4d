/** Metrics off AWS: each event is a debug line of the log (LOG_LEVEL=DEBUG shows them); nothing is aggregated. */
import type { Metrics } from '#ports/metrics';

export const loggedMetrics = (log: { debug(message: string, fields: Record<string, unknown>): void }): Metrics => ({
  record: (event) => log.debug('metric', { metric: event }),
});
