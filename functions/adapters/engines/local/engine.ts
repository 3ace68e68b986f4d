/**
 * The `local` engine (docs/engines.md): avatars and reaction clips made on the CPU, offline, deterministic
 * for a seed. It dispatches on the avatar's rig: illustrated avatars (made here from a prompt) are
 * drawn by the illustrated renderer; photo avatars (uploads) by the photo renderer of the render wing's `face`,
 * handed in as a dependency. Reactions come from a prompt (an emotion's expression curve) or from a
 * reference clip (a MotionSource turns its landmarks into frames); both drive the same renderers.
 *
 * Every method renders into a private temp dir and puts the result in the blob store as its last
 * step; the temp dir is removed whatever happens.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  EngineError,
  REACTION_CLIP,
  type AvatarEngine,
  type AvatarRef,
  type GenerationOptions,
  type ReactionClip,
  type ReactionEngine,
} from '#ports/engine';
import {
  type Emotion,
  type ReactionFrame,
  reactionFrames,
  type CaptionOverlay,
  type EncodeStats,
  prepareIllustratedScene,
  isIllustratedRig,
  type IllustratedRig,
  renderClipToFile,
  handHeld,
  type FrameRenderer,
  renderCaptionPng,
  clipFaceBox,
  peakFrameIndex,
  type MotionSource,
  type PhotoRenderer,
} from '#render';
import { emotionFromPrompt } from './emotion-prompt';
import { checkAborted, fetchBlob, guard, storeBlob, withTempDir, type BlobFiles } from './engine-files';
import { drawAvatarFromPrompt, LOCAL_ENGINE as ENGINE } from './prompt-avatar';
import { voicedFrames } from './voiced-frames';

export type { BlobFiles } from './engine-files';
/** What the engine needs to animate photos and to read motion from a reference clip (the render wing's `face`). */
export type { MotionSource, PhotoRenderer } from '#render';

/**
 * Frames are drawn smaller than the output and scaled up by ffmpeg: per frame the raster, the warp
 * (photos), the camera transform and the canvas read-back (Skia's copy out, ~3 ms a megapixel) all
 * scale with pixels, Node draws on one core, and the frame pipe carries fewer bytes. The illustrated
 * scene is flat colour, gradients and smooth outlines, which a bicubic upscale from half size keeps
 * (SSIM against a full-size render ≥ 0.99, printed by `npm run bench -- --only engine`; the caption
 * goes on after scaling, at full size). Photos keep two thirds: a real face loses detail sooner, and
 * uploads are rarely sharper than that once the face is framed.
 */
export const RENDER_SIZE = { width: 540, height: 960 } as const;
const PHOTO_RENDER_SIZE = { width: 720, height: 1280 } as const;

const NO_FACE_IN_AVATAR = "We could not find a face in this avatar's image, so it cannot react; nothing was charged. Upload a photo of one person facing the camera as a new avatar";

export interface LocalEngineDeps {
  photo?: PhotoRenderer;
  motion?: MotionSource;
  /** The wiring's blob store. */
  blobs: BlobFiles;
  /** Where temp dirs go (default: the OS temp dir). */
  tmpDir?: string;
  /** Upper bound on one clip's encode (default 2 minutes). */
  renderTimeoutMs?: number;
}

export type LocalEngine = AvatarEngine & ReactionEngine & { readonly name: 'local' };


