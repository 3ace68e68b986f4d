/**
 * ChargePreview: a preview is what the unit pays for, so it is charged when it is ready. It also fixes
 * the job's one preview deadline (the first time) and answers how long AwaitDecision may still wait
 * for it (the ASL's TimeoutSecondsPath), so a regeneration never restarts the wait.
 */
import type { Ports } from '#ports/ports';
import { activeJob, saveProgress } from '#pipeline/job-context';
import { DECISION_WAIT_MIN_S, STATE_OF_STEP, type StepPayload } from '#pipeline/steps';
import { chargeCurrentRound } from './charges';

/** What the ASL keeps of the answer (ResultSelector): AwaitDecision's TimeoutSecondsPath reads it. */
export interface DecisionWait {
  decision_wait_s: number;
}

/** Whole seconds from `now` to the deadline; a deadline already past still gets the shortest wait. */
const decisionWaitS = (deadline: string, now: Date): number =>
  Math.max(DECISION_WAIT_MIN_S, Math.ceil((Date.parse(deadline) - now.getTime()) / 1000));

export async function chargePreview(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'ledger' | 'now' | 'previewWaitS'>): Promise<DecisionWait> {
  const job = await activeJob(deps, payload);
  const now = deps.now();
  // A job that ended meanwhile has nothing to wait for: the shortest wait ends its execution soon.
  if (!job) return { decision_wait_s: DECISION_WAIT_MIN_S };
  const deadline = job.preview_deadline ?? new Date(now.getTime() + deps.previewWaitS * 1000).toISOString();
  // One write after the charge: a crash before it resumes at RenderPreview, and both steps repeat safely.
  await saveProgress(deps, job, { resume_at: STATE_OF_STEP.charge_preview, charged_units: await chargeCurrentRound(deps, job), preview_deadline: deadline });
  return { decision_wait_s: decisionWaitS(deadline, now) };
}
