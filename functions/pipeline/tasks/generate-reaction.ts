/**
 * GenerateReaction: the round's reaction clip from the engine. Prompt jobs without an avatar get a
 * person drawn from the prompt first; motion jobs animate it with their stored reference clip. A clip
 * whose engine does not say where the face is (a hosted one) has it looked for (reaction-face.ts).
 * A hosted engine that calls back (ReactionEngine.callsBack), on a stack with an address for its
 * webhooks, waits by callback: the step answers awaiting_provider and the execution parks at
 * AwaitProvider (await-provider.ts) until the webhook; the next entry reattaches to the kept requests.
 */
import { join } from 'node:path';
import { REFERENCE_CLIP_LIMITS } from '#ports/reference-resolver';
import { isEngineError, isProviderPending, type AvatarRef, type GenerationOptions } from '#ports/engine';
import type { PartOf, Ports } from '#ports/ports';
import { captionOf, jobObjectKeys, soundOfJob } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import type { Avatar } from '#domain/avatar';
import { activeJob, enterStep, requireInputs, saveProgress, withScratch, type InputDeps } from '#pipeline/job-context';
import { PipelineError, toPipelineError } from '#pipeline/errors';
import type { StepPayload } from '#pipeline/steps';
import { generateWithFace } from './reaction-face';
import { jobRequestLog } from '#pipeline/provider-requests';
import { callbackFor } from '#pipeline/provider-callback';
import { engineRequestOf } from '#domain/test-mode';

type GenerateDeps = Pick<Ports, 'jobs' | 'blobs' | 'references' | 'products' | 'avatars' | 'stockAvatars' | 'reactions' | 'providerCallbackUrl'> &
  PartOf<'engines', 'reaction' | 'avatar'> &
  PartOf<'faces', 'faceBoxInClip'>;

/** What IsGenerated reads: whether the round waits for its provider's webhook at AwaitProvider. */
export interface GenerationAnswer {
  awaiting_provider: boolean;
}

const GENERATED: GenerationAnswer = { awaiting_provider: false };

export async function generateReaction(payload: StepPayload, deps: GenerateDeps, signal?: AbortSignal): Promise<GenerationAnswer> {
  let job = await activeJob(deps, payload);
  // A reuse job's clip is the saved one, recorded by prepare. Passing it through here, rather than
  // branching around this state, keeps one state transition off every generated job's bill.
  if (!job || job.method === 'reuse') return GENERATED;
  const { avatar } = await requireInputs(deps, job);
  // A hosted engine is handed the portrait: a stock one is drawn here if this stack never listed avatars yet.
  if (avatar?.stock) await deps.stockAvatars.ensureImages();
  const engine = await deps.engines.reaction(engineRequestOf(job.account_id)).catch((error: unknown) => {
    throw toPipelineError(error, 'generation_failed');
  });
  // Waiting by callback: the round's secret is kept (with the step's entry, no extra write) before anything is submitted.
  const byCallback = engine.callsBack ? callbackFor(deps, job) : null;
  job = await enterStep(deps, job, 'generate_reaction', 'generating_reaction', { reaction: null, preview: null, ...(byCallback ? { provider_wait: byCallback.wait } : {}) });
  const callback = byCallback?.callback;
  const keys = jobObjectKeys(job.account_id, job.id, job.regenerations);
  const watch = watchInputs(deps, job, signal);
  const requests = jobRequestLog(deps, job);
  try {
    // An auto job's clip is its finished segment: the caption is burnt in while the engine encodes, so
    // the reaction is encoded once. A preview's clip stays clean: it may be saved, reused or re-captioned.
    // ...and it opens the finished video as it is, so its poster can be written on the way too.
    const auto = job.mode === 'auto';
    const motion = job.method === 'motion' ? { avatar: avatarRefOf(requireAvatar(job, avatar)), referenceKey: await referenceKeyOf(deps, job, watch.signal) } : null;
    const clip = await generateWithFace(deps, job.seed, async (seed) => {
      const options = { seed, outputKey: keys.reaction, signal: watch.signal, caption: auto ? captionOf(job) : null, posterKey: auto ? keys.poster : undefined, voiceLine: soundOfJob(job).voiceLine, requests, callback };
      return motion
        ? engine.reactionFromMotion(motion.avatar, motion.referenceKey, options)
        : engine.reactionFromPrompt(await avatarForPrompt(deps, job, avatar, { seed, signal: watch.signal, requests, callback }), job.prompt ?? '', options);
    });
    await saveProgress(deps, job, {
      reaction: {
        key: clip.video.key,
        duration_s: clip.durationS,
        emotion: clip.emotion,
        engine: clip.engine,
        seed: clip.seed,
        voice: clip.voice ?? false,
        peak_s: clip.peakS ?? null,
        captioned: clip.captioned ?? null,
        face_box: clip.faceBox ?? null,
        poster_key: clip.poster?.key ?? null,
      },
    });
  } catch (error) {
    // Submitted and kept: the execution parks until the webhook, and this step reattaches then.
    if (isProviderPending(error) && !watch.inputGone()) return { awaiting_provider: true };
    // A generation stopped because an input was deleted says so, not "cancelled".
    throw toPipelineError(watch.inputGone() ?? error, 'generation_failed');
  } finally {
    watch.stop();
  }
  return GENERATED;
}

