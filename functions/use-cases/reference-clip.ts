/** A motion reference clip as a job takes it: a readable video within the limits (the media inspector), showing a face. */
import { noFaceInClip } from '#domain/faces';
import type { Dependencies } from '#ports/dependencies';
import type { ReferenceClip } from '#ports/media-inspector';

export type ReferenceClipDeps = Pick<Dependencies, 'media' | 'faces'>;

/**
 * The face is looked for last: it decodes frames, which only a clip that passed the cheaper checks is
 * worth. Where it cannot be looked for here, the clip goes on: the render looks, and a job whose clip
 * shows no face fails with its unit released, never charged.
 */
export async function checkReferenceClip(deps: ReferenceClipDeps, path: string, field = 'reference_video'): Promise<ReferenceClip> {
  const clip = await deps.media.inspectReference(path, field);
  if ((await deps.faces.clipShowsFace(path)) === false) throw noFaceInClip(field);
  return clip;
}
