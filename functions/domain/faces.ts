/**
 * Avatars and motion references must show a face: the reaction is a face reacting, and a picture
 * without one would be rendered (and charged) as a still that only the camera moves. Refused at the
 * door, before anything is written or reserved (docs/decisions.md, Avatars; Video jobs).
 */
import { AppError } from './errors';

export const noFaceInImage = (field: string) =>
  new AppError('no_face', `${field}: we could not find a face in this image. Upload a photo of one person facing the camera, the face well lit and not too small`, { param: field });

export const noFaceInClip = (field: string) =>
  new AppError('no_face', `${field}: we could not find a face in this clip. Use a clip where one person faces the camera, the face clearly visible`, { param: field });

/** The face could not be looked for now (the check was busy or timed out): retry, nothing was reserved. */
export const faceCheckUnavailable = (field: string, cause: unknown) =>
  new AppError('upstream_unavailable', `${field}: the face check did not answer in time; nothing was reserved. Retry in a few seconds`, {
    cause,
    headers: { 'retry-after': '5' },
    param: field,
  });
