/** RenderPreview: the captioned reaction segment, playable alone at preview_url. */
import { join } from 'node:path';
import { getToFile, putFile } from '#adapters/s3/blob-store';
import { captionOf, jobObjectKeys } from '#domain/jobs';
import { captionSegment } from '#media/compose';
import { activeJob, blameDeletedInput, enterStep, requireInputs, saveProgress, withScratch } from '#pipeline/job-context';
import { PipelineError, toPipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';

export async function renderPreview(payload: StepPayload): Promise<void> {
  let job = await activeJob(payload);
  if (!job) return;
  await requireInputs(job);
  job = await enterStep(job, 'render_preview', 'rendering_preview');
  const reaction = job.reaction;
  if (!reaction) throw new PipelineError('internal_error', `Job ${job.id} reached the preview without a reaction clip`);
  const key = jobObjectKeys(job.account_id, job.id, job.regenerations).preview;
  const caption = captionOf(job);
  const durationS = await withScratch(async (dir) => {
    try {
      await getToFile(reaction.key, join(dir, 'reaction.mp4'));
      const segment = await captionSegment({ reactionPath: join(dir, 'reaction.mp4'), caption, outputPath: join(dir, 'preview.mp4') });
      await putFile(key, join(dir, 'preview.mp4'), 'video/mp4');
      return segment.durationS;
    } catch (error) {
      throw toPipelineError(await blameDeletedInput(job, error), 'render_failed');
    }
  });
  await saveProgress(job, { preview: { key, duration_s: durationS, caption } });
}
