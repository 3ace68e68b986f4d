/**
 * RenderPreview: the captioned reaction segment, playable alone at preview_url. It is the round's take
 * (domain/takes.ts), recorded beside the earlier ones in the same write, under the round's number, so
 * a retried step records it once.
 */
import { join } from 'node:path';
import { captionOf, jobObjectKeys, peakWithin } from '#domain/jobs';
import { takeOfRound, withTake } from '#domain/takes';
import { jobSoundFiles } from '#pipeline/job-sound';
import type { Ports } from '#ports/ports';
import { activeJob, blameDeletedInput, enterStep, requireInputs, saveProgress, withScratch } from '#pipeline/job-context';
import { PipelineError, toPipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';

export async function renderPreview(payload: StepPayload, deps: Pick<Ports, 'jobs' | 'blobs' | 'products' | 'avatars' | 'stockAvatars' | 'reactions' | 'sounds' | 'music' | 'composer' | 'now'>): Promise<void> {
  const { blobs, composer } = deps;
  let job = await activeJob(deps, payload);
  if (!job) return;
  await requireInputs(deps, job);
  job = await enterStep(deps, job, 'render_preview', 'rendering_preview');
  const reaction = job.reaction;
  if (!reaction) throw new PipelineError('internal_error', `Job ${job.id} reached the preview without a reaction clip`);
  const keys = jobObjectKeys(job.account_id, job.id, job.regenerations);
  const key = keys.preview;
  const caption = captionOf(job);
  // A clip with its caption burnt in has no bare frame to offer.
  const stillKey = reaction.captioned ? null : keys.previewStill;
  const durationS = await withScratch(async (dir) => {
    try {
      const reactionPath = join(dir, 'reaction.mp4');
      await blobs.getToFile(reaction.key, reactionPath);
      const sound = jobSoundFiles(deps, job, { withDemo: false, dir, voicePath: reactionPath });
      sound.catch(() => undefined);
      const segment = await composer.captionSegment({ reactionPath, caption, outputPath: join(dir, 'segment.mp4') });
      // The preview sounds as the finished video's opening will: the reaction's sound, levelled.
      await composer.join({ segmentPath: join(dir, 'segment.mp4'), segmentDurationS: segment.durationS, demo: null, sound: await sound, outputPath: join(dir, 'preview.mp4') });
      await blobs.putFile(key, join(dir, 'preview.mp4'), 'video/mp4');
      if (stillKey) {
        const atS = peakWithin(reaction, segment.durationS) ?? composer.defaultPosterTimeS(segment.durationS);
        await composer.poster({ videoPath: reactionPath, atS, outputPath: join(dir, 'still.jpg') });
        await blobs.putFile(stillKey, join(dir, 'still.jpg'), 'image/jpeg');
      }
      return segment.durationS;
    } catch (error) {
      throw toPipelineError(await blameDeletedInput(deps, job, error), 'render_failed');
    }
  });
  const preview = { key, duration_s: durationS, caption, still_key: stillKey };
  await saveProgress(deps, job, { preview, takes: withTake(job, takeOfRound(job, reaction, preview, deps.now().toISOString())) });
}