export function createLocalEngine(deps: LocalEngineDeps): LocalEngine {
  const tempDir = <T>(work: (dir: string) => Promise<T>) => withTempDir(deps.tmpDir ?? os.tmpdir(), work);

  async function rendererFor(avatar: AvatarRef, frames: readonly ReactionFrame[], dir: string, options: GenerationOptions): Promise<FrameRenderer> {
    if (isIllustratedRig(avatar.rig)) {
      return guard(() => prepareIllustratedScene(avatar.rig as IllustratedRig, frames, { seed: options.seed, ...RENDER_SIZE }), 'preparing the avatar failed');
    }
    if (isRigOfKind(avatar.rig, 'illustrated')) {
      throw new EngineError('invalid_input', 'this avatar cannot be animated: its stored description is damaged; create the avatar again');
    }
    // Anything else is a photo: an upload, with or without its landmarks.
    const photo = deps.photo;
    if (!photo) {
      throw new EngineError('invalid_input', 'photo avatars cannot be animated by this server yet; use an avatar made from a prompt');
    }
    const image = path.join(dir, 'avatar-image');
    await fetchBlob(deps.blobs, avatar.imageKey, image, 'the avatar image');
    checkAborted(options.signal);
    // An avatar stored without landmarks (an upload not yet rigged, a hosted engine's image) gets them
    // now: without them the photo renderer could only move the camera.
    const rig = avatar.rig ?? (photo.rigFromImage ? await photo.rigFromImage(image, { signal: options.signal }) : null);
    checkAborted(options.signal);
    // A photo without a face (stored before uploads were checked for one) would come out as a still
    // the camera moves: no reaction, so the render fails and the job's unit goes back.
    if (!rig && photo.rigFromImage) throw new EngineError('invalid_input', NO_FACE_IN_AVATAR);
    return photo.prepare(image, rig ?? null, { ...PHOTO_RENDER_SIZE, signal: options.signal });
  }

  /** `longer` re-plans the reaction at a frame count, for a spoken line that outlasts it. */
  async function renderAndStore(
    avatar: AvatarRef,
    planned: ReactionFrame[],
    options: GenerationOptions,
    emotion: Emotion | null,
    longer?: (frameCount: number) => ReactionFrame[],
  ): Promise<ReactionClip> {
    checkAborted(options.signal);
    return tempDir(async (dir) => {
      const voice = options.voiceLine?.trim() ? await voicedFrames(options.voiceLine, planned, dir, { signal: options.signal, longer }) : null;
      const frames = voice?.frames ?? planned;
      checkAborted(options.signal);
      // Every method is filmed hand-held: without it the backdrop stood still behind the person.
      const renderer = handHeld(await rendererFor(avatar, frames, dir, options), options.seed);
      checkAborted(options.signal);
      const file = path.join(dir, 'reaction.mp4');
      // Drawn here, so where the face goes is known: the caption (and any drawn later for this clip) keeps off it.
      const faceBox = clipFaceBox(renderer, frames, REACTION_CLIP.width, REACTION_CLIP.height);
      const caption = options.caption?.text.trim() ? { ...options.caption, avoid: faceBox } : null;
      let overlay: CaptionOverlay | undefined;
      if (caption) {
        const image = await renderCaptionPng(caption);
        overlay = { path: path.join(dir, 'caption.png'), box: image.box };
        await fsp.writeFile(overlay.path, image.png);
      }
      const peak = peakFrameIndex(frames);
      const poster = options.posterKey ? { path: path.join(dir, 'poster.jpg'), frame: peak } : undefined;
      await renderClipToFile(renderer, frames, file, { signal: options.signal, timeoutMs: deps.renderTimeoutMs, overlay, poster, audioPath: voice?.audioPath });
      const { size } = await fsp.stat(file);
      checkAborted(options.signal);
      await storeBlob(deps.blobs, options.outputKey, file, 'video/mp4');
      let posterFile: ReactionClip['poster'];
      if (poster && options.posterKey) {
        await storeBlob(deps.blobs, options.posterKey, poster.path, 'image/jpeg');
        posterFile = { key: options.posterKey, contentType: 'image/jpeg', sizeBytes: (await fsp.stat(poster.path)).size };
      }
      return {
        video: { key: options.outputKey, contentType: 'video/mp4', sizeBytes: size },
        durationS: frames.length / REACTION_CLIP.fps,
        width: REACTION_CLIP.width,
        height: REACTION_CLIP.height,
        fps: REACTION_CLIP.fps,
        seed: options.seed,
        emotion,
        engine: ENGINE,
        voice: voice !== null,
        peakS: peak / REACTION_CLIP.fps,
        captioned: caption,
        faceBox,
        poster: posterFile,
      };
    });
  }

  const engine: LocalEngine = {
    name: ENGINE,

    avatarFromPrompt: (prompt, options) => drawAvatarFromPrompt(deps, prompt, options),

    async reactionFromPrompt(avatar: AvatarRef, prompt: string, options: GenerationOptions): Promise<ReactionClip> {
      const read = emotionFromPrompt(prompt);
      const plan = { emotion: read.emotion, intensity: read.intensity, seed: options.seed };
      const frames = reactionFrames({ ...plan, durationS: read.durationS });
      return renderAndStore(avatar, frames, options, read.emotion, (count) => reactionFrames({ ...plan, durationS: count / REACTION_CLIP.fps }));
    },

    async reactionFromMotion(avatar: AvatarRef, referenceKey: string, options: GenerationOptions): Promise<ReactionClip> {
      const motion = deps.motion;
      if (!motion) {
        throw new EngineError('invalid_input', 'reactions that copy a reference clip are not available on this server yet; describe the reaction in a prompt instead');
      }
      checkAborted(options.signal);
      const frames = await tempDir(async (dir) => {
        const reference = path.join(dir, 'reference');
        await fetchBlob(deps.blobs, referenceKey, reference, 'the reference clip');
        checkAborted(options.signal);
        return motion.framesFromReference(reference, REACTION_CLIP.fps, REACTION_CLIP.maxS * REACTION_CLIP.fps, { signal: options.signal });
      });
      if (frames.length === 0) {
        throw new EngineError('invalid_input', 'no usable face motion was found in the reference clip; use a clip where one face is clearly visible');
      }
      return renderAndStore(avatar, fitToClipLength(frames), options, null);
    },
  };

  if (deps.photo?.rigFromImage) {
    const rigFromImage = deps.photo.rigFromImage.bind(deps.photo);
    engine.rigForUpload = (imageKey, options) =>
      tempDir(async (dir) => {
        const image = path.join(dir, 'upload');
        await fetchBlob(deps.blobs, imageKey, image, 'the uploaded image');
        checkAborted(options.signal);
        return rigFromImage(image, options);
      });
  }
  return engine;
}

