/** ChargePreview: a preview is what the unit pays for, so it is charged when it is ready. */
import { activeJob, saveProgress } from '#pipeline/job-context';
import { chargeCurrentRound } from './charges';
import type { StepPayload } from '#pipeline/steps';
import { STATE_OF_STEP } from '#pipeline/steps';

export async function chargePreview(payload: StepPayload): Promise<void> {
  const job = await activeJob(payload);
  if (!job) return;
  // One write after the charge: a crash before it resumes at RenderPreview, and both steps repeat safely.
  await saveProgress(job, { resume_at: STATE_OF_STEP.charge_preview, charged_units: await chargeCurrentRound(job) });
}
