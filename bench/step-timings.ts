/**
 * How long each pipeline step of a job took, as the job benchmarks read it: a `wrapStep` hook for the
 * section's runner (onLocalStack's `pipeline`) that times every step call, per job, and counts the
 * render-function steps running now.
 */
import type { LocalJobRunnerOptions } from '#local/job-runner';
import { PIPELINE_STEPS, type PipelineStep } from '#pipeline/steps';

export interface StepTime {
  step: PipelineStep;
  ms: number;
}

export interface StepTimings {
  /** For onLocalStack's `pipeline`: runs the step and records its time, whether it returned or threw. */
  wrapStep: NonNullable<LocalJobRunnerOptions['wrapStep']>;
  /** The job's steps in the order they ended; none recorded: an empty list. */
  of(jobId: number): StepTime[];
  /** Steps of the `render` function running now. */
  rendering(): number;
}

export function stepTimings(): StepTimings {
  const byJob = new Map<number, StepTime[]>();
  let rendering = 0;
  return {
    wrapStep: async (payload, call) => {
      const render = PIPELINE_STEPS[payload.step].fn === 'render';
      if (render) rendering++;
      const t0 = performance.now();
      try {
        return await call();
      } finally {
        if (render) rendering--;
        const list = byJob.get(payload.job_id) ?? [];
        list.push({ step: payload.step, ms: performance.now() - t0 });
        byJob.set(payload.job_id, list);
      }
    },
    of: (jobId) => byJob.get(jobId) ?? [],
    rendering: () => rendering,
  };
}
