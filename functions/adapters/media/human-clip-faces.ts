/**
 * Faces in clips, decoded by ffmpeg and found by human (#render: render/face/reference-face.ts for a
 * reference's face, render/face/face-motion.ts for a reaction's eyes-to-mouth box).
 */
import type { FaceFinder } from '#ports/face-finder';
import { findFaceBox, referenceShowsFace } from '#render';

export const humanClipFaces: Pick<FaceFinder, 'clipShowsFace' | 'faceBoxInClip'> = {
  clipShowsFace: (path) => referenceShowsFace(path),
  // The box the bench measures captions against and the local engine reports for what it draws.
  faceBoxInClip: (path) => findFaceBox(path, { region: 'eyes-to-mouth' }),
};
