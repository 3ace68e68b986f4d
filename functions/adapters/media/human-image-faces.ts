/**
 * Faces in still images, decoded by sharp and found by human (#render: render/face/image-face.ts).
 * Its own module (clips are human-clip-faces.ts): a Lambda bundles what it imports, and the videos
 * function, which only reads clips, carries no sharp.
 */
import type { FaceFinder } from '#ports/face-finder';
import { detectFace } from '#render';

export const humanImageFaces: Pick<FaceFinder, 'faceInImage'> = { faceInImage: (image) => detectFace(image) };
