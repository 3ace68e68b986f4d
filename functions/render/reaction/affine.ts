/**
 * 2-D affine transforms as canvas matrices [a, b, c, d, e, f] (x' = a·x + c·y + e, y' = b·x + d·y + f),
 * shared by the cameras that move a picture and the face boxes that must move with it.
 */
const { max, min } = Math;

export type Affine = readonly [number, number, number, number, number, number];

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `outer` after `inner`: what a canvas holds after `setTransform(outer)` then `transform(inner)`. */
export function compose(outer: Affine, inner: Affine): [number, number, number, number, number, number] {
  const [a, b, c, d, e, f] = outer;
  const [A, B, C, D, E, F] = inner;
  return [a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f];
}

/** Where a rectangle lands under a transform: the box around its four corners. */
export function transformedBox(m: Affine, r: Rect): Rect {
  const [a, b, c, d, e, f] = m;
  const corners = [[r.x, r.y], [r.x + r.width, r.y], [r.x, r.y + r.height], [r.x + r.width, r.y + r.height]] as const;
  const xs = corners.map(([x, y]) => a * x + c * y + e);
  const ys = corners.map(([x, y]) => b * x + d * y + f);
  const x = min(...xs), y = min(...ys);
  return { x, y, width: max(...xs) - x, height: max(...ys) - y };
}

/** Where a point of the transformed picture came from (null for a degenerate transform). */
export function inverseAt(m: Affine, x: number, y: number): [number, number] | null {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (det === 0 || !Number.isFinite(det)) return null;
  return [(d * (x - e) - c * (y - f)) / det, (-b * (x - e) + a * (y - f)) / det];
}
