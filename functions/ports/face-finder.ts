/**
 * Finds the face an avatar or a motion reference must show, before anything is written or reserved
 * (docs/decisions.md, Avatars; the face check). The use cases decide what a missing face means; this
 * only looks.
 */
import type { FrameBox } from '#domain/jobs';

export interface FaceFinder {
  /**
   * The face in a still image (the stored, re-encoded avatar image), as the local engine's photo
   * renderer animates it (its landmarks: kept with the avatar, so a render does not look again), or
   * null when no usable face shows.
   */
  faceInImage(image: Buffer): Promise<unknown>;
  /**
   * Whether a face shows in the part of a clip a reaction follows (sampled frames). Where the looking
   * happens in another function (the videos function on AWS asks the face-check function), a look that
   * could not be had in time throws FaceCheckUnavailable.
   */
  clipShowsFace(path: string): Promise<boolean>;
  /**
   * The face's eyes-to-mouth box over a whole reaction clip (the union over frames sampled across it,
   * in the clip's pixels), or null when no sampled frame shows a face: for clips from engines that do
   * not draw the face themselves (hosted ones), so a caption keeps clear of it. Where the looking
   * happens in another function, a look that could not be had in time throws FaceCheckUnavailable.
   */
  faceBoxInClip(path: string): Promise<FrameBox | null>;
}

/**
 * clipShowsFace or faceBoxInClip could not get an answer now (whatever looks is busy, throttled or timed out): not the
 * clip's fault, and worth retrying. Any other failure is an error of ours.
 */
export class FaceCheckUnavailable extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'FaceCheckUnavailable';
  }
}
