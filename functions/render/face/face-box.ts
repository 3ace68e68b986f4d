/**
 * The face box a caption keeps clear of, as human sees it: the extent of the face mesh (or of its
 * eyes and lips only) in one frame, and the union of those over a clip. Apart from face-motion.ts,
 * which decodes with ffmpeg, so that the face-check function (sharp-decoded JPEG frames) shares the
 * definition without bundling ffmpeg.
 */
import { MESH } from './landmarks';
import type { FaceBox } from '../reaction/reaction-clip';
const { ceil, floor, max, min } = Math;

/**
 * Which part of the face a box spans: the whole mesh (brow, forehead, cheeks and chin), or only the
 * eyes and the lips, the eyes-to-mouth box a caption must keep clear of (issue 27).
 */
export type FaceRegion = 'face' | 'eyes-to-mouth';

const EYES_TO_MOUTH_POINTS = [
  ...MESH.eyeA.upper0, ...MESH.eyeA.lower0, ...MESH.eyeB.upper0, ...MESH.eyeB.lower0, ...MESH.lipsUpperOuter, ...MESH.lipsLowerOuter,
];

/** A box by its edges, in fractional pixels, while frames are still being added to it. */
export interface Extent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The region's extent in one frame's mesh: the mesh's, not human's `box` (a generous crop for its own next pass). */
export function meshExtent(mesh: readonly ArrayLike<number>[], region: FaceRegion = 'face'): Extent {
  const points = region === 'eyes-to-mouth' ? EYES_TO_MOUTH_POINTS.map((i) => mesh[i]!) : mesh;
  const xs = points.map((p) => p[0]!), ys = points.map((p) => p[1]!);
  return { x0: min(...xs), y0: min(...ys), x1: max(...xs), y1: max(...ys) };
}

export const unionExtent = (a: Extent | null, b: Extent): Extent =>
  a ? { x0: min(a.x0, b.x0), y0: min(a.y0, b.y0), x1: max(a.x1, b.x1), y1: max(a.y1, b.y1) } : b;

/**
 * An extent found on frames decoded at a fraction of the clip's size, as a box of whole clip pixels:
 * scaled by `scale` (clip pixels per frame pixel), rounded outwards and kept inside the clip.
 */
export function extentToBox(extent: Extent, scale: number, clip: { width: number; height: number }): FaceBox {
  const x = max(0, floor(extent.x0 * scale)), y = max(0, floor(extent.y0 * scale));
  return { x, y, width: min(clip.width, ceil(extent.x1 * scale)) - x, height: min(clip.height, ceil(extent.y1 * scale)) - y };
}
