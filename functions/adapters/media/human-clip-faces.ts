/** Faces in clips, decoded by ffmpeg and found by human (#render: render/face/reference-motion.ts). */
import type { FaceFinder } from '#ports/face-finder';
import { referenceShowsFace } from '#render';

export const humanClipFaces: Pick<FaceFinder, 'clipShowsFace'> = { clipShowsFace: (path) => referenceShowsFace(path) };