/**
 * Motion from a clip shorter than the shortest reaction holds its last pose to the minimum length
 * (a reaction that stops dead reads as a glitch); a longer one was already cut by the MotionSource.
 */
export function fitToClipLength(frames: ReactionFrame[]): ReactionFrame[] {
  const min = REACTION_CLIP.minS * REACTION_CLIP.fps;
  const max = REACTION_CLIP.maxS * REACTION_CLIP.fps;
  const out = frames.slice(0, max);
  while (out.length < min) out.push(out[out.length - 1]!);
  return out;
}

/** Renders a prompt's reaction for an illustrated rig to a local file: the engine minus the blob store. */
export async function renderPromptReactionToFile(
  rig: IllustratedRig,
  prompt: string,
  outputPath: string,
  options: { seed: number; signal?: AbortSignal; timeoutMs?: number },
): Promise<{ emotion: Emotion; durationS: number; frames: ReactionFrame[]; stats: EncodeStats }> {
  const read = emotionFromPrompt(prompt);
  const frames = reactionFrames({ emotion: read.emotion, intensity: read.intensity, durationS: read.durationS, seed: options.seed });
  const scene = await prepareIllustratedScene(rig, frames, { seed: options.seed, ...RENDER_SIZE });
  const stats = await renderClipToFile(handHeld(scene, options.seed), frames, outputPath, { signal: options.signal, timeoutMs: options.timeoutMs });
  return { emotion: read.emotion, durationS: frames.length / REACTION_CLIP.fps, frames, stats };
}

function isRigOfKind(rig: unknown, kind: string): boolean {
  return !!rig && typeof rig === 'object' && (rig as { kind?: unknown }).kind === kind;
}

