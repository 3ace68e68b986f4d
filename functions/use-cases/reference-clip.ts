/** A motion reference clip as a job takes it: a readable video within the limits (the media inspector), showing a face. */
import { faceCheckUnavailable, noFaceInClip } from '#domain/faces';
import type { PartOf, Ports } from '#ports/ports';
import { FaceCheckUnavailable } from '#ports/face-finder';
import type { ReferenceClip } from '#ports/media-inspector';

export type ReferenceClipDeps = Pick<Ports, 'media'> & PartOf<'faces', 'clipShowsFace'>;

/** A reference clip that passed every check: on disk (a part, a scratch copy of an upload or of a link) and as inspected. */
export interface CheckedReference {
  path: string;
  clip: ReferenceClip;
}

/**
 * The face is looked for last: it decodes frames, which only a clip that passed the cheaper checks is
 * worth. A look that could not be had now is a 503 to retry, never a pass: nothing is reserved either way.
 */
export async function checkReferenceClip(deps: ReferenceClipDeps, path: string, field = 'reference_video'): Promise<ReferenceClip> {
  const clip = await deps.media.inspectReference(path, field);
  let face: boolean;
  try {
    face = await deps.faces.clipShowsFace(path);
  } catch (error) {
    if (error instanceof FaceCheckUnavailable) throw faceCheckUnavailable(field, error);
    throw error;
  }
  if (!face) throw noFaceInClip(field);
  return clip;
}
