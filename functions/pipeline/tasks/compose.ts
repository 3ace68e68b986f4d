/**
 * Compose: the finished MP4. Only the reaction segment is encoded (with its caption); the product's
 * normalised demo joins it by stream copy. An approved preview whose caption was not
 * overridden is reused as the segment, so approving encodes nothing. A test job's video
 * (domain/test-mode) has TEST burnt into every frame: its segment and demo are encoded with the label.
 */
import { join } from 'node:path';
import { captionOf, hookOfJob, peakWithin, sameCaption } from '#domain/jobs';
import { videoObjectKeys } from '#domain/video';
import { accountOfScope, isTestScope, TEST_WATERMARK } from '#domain/test-mode';
import { planInForce } from '#domain/plan-change';
import { fileExpiry, retentionClasses, retentionOfPlan, retentionTags, type VideoRetention } from '#domain/video-retention';
import { jobSoundFiles } from '#pipeline/job-sound';
import type { Ports } from '#ports/ports';
import { activeJob, blameDeletedInput, enterStep, requireInputs, saveProgress, withScratch } from '#pipeline/job-context';
import { PipelineError, toPipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';

type ComposeDeps = Pick<Ports, 'jobs' | 'blobs' | 'videos' | 'products' | 'avatars' | 'stockAvatars' | 'reactions' | 'sounds' | 'music' | 'composer' | 'accounts' | 'now'>;

/**
 * The retention of the plan in force now (a test scope's: its account's), fixed on the files as
 * their tag and on the record: a later plan change leaves both (docs/decisions.md, Video retention).
 */
async function retentionNow(deps: Pick<ComposeDeps, 'accounts' | 'now'>, scopeId: number): Promise<VideoRetention> {
  const account = await deps.accounts.get(accountOfScope(scopeId));
  // An account gone mid-job makes a video no one lists; the shortest class keeps it the least.
  return account ? retentionOfPlan(planInForce(account, deps.now())) : retentionClasses()[0]!;
}

export async function compose(payload: StepPayload, deps: ComposeDeps): Promise<void> {
  const { blobs, composer } = deps;
  let job = await activeJob(deps, payload);
  if (!job) return;
  const { product } = await requireInputs(deps, job);
  // The id is taken once and kept on the job, so a retried compose overwrites its own files.
  job = await enterStep(deps, job, 'compose', 'composing', job.output ? {} : { output: null });
  const videoId = job.output?.video_id ?? (await deps.videos.newVideoId(job.account_id));
  const reaction = job.reaction;
  if (!reaction) throw new PipelineError('internal_error', `Job ${job.id} reached composition without a reaction clip`);
  const demo =
    product.demo?.status === 'ready' && product.demo.key
      ? { key: product.demo.key, durationS: product.demo.duration_s ?? 0, encoding: product.demo.encoding, loudnessLufs: product.demo.loudness_lufs }
      : null;
  const keys = videoObjectKeys(job.account_id, videoId);
  const caption = captionOf(job);
  const watermark = isTestScope(job.account_id) ? TEST_WATERMARK : null;
  const retention = await retentionNow(deps, job.account_id);
  const stored = { tags: retentionTags(retention) };
  // A segment already made with this caption is joined as it is: the engine's clip (canonical, with
  // the caption burnt in for auto jobs, or clean when there is no caption) or the approved preview.
  // Only otherwise is the reaction encoded here.
  const readySegment = sameCaption(reaction.captioned ?? null, caption)
      ? { key: reaction.key, duration_s: reaction.duration_s, poster_key: reaction.poster_key ?? null }
      : job.preview && sameCaption(job.preview.caption, caption)
        ? job.preview
        : null;

  const output = await withScratch(async (dir) => {
    try {
      const segmentPath = join(dir, 'segment.mp4');
      // The demo downloads while the segment is fetched or encoded.
      const demoFetched = demo ? blobs.getToFile(demo.key, join(dir, 'demo.mp4')) : Promise.resolve();
      demoFetched.catch(() => undefined);
      // The voice is the engine's clip's own audio: the segment's when the segment is that clip.
      const voiceFromSegment = readySegment?.key === reaction.key;
      const soundFetched = jobSoundFiles(deps, job, { withDemo: demo !== null, dir, voicePath: voiceFromSegment ? segmentPath : join(dir, 'reaction.mp4') });
      soundFetched.catch(() => undefined);
      let segmentDurationS: number;
      if (readySegment && watermark) {
        // Its caption is already drawn: only the label is laid over it.
        await blobs.getToFile(readySegment.key, join(dir, 'ready.mp4'));
        segmentDurationS = (await composer.captionSegment({ reactionPath: join(dir, 'ready.mp4'), caption: null, watermark, outputPath: segmentPath })).durationS;
        if (reaction.voice && !voiceFromSegment) await blobs.getToFile(reaction.key, join(dir, 'reaction.mp4'));
      } else if (readySegment) {
        await blobs.getToFile(readySegment.key, segmentPath);
        segmentDurationS = readySegment.duration_s;
        if (reaction.voice && !voiceFromSegment) await blobs.getToFile(reaction.key, join(dir, 'reaction.mp4'));
      } else {
        await blobs.getToFile(reaction.key, join(dir, 'reaction.mp4'));
        segmentDurationS = (await composer.captionSegment({ reactionPath: join(dir, 'reaction.mp4'), caption, watermark, outputPath: segmentPath })).durationS;
      }
      await demoFetched;
      const joined = await composer.join({
        segmentPath,
        segmentDurationS,
        demo: demo ? { path: join(dir, 'demo.mp4'), durationS: demo.durationS, encoding: demo.encoding, loudnessLufs: demo.loudnessLufs } : null,
        sound: await soundFetched,
        demoCaption: hookOfJob(job).duration === 'full' ? caption : null,
        watermark,
        outputPath: join(dir, 'video.mp4'),
      });
      const writtenAt = deps.now();
      await blobs.putFile(keys.video, join(dir, 'video.mp4'), 'video/mp4', stored);
      // The engine's poster is the same frame of the same segment, written while it was encoded.
      // A watermarked video's poster is cut from it, so it shows the label too.
      const enginePoster = !watermark && readySegment && 'poster_key' in readySegment ? readySegment.poster_key : null;
      if (enginePoster) {
        await blobs.copy(enginePoster, keys.poster, stored);
      } else {
        const atS = peakWithin(reaction, segmentDurationS) ?? composer.defaultPosterTimeS(segmentDurationS);
        await composer.poster({ videoPath: join(dir, 'video.mp4'), atS, outputPath: join(dir, 'poster.jpg') });
        await blobs.putFile(keys.poster, join(dir, 'poster.jpg'), 'image/jpeg', stored);
      }
      return {
        video_id: videoId,
        key: keys.video,
        poster_key: keys.poster,
        duration_s: joined.durationS,
        size_bytes: joined.sizeBytes,
        retention_days: retention.days,
        file_expires_at: fileExpiry(writtenAt, retention.days).toISOString(),
      };
    } catch (error) {
      throw toPipelineError(await blameDeletedInput(deps, job, error), 'render_failed');
    }
  });
  await saveProgress(deps, job, { output });
}
