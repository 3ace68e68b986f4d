/**
 * AwaitCapacity: a render Task was refused for capacity (domain/capacity-wait.ts). The job shows
 * `waiting_for_capacity` and records the state to go back to (a restarted local runner re-enters it
 * there); the state machine waits the seconds answered, then tries that Task again. Past the hour the
 * job fails with capacity_unavailable, and MarkFailed releases its reserved unit.
 */
import { nextCapacityWait } from '#domain/capacity-wait';
import { JOB_STATE, type JobStateName } from '#domain/job-states';
import type { Ports } from '#ports/ports';
import { activeJob, IN_FLIGHT } from '#pipeline/job-context';
import { PipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';

/** The render Tasks whose throttle is caught into the loop. */
const RENDER_STATES: readonly JobStateName[] = [JOB_STATE.GenerateReaction, JOB_STATE.RenderPreview, JOB_STATE.Compose];

export interface CapacityDecision {
  wait_s: number;
  resume: JobStateName;
}

export async function awaitCapacity(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'now'>, random: () => number = Math.random): Promise<CapacityDecision> {
  const throttled = RENDER_STATES.filter((state) => payload.throttled?.[state] !== undefined);
  if (throttled.length !== 1) throw new PipelineError('internal_error', `AwaitCapacity expects one throttled render state, got ${JSON.stringify(payload.throttled ?? null)}`);
  const resume = throttled[0]!;
  const job = await activeJob(deps, payload);
  // A job that ended meanwhile: its step sees that at once and the machine goes on to its end.
  if (!job) return { wait_s: 1, resume };
  const next = nextCapacityWait(job.capacity_wait, deps.now(), random);
  if ('givesUp' in next) throw new PipelineError('capacity_unavailable', 'No render capacity was free for an hour; try again later');
  await deps.jobs.update(job.account_id, job.id, { stage: 'waiting_for_capacity', capacity_wait: next.wait, resume_at: resume }, { statusIn: IN_FLIGHT });
  return { wait_s: next.waitS, resume };
}
