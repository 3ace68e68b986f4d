/**
 * Avatars and motion references must show a face: the reaction is a face reacting, and a picture
 * without one would be rendered (and charged) as a still that only the camera moves. Refused at the
 * door, before anything is written or reserved (docs/decisions.md, Avatars; Video jobs).
 */
import { AppError } from './errors';

export const noFaceInImage = (field: string) =>
  new AppError('no_face', `${field}: we could not find a face in this image. Upload a photo of one person facing the camera, the face well lit and not too small`);

export const noFaceInClip = (field: string) =>
  new AppError('no_face', `${field}: we could not find a face in this clip. Use a clip where one person faces the camera, the face clearly visible`);