const INPUT_CHECK_MS = 2000;

/**
 * Generation is the long step: an input deleted meanwhile (the product, the avatar) stops it within a
 * couple of seconds instead of letting it render to the end, and the job fails with input_deleted.
 */
function watchInputs(deps: InputDeps, job: StoredJob, outer?: AbortSignal) {
  const controller = new AbortController();
  let gone: PipelineError | undefined;
  // Stops with the step, and also when the step is abandoned (its signal fired but an engine ignores it).
  const stop = () => {
    clearInterval(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  };
  const onOuterAbort = () => {
    stop();
    controller.abort(outer?.reason);
  };
  const timer = setInterval(() => {
    requireInputs(deps, job).catch((error: unknown) => {
      if (error instanceof PipelineError && error.code === 'input_deleted' && !gone) {
        gone = error;
        stop();
        controller.abort(error);
      }
    });
  }, INPUT_CHECK_MS);
  timer.unref();
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return { signal: controller.signal, inputGone: () => gone, stop };
}

function requireAvatar(job: StoredJob, avatar: Avatar | null): Avatar {
  if (!avatar) throw new PipelineError('invalid_input', `Job ${job.id} has no avatar to animate`);
  return avatar;
}

function avatarRefOf(avatar: Avatar): AvatarRef {
  if (!avatar.image_key || avatar.width === null || avatar.height === null) {
    throw new PipelineError('invalid_input', `Avatar ${avatar.id} has no image yet; wait until it is ready`);
  }
  return { id: avatar.id, source: avatar.source, imageKey: avatar.image_key, width: avatar.width, height: avatar.height, prompt: avatar.prompt, rig: avatar.rig };
}

/** Without avatar_id the engine picks the person from the prompt: a portrait is drawn for this job. */
async function avatarForPrompt(
  deps: GenerateDeps,
  job: StoredJob,
  avatar: Avatar | null,
  generation: Pick<GenerationOptions, 'seed' | 'signal' | 'requests' | 'callback'>,
): Promise<AvatarRef> {
  if (avatar) return avatarRefOf(avatar);
  const made = await (await deps.engines.avatar(engineRequestOf(job.account_id))).avatarFromPrompt(job.prompt ?? '', {
    ...generation,
    outputKey: `${jobObjectKeys(job.account_id, job.id, job.regenerations).reaction}.avatar.png`,
  });
  return { id: 0, source: 'prompt', imageKey: made.image.key, width: made.width, height: made.height, prompt: job.prompt, rig: made.rig };
}

/**
 * The stored clip: uploaded, or fetched from its link and judged at the door, so the render uses the
 * very bytes that were checked. Only a job written before links were fetched at the door has a link
 * and no clip: it is fetched now (size and duration capped while downloading) and kept as its clip.
 */
async function referenceKeyOf(deps: GenerateDeps, job: StoredJob, signal?: AbortSignal): Promise<string> {
  if (job.reference_key) return job.reference_key;
  if (!job.reference_url) throw new PipelineError('invalid_input', `Job ${job.id} has no reference clip`);
  const key = jobObjectKeys(job.account_id, job.id, job.regenerations).reference;
  await withScratch(async (dir) => {
    let resolved;
    try {
      resolved = await deps.references.resolve(job.reference_url!, { ...REFERENCE_CLIP_LIMITS, destinationPath: join(dir, 'reference'), signal });
    } catch (error) {
      // A link the user must change keeps its own advice; network trouble is retried, then reported as such.
      if (isEngineError(error) && error.code !== 'invalid_input' && error.code !== 'cancelled') {
        throw new PipelineError('reference_unavailable', `The reference clip could not be downloaded: ${error.message}`, { retryable: error.retryable, cause: error });
      }
      throw error;
    }
    await deps.blobs.putFile(key, resolved.path, resolved.contentType || 'video/mp4');
  });
  await saveProgress(deps, job, { reference_key: key });
  return key;
}
