/**
 * A reaction is a face reacting, and its caption keeps clear of that face (issue 27). The local engine
 * draws the face and reports where it is; a hosted engine's clip comes back without that, so the face
 * is looked for on the stored clip (FaceFinder.faceBoxInClip: human in process locally, the face-check
 * function on AWS) and kept as the reaction's face_box, which compose's caption avoids.
 *
 * A hosted clip that shows no face is no reaction: it is generated once more with another seed (the
 * models miss a face now and then, and a second draw usually has one), and if that one shows none
 * either the job fails with no_face_in_result. Failing here, before any charge step, releases the
 * job's unit (MarkFailed): the user pays for no faceless result. One retry, not more: each try is a
 * paid generation upstream and about a minute of waiting.
 */
import { FaceCheckUnavailable } from '#ports/face-finder';
import type { PartOf, Ports } from '#ports/ports';
import type { ReactionClip } from '#ports/engine';
import type { FrameBox } from '#domain/jobs';
import { withScratch } from '#pipeline/job-context';
import { PipelineError } from '#pipeline/errors';
import { join } from 'node:path';

/** Generations after the first when a clip shows no face. */
export const FACELESS_RETRIES = 1;

/** Another seed for try `attempt` (0 is the job's own): deterministic, so a re-run of the step draws the same ones. */
export const retrySeed = (seed: number, attempt: number) => (seed + 7919 * attempt) % 0x7fffffff;

type FaceDeps = Pick<Ports, 'blobs'> & PartOf<'faces', 'faceBoxInClip'>;

/**
 * The clip `generate` makes for the job's seed, with its face box: the engine's own when it reports
 * one (even null: an engine that draws the face knows), else the one found on the clip. A clip that
 * shows no face is generated again under another seed, FACELESS_RETRIES times at most, then fails the
 * job with no_face_in_result.
 */
export async function generateWithFace(deps: FaceDeps, seed: number, generate: (seed: number) => Promise<ReactionClip>): Promise<ReactionClip> {
  for (let attempt = 0; ; attempt++) {
    const clip = await generate(retrySeed(seed, attempt));
    if (clip.faceBox !== undefined) return clip;
    const faceBox = await faceBoxOf(deps, clip.video.key);
    if (faceBox) return { ...clip, faceBox };
    if (attempt >= FACELESS_RETRIES) {
      throw new PipelineError(
        'no_face_in_result',
        `The ${clip.engine} engine made ${attempt + 1} reactions and none showed a face; nothing was charged. Try again, or describe one person facing the camera`,
      );
    }
  }
}

async function faceBoxOf(deps: FaceDeps, key: string): Promise<FrameBox | null> {
  try {
    return await withScratch(async (dir) => {
      const path = join(dir, 'reaction.mp4');
      await deps.blobs.getToFile(key, path);
      return await deps.faces.faceBoxInClip(path);
    });
  } catch (error) {
    // Not the clip's fault: the state machine retries the step (a fresh generation), then gives up as a generation failure.
    if (error instanceof FaceCheckUnavailable) {
      throw new PipelineError('generation_failed', 'The generated reaction could not be checked for a face in time; try again later', { retryable: true, cause: error });
    }
    throw error;
  }
}
