/** ChargePreview: a preview is what the unit pays for, so it is charged when it is ready. */
import type { Dependencies } from '#ports/dependencies';
import { activeJob, saveProgress } from '#pipeline/job-context';
import { STATE_OF_STEP, type StepPayload } from '#pipeline/steps';
import { chargeCurrentRound } from './charges';

export async function chargePreview(payload: StepPayload, deps: Pick<Dependencies, 'jobs' | 'ledger' | 'now'>): Promise<void> {
  const job = await activeJob(deps, payload);
  if (!job) return;
  // One write after the charge: a crash before it resumes at RenderPreview, and both steps repeat safely.
  await saveProgress(deps, job, { resume_at: STATE_OF_STEP.charge_preview, charged_units: await chargeCurrentRound(deps, job) });
}
