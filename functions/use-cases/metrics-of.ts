import type { Metrics } from '#ports/metrics';

const unobserved: Metrics = { record: () => undefined };

/** The metrics a use case or step was handed, or none: metrics observe and decide nothing, so unit tests may leave them out. */
export const metricsOf = (deps: { metrics?: Metrics }): Metrics => deps.metrics ?? unobserved;
