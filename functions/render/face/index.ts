/**
 * The photo side of the local engine, shaped as the engine's dependencies (`LocalEngineDeps.photo`
 * and `.motion` in functions/adapters/engines/local/engine.ts): photo avatars drawn with a warped face,
 * rigs for uploads, and motion taken from a reference clip.
 *
 * Importing this module loads no tfjs: human and its models load on the first detection.
 */
import { EngineError } from '#ports/engine';
import type { ReactionFrame } from '../reaction/animation';
import type { FrameRenderer } from '../reaction/reaction-clip';
import { detectFace } from './image-face';
import { drawPhotoFrame, photoFaceBox, preparePhoto } from './photo-renderer';
import { framesFromReference } from './reference-motion';

export { detectFace } from './image-face';
export { isFaceRig, type FaceRig } from './landmarks';
export { drawPhotoFrame, photoFaceBox, preparePhoto, type PreparedPhoto } from './photo-renderer';
export { analyseReference, framesFromReference } from './reference-motion';

/** Draws photo avatars (this module): the frames' numbers applied to a warped photo. */
export interface PhotoRenderer {
  /** `imagePath` is the avatar's image on local disk; `rig` what `rigFromImage` computed (or null). */
  prepare(imagePath: string, rig: unknown, options: { width: number; height: number; signal?: AbortSignal }): Promise<FrameRenderer>;
  /** The rig of an uploaded image (face landmarks), for AvatarEngine.rigForUpload. */
  rigFromImage?(imagePath: string, options: { signal?: AbortSignal }): Promise<unknown>;
}

/** Turns a reference clip into frames (face landmarks → poses), at `fps`, at most `maxFrames`. */
export interface MotionSource {
  framesFromReference(videoPath: string, fps: number, maxFrames: number, options?: { signal?: AbortSignal }): Promise<ReactionFrame[]>;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'The render was cancelled');
}

export const photoRenderer: PhotoRenderer = {
  async prepare(imagePath, rig, options): Promise<FrameRenderer> {
    checkAborted(options.signal);
    const prepared = await preparePhoto(imagePath, rig, { width: options.width, height: options.height });
    checkAborted(options.signal);
    return {
      width: options.width,
      height: options.height,
      drawFrame(ctx, frame: ReactionFrame) {
        drawPhotoFrame(ctx, prepared, frame);
      },
      faceBox: (frame: ReactionFrame) => photoFaceBox(prepared, frame),
    };
  },
  /** The rig stored with an upload: its face landmarks, or null when it shows no usable face. */
  async rigFromImage(imagePath, options) {
    return detectFace(imagePath, { signal: options.signal });
  },
};

export const motionSource: MotionSource = {
  framesFromReference(videoPath, fps, maxFrames, options) {
    return framesFromReference(videoPath, { fps, maxFrames, signal: options?.signal });
  },
};
