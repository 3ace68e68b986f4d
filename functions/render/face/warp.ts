/**
 * The photo warp: how a FacePose moves a face's landmarks, and a fast triangle rasteriser that
 * redraws only the face's region with that motion (docs/engines.md).
 *
 * Model. The 468 face points of the rig, two halo rings around the head (hair, ears, neck follow part of
 * the motion) and a fixed border ring (the patch's rectangle) are triangulated once. Each expression
 * is a precomputed displacement field (per point, for a unit amount, in pixels): jaw drop, brows
 * up/down, eyes closed/wide, smile up/down. A frame's points are the neutral points plus a weighted
 * sum of those fields; head turns are fields too (features slide over the face, fold-free by
 * construction), and a tilt rotates the head about the neck. The border never
 * moves, so the warped patch meets the untouched picture with no seam.
 *
 * All coordinates here are the caller's "base" pixels (the prepared picture the face sits in).
 */
import type { FacePose } from '../reaction/animation';
import { delaunay } from './delaunay';
import { MESH, type FaceRig } from './landmarks';
const { abs, ceil, cos, exp, floor, hypot, max, min, PI, sign, sin, sqrt } = Math;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Everything the per-frame warp needs, precomputed from a rig. */
export interface FaceModel {
  /** Number of points: 468 face points, then the two halo rings, then the border ring. */
  count: number;
  faceCount: number;
  haloCount: number;
  /** Neutral positions, flat [x0, y0, ...], base pixels. */
  neutral: Float32Array;
  /** Triangles (indices into the points), three per triangle. */
  triangles: Uint32Array;
  /** The region the warp redraws (integer pixels, inside the base). */
  patch: Rect;
  /** Displacement fields for a unit amount, flat like `neutral`. */
  fields: {
    jaw: Float32Array;
    browUp: Float32Array;
    browDown: Float32Array;
    eyeClose: Float32Array;
    eyeWide: Float32Array;
    smileUp: Float32Array;
    smileDown: Float32Array;
    /** Head turns, per unit of sin(angle): yaw toward the image's right, pitch head down. */
    yaw: Float32Array;
    pitch: Float32Array;
  };
  /** Face frame: origin between the eyes, u along the eye line, v down the face. */
  frame: { ox: number; oy: number; ux: number; uy: number; vx: number; vy: number };
  /** Per point: how much of a head tilt (roll) applies. */
  rotationWeight: Float32Array;
  /** Tilt pivot in the face frame (u, v): the neck, under the chin. */
  pivot: [number, number];
  /** Sizes used by the painter. */
  iod: number;
  mouthWidth: number;
  /** Inner lip contour, corner to corner along the upper lip then back along the lower lip. */
  mouthContour: number[];
  /** Neutral gap between the inner lips (pixels). */
  neutralMouthGap: number;
  /** Centre of the face (base pixels): camera pivot. */
  center: [number, number];
  /** The photo's own head pose: turns are limited so the total stays drawable. */
  photoPose: { yaw: number; pitch: number };
  /** Twice the signed area of each triangle in the topology pose (all positive) and at rest. */
  topoArea: Float32Array;
  restArea: Float32Array;
}

/** Clamps of the pose the warp draws (beyond these a 2D warp stops looking like a face). */
const POSE_LIMITS = { yaw: 18, pitch: 14, roll: 10, mouthOpen: 1.2, eyeOpen: [0, 1.6] as const } as const;

const smoothstep = (e0: number, e1: number, x: number) => {
  if (e1 === e0) return x < e0 ? 0 : 1;
  const t = max(0, min(1, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};
const clamp = (v: number, lo: number, hi: number) => max(lo, min(hi, v));

/** A polyline v(u) through points (sorted by u), held flat beyond its ends. */
function polyline(points: [number, number][]): (u: number) => number {
  const pts = [...points].sort((p, q) => p[0] - q[0]);
  return (u: number) => {
    if (u <= pts[0]![0]) return pts[0]![1];
    for (let k = 1; k < pts.length; k++) {
      const [u1, v1] = pts[k]!;
      if (u <= u1) {
        const [u0, v0] = pts[k - 1]!;
        return v0 + ((v1 - v0) * (u - u0)) / max(1e-6, u1 - u0);
      }
    }
    return pts[pts.length - 1]![1];
  };
}

/**
 * Builds the warp model of a rig placed into base pixels by `scale` and `offset`
 * (base = image * scale + offset), with the patch kept inside `bounds`.
 */
export function buildFaceModel(rig: FaceRig, placement: { scale: number; offsetX: number; offsetY: number }, bounds: Rect): FaceModel {
  const F = MESH.faceCount;
  const s = placement.scale;
  const px = new Float64Array(F), py = new Float64Array(F);
  for (let i = 0; i < F; i++) {
    px[i] = rig.mesh[i * 3]! * s + placement.offsetX;
    py[i] = rig.mesh[i * 3 + 1]! * s + placement.offsetY;
  }
  const P = (i: number): [number, number] => [px[i]!, py[i]!];
  const meanOf = (idx: readonly number[]): [number, number] => {
    let x = 0, y = 0;
    for (const i of idx) { x += px[i]!; y += py[i]!; }
    return [x / idx.length, y / idx.length];
  };

  // Face frame.
  let eyeL = meanOf([MESH.eyeA.outer, MESH.eyeA.inner]);
  let eyeR = meanOf([MESH.eyeB.outer, MESH.eyeB.inner]);
  const swapped = eyeL[0] > eyeR[0];
  if (swapped) [eyeL, eyeR] = [eyeR, eyeL];
  const ox = (eyeL[0] + eyeR[0]) / 2, oy = (eyeL[1] + eyeR[1]) / 2;
  const iod = max(1, hypot(eyeR[0] - eyeL[0], eyeR[1] - eyeL[1]));
  const ux = (eyeR[0] - eyeL[0]) / iod, uy = (eyeR[1] - eyeL[1]) / iod;
  const vx = -uy, vy = ux;
  const toU = (x: number, y: number) => (x - ox) * ux + (y - oy) * uy;
  const toV = (x: number, y: number) => (x - ox) * vx + (y - oy) * vy;
  const fu = new Float64Array(F), fv = new Float64Array(F);
  for (let i = 0; i < F; i++) { fu[i] = toU(px[i]!, py[i]!); fv[i] = toV(px[i]!, py[i]!); }

  let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
  for (const i of MESH.silhouette) {
    minU = min(minU, fu[i]!); maxU = max(maxU, fu[i]!);
    minV = min(minV, fv[i]!); maxV = max(maxV, fv[i]!);
  }
  const halfWidth = max(iod * 0.8, (maxU - minU) / 2);
  const faceU = (minU + maxU) / 2;
  const chinV = fv[MESH.chin]!;
  const foreheadV = fv[MESH.forehead]!;
  const faceHeight = max(iod, chinV - foreheadV);

  const mL = P(MESH.mouthLeft), mR = P(MESH.mouthRight);
  const mouthWidth = max(iod * 0.4, hypot(mR[0] - mL[0], mR[1] - mL[1]));
  const mouthU = (toU(...mL) + toU(...mR)) / 2;
  const mouthHalf = mouthWidth / 2;

  // Halo (an ellipse around the head, a little larger at the top for hair) and the border ring.
  // Below the chin the halo keeps room for the jaw to drop into (the neck folds under it).
  const HALO = 28;
  const jawDrop = 0.42 * mouthWidth;
  const haloCu = faceU, haloCv = (foreheadV + chinV) / 2;
  const haloRu = halfWidth * 1.2;
  const haloRvTop = faceHeight * 0.5 * 1.3;
  const haloRvBottom = faceHeight * 0.5 + max(0.2 * faceHeight, 1.3 * jawDrop);
  // The silhouette as a polygon in the face frame: each halo point keeps clear of it along its ray.
  const sil = MESH.silhouette.map((i) => [fu[i]!, fv[i]!] as [number, number]);
  const silhouetteReach = (dx: number, dy: number) => {
    let best = 0;
    for (let k = 0; k < sil.length; k++) {
      const [ax, ay] = sil[k]!, [bx, by] = sil[(k + 1) % sil.length]!;
      // Ray (haloCu, haloCv) + s·(dx, dy) against segment a→b.
      const ex = bx - ax, ey = by - ay;
      const den = dx * ey - dy * ex;
      if (abs(den) < 1e-9) continue;
      const wx = ax - haloCu, wy = ay - haloCv;
      const sRay = (wx * ey - wy * ex) / den;
      const sSeg = (wx * dy - wy * dx) / den;
      if (sRay > 0 && sSeg >= 0 && sSeg <= 1) best = max(best, sRay);
    }
    return best;
  };
  const halo: [number, number][] = [];
  for (let k = 0; k < HALO; k++) {
    const t = (k / HALO) * PI * 2;
    const c = cos(t), s = sin(t);
    const ex = c * haloRu, ey = s * (s > 0 ? haloRvBottom : haloRvTop);
    const r = hypot(ex, ey);
    const need = silhouetteReach(c, s) * 1.18 + 0.08 * iod;
    const grow = r > 0 ? max(1, need / r) : 1;
    halo.push([haloCu + ex * grow, haloCv + ey * grow]);
  }
  // Patch: the halo's box grown by room for the motion, clamped to the base.
  const toX = (u: number, v: number) => ox + u * ux + v * vx;
  const toY = (u: number, v: number) => oy + u * uy + v * vy;
  let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
  for (const [u, v] of halo) {
    const x = toX(u, v), y = toY(u, v);
    bx0 = min(bx0, x); by0 = min(by0, y); bx1 = max(bx1, x); by1 = max(by1, y);
  }
  const room = max(halfWidth, faceHeight / 2) * 0.3;
  const patchX0 = max(bounds.x, floor(bx0 - room));
  const patchY0 = max(bounds.y, floor(by0 - room));
  const patchX1 = min(bounds.x + bounds.width, ceil(bx1 + room));
  const patchY1 = min(bounds.y + bounds.height, ceil(by1 + room));
  const patch: Rect = { x: patchX0, y: patchY0, width: max(1, patchX1 - patchX0), height: max(1, patchY1 - patchY0) };

  const border: [number, number][] = [];
  const STEPS = 8;
  for (let k = 0; k < STEPS; k++) {
    const t = k / STEPS;
    border.push([patchX0 + t * patch.width, patchY0]);
    border.push([patchX1, patchY0 + t * patch.height]);
    border.push([patchX1 - t * patch.width, patchY1]);
    border.push([patchX0, patchY1 - t * patch.height]);
  }

  // A second, outer ring halfway between the halo and the patch's edge takes part of the halo's
  // motion: the falloff to the fixed border comes in two gentle bends instead of one sharp one.
  const H = 2 * HALO, B = border.length;
  const count = F + H + B;
  const haloLevel = new Float32Array(H);
  const neutral = new Float32Array(count * 2);
  for (let i = 0; i < F; i++) { neutral[2 * i] = px[i]!; neutral[2 * i + 1] = py[i]!; }
  // Halo points stay strictly inside the patch.
  const inset = 2;
  const hcx = toX(haloCu, haloCv), hcy = toY(haloCu, haloCv);
  for (let k = 0; k < HALO; k++) {
    const [u, v] = halo[k]!;
    const x = clamp(toX(u, v), patchX0 + inset, patchX1 - inset);
    const y = clamp(toY(u, v), patchY0 + inset, patchY1 - inset);
    neutral[2 * (F + k)] = x;
    neutral[2 * (F + k) + 1] = y;
    haloLevel[k] = 1;
    // Along the ray from the halo's centre through this point, to the patch's edge.
    const dx = x - hcx, dy = y - hcy;
    const len = hypot(dx, dy) || 1;
    const ex = dx / len, ey = dy / len;
    const toEdge = min(
      ex > 1e-9 ? (patchX1 - inset - x) / ex : ex < -1e-9 ? (patchX0 + inset - x) / ex : Infinity,
      ey > 1e-9 ? (patchY1 - inset - y) / ey : ey < -1e-9 ? (patchY0 + inset - y) / ey : Infinity,
    );
    const reach = max(0, toEdge) * 0.5;
    neutral[2 * (F + HALO + k)] = x + ex * reach;
    neutral[2 * (F + HALO + k) + 1] = y + ey * reach;
    haloLevel[HALO + k] = reach > 4 ? 0.45 : 0;
  }
  for (let k = 0; k < B; k++) { neutral[2 * (F + H + k)] = border[k]![0]; neutral[2 * (F + H + k) + 1] = border[k]![1]; }
  const allU = new Float64Array(count), allV = new Float64Array(count);
  for (let i = 0; i < count; i++) { allU[i] = toU(neutral[2 * i]!, neutral[2 * i + 1]!); allV[i] = toV(neutral[2 * i]!, neutral[2 * i + 1]!); }

  const field = () => new Float32Array(count * 2);
  const fields = { jaw: field(), browUp: field(), browDown: field(), eyeClose: field(), eyeWide: field(), smileUp: field(), smileDown: field(), yaw: field(), pitch: field() };
  /** Adds a face-frame displacement (du, dv) to a field. */
  const add = (f: Float32Array, i: number, du: number, dv: number) => {
    f[2 * i] = f[2 * i]! + du * ux + dv * vx;
    f[2 * i + 1] = f[2 * i + 1]! + du * uy + dv * vy;
  };

  // ---- Jaw drop: everything below the lip seam moves down; the lower lip and chin fully between
  // the mouth corners, less toward the jaw's sides (the jaw hinges near the ears).
  const seamAt = polyline(MESH.lipsUpperInner.map((i) => [fu[i]!, fv[i]!]));
  const J = jawDrop;
  const lowerLip = new Set<number>([...MESH.lipsLowerInner, ...MESH.lipsLowerOuter, ...MESH.lipsLowerSemiInner, ...MESH.lipsLowerSemiOuter]);
  const upperLip = new Set<number>([...MESH.lipsUpperInner, ...MESH.lipsUpperOuter, ...MESH.lipsUpperSemiInner, ...MESH.lipsUpperSemiOuter]);
  const corners = new Set<number>([MESH.mouthLeft, MESH.mouthRight, 78, 308]);
  const lateralJaw = (u: number) => 1 - 0.75 * smoothstep(mouthHalf, halfWidth * 1.05, abs(u - mouthU));
  const cornerW = 0.3;
  const mLu = toU(...mL), mLv = toV(...mL), mRu = toU(...mR), mRv = toV(...mR);
  /** Lip points right next to a corner move with the corner (their order there is unreliable). */
  const nearCorner = (w: number, u: number, v: number) => {
    const dc = min(hypot(u - mLu, v - mLv), hypot(u - mRu, v - mRv));
    return cornerW + (w - cornerW) * smoothstep(0.04 * mouthWidth, 0.22 * mouthWidth, dc);
  };
  const upperInner = new Set<number>(MESH.lipsUpperInner);
  const lowerInner = new Set<number>(MESH.lipsLowerInner);
  const lowerSeamAt = polyline(MESH.lipsLowerInner.map((i) => [fu[i]!, fv[i]!]));
  for (let i = 0; i < F + H; i++) {
    const u = allU[i]!, v = allV[i]!;
    const la = abs(u - mouthU);
    // Which side of the lips' meeting line a lip point is on, by where it is (landmarks of a closed
    // mouth can put an "upper" point level with the lower lip); the inner contours by their label.
    let side: 'upper' | 'lower' | null = null;
    if (i < F && (lowerLip.has(i) || upperLip.has(i))) {
      if (lowerInner.has(i) && !upperInner.has(i)) side = 'lower';
      else if (upperInner.has(i) && !lowerInner.has(i)) side = 'upper';
      else side = v > (seamAt(u) + lowerSeamAt(u)) / 2 ? 'lower' : 'upper';
    }
    let w: number;
    if (i < F && corners.has(i)) w = cornerW;
    else if (side === 'lower') {
      // The lower lip rides on the jaw; only toward the corners does it lag behind.
      const t = clamp(la / mouthHalf, 0, 1);
      w = nearCorner(cornerW + (1 - cornerW) * sqrt(1 - t * t), u, v); // an oval opening
    } else if (side === 'upper') {
      // The upper lip lifts a little, its inner and outer edges together (no crossing).
      const t = clamp(la / mouthHalf, 0, 1);
      w = nearCorner(-0.08 * (1 - t * t), u, v);
    }
    else {
      const db = v - seamAt(u);
      if (db <= 0) w = 0;
      else {
        // Straight under the mouth the jaw moves as one piece; toward and beyond the corners the skin
        // below the seam stretches over a growing distance (no crease at the corners).
        const ramp = 1 + 0.3 * mouthWidth * smoothstep(0.55 * mouthHalf, mouthHalf, la) + max(0, la - mouthHalf) * 0.8;
        w = smoothstep(0, ramp, db) * lateralJaw(u);
      }
      // The neck follows the jaw only partly, but enough that the chin never runs over it.
      if (i >= F) w *= max(0.45, 1 - (0.6 * max(0, v - chinV)) / jawDrop) * haloLevel[i - F]!;
    }
    if (w !== 0) add(fields.jaw, i, 0, w * J);
  }

  // ---- Brows. Up: the brows rise, the forehead skin less and less toward the hairline, the upper
  // lid a little. Down (frown): brows lower and their inner ends pull toward the nose.
  const eyes = [MESH.eyeA, MESH.eyeB] as const;
  const Bup = 0.17 * iod, Bdown = 0.09 * iod, Bin = 0.06 * iod;
  // Each point follows the nearer brow (the stronger weight), never the sum of both.
  const browW = new Float64Array(count), browInner = new Float64Array(count), browSide = new Float64Array(count);
  for (const eye of eyes) {
    let bu = 0, bMinU = Infinity, bMaxU = -Infinity;
    for (const i of eye.browUpper) { bu += fu[i]!; bMinU = min(bMinU, fu[i]!); bMaxU = max(bMaxU, fu[i]!); }
    bu /= eye.browUpper.length;
    const browHalf = max(1, (bMaxU - bMinU) / 2);
    const eyeV = (fv[eye.outer]! + fv[eye.inner]!) / 2;
    const innerU = fu[eye.inner]!, outerU = fu[eye.outer]!;
    const browUpperSet = new Set<number>(eye.browUpper);
    // The brow's own line (its ends arch down) and the eye's line, at each u.
    const browAt = polyline(eye.browUpper.map((i) => [fu[i]!, fv[i]!]));
    const lidAt = polyline([...eye.upper0, eye.outer, eye.inner].map((i) => [fu[i]!, fv[i]!]));
    for (let i = 0; i < F + H; i++) {
      const u = allU[i]!, v = allV[i]!;
      const lateral = 1 - smoothstep(browHalf, browHalf + 0.45 * iod, abs(u - bu));
      if (lateral <= 0) continue;
      const bl = browAt(u);
      const ll = max(bl + 1, min(lidAt(u), eyeV));
      let vert: number;
      // By place, not by label (a brow's outer end can sit level with the eye's outer corner): the
      // top third of the brow-to-lid gap is the brow itself and moves fully.
      if (browUpperSet.has(i) && v < ll - 0.5 * (ll - bl)) vert = 1;
      else if (i >= F) vert = 0; // the hairline and ears stay
      else if (v < bl) vert = 0.22 + 0.78 * exp(-(((bl - v) / (0.42 * iod)) ** 2));
      else if (v < ll) vert = 1 - 0.88 * smoothstep(bl + 0.33 * (ll - bl), ll, v);
      else vert = v < eyeV ? 0.12 * (1 - smoothstep(ll, eyeV, v)) : 0; // the upper lid, a little
      const w = lateral * vert;
      if (w <= browW[i]!) continue;
      browW[i] = w;
      // Inner-ness: 1 at the brow's inner end, 0 at its outer end.
      browInner[i] = clamp((u - outerU) / max(1e-6, innerU - outerU), 0, 1);
      browSide[i] = sign(-bu);
    }
  }
  for (let i = 0; i < count; i++) {
    const w = browW[i]!;
    if (w <= 0) continue;
    add(fields.browUp, i, 0, -w * Bup);
    add(fields.browDown, i, browSide[i]! * w * Bin * browInner[i]!, w * Bdown * (0.6 + 0.4 * browInner[i]!));
  }

  // ---- Eyes. Closed: the upper lid comes down onto the lower one (which rises a little). Wide:
  // the upper lid lifts, the lower one drops a little. Lid corners stay.
  for (const eye of eyes) {
    const lowerAt = polyline(eye.lower0.map((i) => [fu[i]!, fv[i]!]));
    const upperAt = polyline(eye.upper0.map((i) => [fu[i]!, fv[i]!]));
    const uOuter = fu[eye.outer]!, uInner = fu[eye.inner]!;
    const eyeW = max(1, abs(uInner - uOuter));
    const centreGap = max(eyeW * 0.12, lowerAt((uOuter + uInner) / 2) - upperAt((uOuter + uInner) / 2));
    const profile = (u: number) => {
      const t = clamp((u - min(uOuter, uInner)) / eyeW, 0, 1);
      return sin(PI * t) ** 0.8;
    };
    const ring = (idx: readonly number[], fn: (i: number, gap: number, prof: number) => void) => {
      for (const i of idx) {
        if (i === eye.outer || i === eye.inner) continue;
        const gap = max(0, lowerAt(fu[i]!) - upperAt(fu[i]!));
        fn(i, gap, profile(fu[i]!));
      }
    };
    // Closed.
    // Upper and lower lids all but meet (0.79 + 0.19 of the gap): the eye's inside collapses; the
    // painted lash line covers what is left.
    ring(eye.upper0, (i) => add(fields.eyeClose, i, 0, 0.79 * max(0, lowerAt(fu[i]!) - fv[i]!)));
    ring(eye.lower0, (i) => add(fields.eyeClose, i, 0, -0.19 * max(0, lowerAt(fu[i]!) - upperAt(fu[i]!))));
    ring(eye.upper1, (i, _gap, prof) => add(fields.eyeClose, i, 0, 0.5 * centreGap * prof));
    ring(eye.upper2, (i, _gap, prof) => add(fields.eyeClose, i, 0, 0.2 * centreGap * prof));
    ring(eye.lower1, (i, _gap, prof) => add(fields.eyeClose, i, 0, -0.08 * centreGap * prof));
    // Wide (the unit is eyeOpen 1.5).
    ring(eye.upper0, (i, _gap, prof) => add(fields.eyeWide, i, 0, -0.42 * centreGap * prof));
    ring(eye.upper1, (i, _gap, prof) => add(fields.eyeWide, i, 0, -0.33 * centreGap * prof));
    ring(eye.upper2, (i, _gap, prof) => add(fields.eyeWide, i, 0, -0.18 * centreGap * prof));
    ring(eye.browLower, (i, _gap, prof) => add(fields.eyeWide, i, 0, -0.06 * centreGap * prof));
    ring(eye.lower0, (i, _gap, prof) => add(fields.eyeWide, i, 0, 0.14 * centreGap * prof));
    ring(eye.lower1, (i, _gap, prof) => add(fields.eyeWide, i, 0, 0.06 * centreGap * prof));
  }

  // ---- Smile: corners up and out (down and slightly in for a negative smile), with the cheeks
  // and lower lids lifting on a real smile.
  const cornerPts: [number, number, number][] = [
    [toU(...mL), toV(...mL), -1],
    [toU(...mR), toV(...mR), 1],
  ];
  const sig = 0.32 * mouthWidth;
  const cheekSig = 0.55 * mouthWidth;
  const eyeMidV = 0;
  for (let i = 0; i < F; i++) {
    const u = fu[i]!, v = fv[i]!;
    for (const [cu, cv, side] of cornerPts) {
      const d2 = (u - cu) ** 2 + (v - cv) ** 2;
      const w = exp(-d2 / (sig * sig));
      if (w > 0.002) {
        add(fields.smileUp, i, side * 0.07 * mouthWidth * w, -0.1 * mouthWidth * w);
        add(fields.smileDown, i, -side * 0.02 * mouthWidth * w, 0.08 * mouthWidth * w);
      }
      // Cheek: centred between the corner and the eye, lifts a little.
      const chU = cu + side * 0.15 * mouthWidth, chV = (cv + eyeMidV) * 0.55;
      const c2 = (u - chU) ** 2 + (v - chV) ** 2;
      const wc = exp(-c2 / (cheekSig * cheekSig));
      const below = smoothstep(eyeMidV, eyeMidV + 0.3 * iod, v);
      if (wc * below > 0.002) add(fields.smileUp, i, 0, -0.05 * mouthWidth * wc * below);
    }
  }

  // ---- Head turns. A 2D mesh cannot hide the far cheek, so a turn is drawn as the features sliding
  // over the face (a smooth bump, zero at the outline; the nose a little more) plus a small shift of
  // the whole head. The bump's slope stays well under 1 at the largest angle: nothing folds.
  const hh = faceHeight / 2;
  const cVface = (foreheadV + chinV) / 2;
  const noseU = fu[MESH.noseTip]!, noseV = fv[MESH.noseTip]!;
  const noseSig = 0.35 * iod;
  const rotationWeight = new Float32Array(count);
  for (let i = 0; i < F + H; i++) {
    const u = allU[i]!, v = allV[i]!;
    const eu = (u - faceU) / halfWidth, ev = (v - cVface) / hh;
    const r2 = eu * eu + ev * ev;
    const bump = r2 < 1 ? (1 - r2) * (1 - r2) : 0;
    const nose = i < F ? exp(-((u - noseU) ** 2 + (v - noseV) ** 2) / (noseSig * noseSig)) : 0;
    const rigid = i < F ? 1 : 0.6 * haloLevel[i - F]!;
    rotationWeight[i] = i < F ? 1 : 0.65 * haloLevel[i - F]!;
    add(fields.yaw, i, halfWidth * (0.5 * bump + 0.22 * nose + 0.22 * rigid), 0);
    add(fields.pitch, i, 0, hh * (0.4 * bump + 0.15 * nose + 0.15 * rigid));
  }
  const pivot: [number, number] = [faceU, chinV];

  // ---- Points near the patch's edge (a face filling the picture) move less, down to nothing at the
  // edge: the border ring is fixed and nothing may cross it. Each motion is limited to a part of the
  // point's distance to the edge at that motion's largest amount.
  const edgeRoom = max(4, room * 0.8);
  const largest: Record<keyof typeof fields, number> = {
    jaw: POSE_LIMITS.mouthOpen, browUp: 1, browDown: 1, eyeClose: 1, eyeWide: 1.2, smileUp: 1, smileDown: 1,
    yaw: sin((POSE_LIMITS.yaw * PI) / 180), pitch: sin((POSE_LIMITS.pitch * PI) / 180),
  };
  const rollMax = (POSE_LIMITS.roll * PI) / 180;
  for (let i = 0; i < F + H; i++) {
    const x = neutral[2 * i]!, y = neutral[2 * i + 1]!;
    const edge = min(x - patchX0, patchX1 - x, y - patchY0, patchY1 - y);
    const soft = smoothstep(0, edgeRoom, edge);
    for (const [name, f] of Object.entries(fields) as [keyof typeof fields, Float32Array][]) {
      const reach = hypot(f[2 * i]!, f[2 * i + 1]!) * largest[name];
      const k = min(soft, reach > 0 ? (0.5 * edge) / reach : 1);
      if (k >= 1) continue;
      f[2 * i] = f[2 * i]! * k;
      f[2 * i + 1] = f[2 * i + 1]! * k;
    }
    const reach = rollMax * hypot(allU[i]! - pivot[0], allV[i]! - pivot[1]) * rotationWeight[i]!;
    rotationWeight[i] = rotationWeight[i]! * min(soft, reach > 0 ? min(1, (0.5 * edge) / reach) : 1);
  }

  // ---- Triangulation, on a "topology pose" with the mouth half open and the eyes a little wide,
  // so the triangles across the mouth and eye slits are shaped the way those open (well conditioned
  // when opening; at rest they are slivers).
  const topo = new Float64Array(count * 2);
  for (let i = 0; i < count * 2; i++) topo[i] = neutral[i]! + fields.jaw[i]! * 0.5 + fields.eyeWide[i]! * 0.3;
  const triangles = delaunay(topo);
  // Orientation reference: every triangle is positive in the topology pose. Some slivers are a
  // little inverted at rest (a closed slit); only turning over further than at rest is a fold.
  const topoArea = new Float32Array(triangles.length / 3);
  const restArea = new Float32Array(triangles.length / 3);
  for (let t = 0; t < triangles.length; t += 3) {
    topoArea[t / 3] = signedArea(topo, triangles[t]!, triangles[t + 1]!, triangles[t + 2]!);
    restArea[t / 3] = signedArea(neutral, triangles[t]!, triangles[t + 1]!, triangles[t + 2]!);
  }

  const mouthContour = [...MESH.lipsUpperInner, ...[...MESH.lipsLowerInner].reverse().slice(1, -1)];
  const neutralMouthGap = max(0, fv[MESH.lowerLipInner]! - fv[MESH.upperLipInner]!);
  const cU = faceU, cV = (foreheadV + chinV) / 2;

  return {
    count,
    faceCount: F,
    haloCount: H,
    neutral,
    triangles,
    patch,
    fields,
    frame: { ox, oy, ux, uy, vx, vy },
    rotationWeight,
    pivot,
    iod,
    mouthWidth,
    mouthContour,
    neutralMouthGap,
    center: [toX(cU, cV), toY(cU, cV)],
    photoPose: { yaw: rig.headPose?.yaw ?? 0, pitch: rig.headPose?.pitch ?? 0 },
    topoArea,
    restArea,
  };
}

/** The smallest rectangle holding both (either may be null). */
function unionRect(a: Rect | null, b: Rect | null): Rect | null {
  if (!a) return b;
  if (!b) return a;
  const x = min(a.x, b.x), y = min(a.y, b.y);
  return { x, y, width: max(a.x + a.width, b.x + b.width) - x, height: max(a.y + a.height, b.y + b.height) - y };
}

function signedArea(p: ArrayLike<number>, a: number, b: number, c: number): number {
  return (p[2 * b]! - p[2 * a]!) * (p[2 * c + 1]! - p[2 * a + 1]!) - (p[2 * b + 1]! - p[2 * a + 1]!) * (p[2 * c]! - p[2 * a]!);
}

/** Most a head may be turned in total (photo + animation) before the 2D warp folds the far side. */
const MAX_TOTAL_YAW = 32;
const MAX_TOTAL_PITCH = 22;

/** The pose the warp actually draws: clamped, head angles as deltas from the photo's own pose. */
function clampPose(pose: FacePose): FacePose {
  const finite = (v: number, d: number) => (Number.isFinite(v) ? v : d);
  return {
    mouthOpen: clamp(finite(pose.mouthOpen, 0), 0, POSE_LIMITS.mouthOpen),
    smile: clamp(finite(pose.smile, 0), -1, 1),
    browRaise: clamp(finite(pose.browRaise, 0), -1, 1),
    eyeOpen: clamp(finite(pose.eyeOpen, 1), POSE_LIMITS.eyeOpen[0], POSE_LIMITS.eyeOpen[1]),
    headYaw: clamp(finite(pose.headYaw, 0), -POSE_LIMITS.yaw, POSE_LIMITS.yaw),
    headPitch: clamp(finite(pose.headPitch, 0), -POSE_LIMITS.pitch, POSE_LIMITS.pitch),
    headRoll: clamp(finite(pose.headRoll, 0), -POSE_LIMITS.roll, POSE_LIMITS.roll),
  };
}

/**
 * The points for a pose (written into `out`, allocated when absent). Head angles follow the
 * FacePose convention as the viewer sees it (and as the illustrated renderer reads it): yaw > 0
 * turns the face toward the image's right, pitch > 0 tips the head down, roll > 0 tilts clockwise.
 */
export function deform(model: FaceModel, rawPose: FacePose, out?: Float32Array, options: { relax?: boolean } = {}): Float32Array {
  const pose = clampPose(rawPose);
  const n2 = model.count * 2;
  const pts = out ?? new Float32Array(n2);
  const f = model.fields;
  const cJaw = pose.mouthOpen;
  const cBrowUp = max(0, pose.browRaise), cBrowDown = max(0, -pose.browRaise);
  const cClose = clamp(1 - pose.eyeOpen, 0, 1);
  const cWide = clamp((pose.eyeOpen - 1) / 0.5, 0, 1.2);
  const cSmileUp = max(0, pose.smile), cSmileDown = max(0, -pose.smile);
  for (let k = 0; k < n2; k++) {
    pts[k] =
      model.neutral[k]! +
      cJaw * f.jaw[k]! +
      cBrowUp * f.browUp[k]! +
      cBrowDown * f.browDown[k]! +
      cClose * f.eyeClose[k]! +
      cWide * f.eyeWide[k]! +
      cSmileUp * f.smileUp[k]! +
      cSmileDown * f.smileDown[k]!;
  }
  const yawDeg = clamp(pose.headYaw, -MAX_TOTAL_YAW - model.photoPose.yaw, MAX_TOTAL_YAW - model.photoPose.yaw);
  const pitchDeg = clamp(pose.headPitch, -MAX_TOTAL_PITCH - model.photoPose.pitch, MAX_TOTAL_PITCH - model.photoPose.pitch);
  // A turn toward a side the photo already faces far is cut; the other way stays free.
  const yaw = (clamp(yawDeg, -POSE_LIMITS.yaw, POSE_LIMITS.yaw) * PI) / 180;
  const pitch = (clamp(pitchDeg, -POSE_LIMITS.pitch, POSE_LIMITS.pitch) * PI) / 180;
  const roll = (pose.headRoll * PI) / 180;
  const sYaw = sin(yaw), sPitch = sin(pitch);
  if (sYaw !== 0 || sPitch !== 0) {
    for (let k = 0; k < n2; k++) pts[k] = pts[k]! + sYaw * f.yaw[k]! + sPitch * f.pitch[k]!;
  }
  if (roll !== 0) {
    const { ox, oy, ux, uy, vx, vy } = model.frame;
    const [pu, pv] = model.pivot;
    const cr = cos(roll), sr = sin(roll);
    const limit = model.faceCount + model.haloCount;
    for (let i = 0; i < limit; i++) {
      const w = model.rotationWeight[i]!;
      if (w === 0) continue;
      const x = pts[2 * i]!, y = pts[2 * i + 1]!;
      // Face frame, relative to the pivot; a positive roll turns clockwise on screen (y down).
      const a = (x - ox) * ux + (y - oy) * uy - pu;
      const b = (x - ox) * vx + (y - oy) * vy - pv;
      const nu = a * cr - b * sr + pu, nv = a * sr + b * cr + pv;
      const nx = ox + nu * ux + nv * vx, ny = oy + nu * uy + nv * vy;
      pts[2 * i] = x + (nx - x) * w;
      pts[2 * i + 1] = y + (ny - y) * w;
    }
  }
  // Nothing leaves the patch (the border ring is its outline).
  const { x: px0, y: py0, width, height } = model.patch;
  const n = model.neutral;
  for (let i = 0; i < model.faceCount + model.haloCount; i++) {
    // (A point already that close to the edge at rest stays where it is.)
    pts[2 * i] = clamp(pts[2 * i]!, min(n[2 * i]!, px0 + 1), max(n[2 * i]!, px0 + width - 1));
    pts[2 * i + 1] = clamp(pts[2 * i + 1]!, min(n[2 * i + 1]!, py0 + 1), max(n[2 * i + 1]!, py0 + height - 1));
  }
  if (options.relax !== false) relaxFolds(model, pts);
  return pts;
}

/**
 * Where the motion would fold the mesh over itself (a triangle turned inside out: streaks and
 * doubled features), the vertices of those triangles are pulled back toward rest until nothing is
 * folded. Triangles that merely collapse (lids meeting, a closed mouth) are left alone.
 */
export function relaxFolds(model: FaceModel, pts: Float32Array, maxRounds = 40): number {
  const tris = model.triangles;
  const movable = model.faceCount + model.haloCount;
  const flagged = new Uint8Array(model.count);
  let rounds = 0;
  for (; rounds < maxRounds; rounds++) {
    let any = false;
    for (let t = 0, k = 0; t < tris.length; t += 3, k++) {
      const a = signedArea(pts, tris[t]!, tris[t + 1]!, tris[t + 2]!);
      const slack = 0.02 * model.topoArea[k]! + 0.5;
      if (a < -slack && a < model.restArea[k]! - slack) {
        flagged[tris[t]!] = 1;
        flagged[tris[t + 1]!] = 1;
        flagged[tris[t + 2]!] = 1;
        any = true;
      }
    }
    if (!any) break;
    for (let i = 0; i < movable; i++) {
      if (!flagged[i]) continue;
      flagged[i] = 0;
      pts[2 * i] = model.neutral[2 * i]! + (pts[2 * i]! - model.neutral[2 * i]!) * 0.75;
      pts[2 * i + 1] = model.neutral[2 * i + 1]! + (pts[2 * i + 1]! - model.neutral[2 * i + 1]!) * 0.75;
    }
  }
  return rounds;
}

/**
 * One RGBA pixel blended from the 2×2 source pixels at `k` with 7-bit weights `fx`, `fy` (0-127):
 * red+blue and alpha+green are blended two channels at a time, and every product stays inside int32
 * (V8 inlines this and never leaves integer math).
 */
function bilinear(s32: Int32Array, k: number, srcWidth: number, fx: number, fy: number): number {
  const p00 = s32[k]!, p01 = s32[k + 1]!, p10 = s32[k + srcWidth]!, p11 = s32[k + srcWidth + 1]!;
  const gx = 128 - fx, gy = 128 - fy;
  const rbT = (((p00 & 0xff00ff) * gx + (p01 & 0xff00ff) * fx) >> 7) & 0xff00ff;
  const rbB = (((p10 & 0xff00ff) * gx + (p11 & 0xff00ff) * fx) >> 7) & 0xff00ff;
  const agT = ((((p00 >> 8) & 0xff00ff) * gx + ((p01 >> 8) & 0xff00ff) * fx) >> 7) & 0xff00ff;
  const agB = ((((p10 >> 8) & 0xff00ff) * gx + ((p11 >> 8) & 0xff00ff) * fx) >> 7) & 0xff00ff;
  return (((rbT * gy + rbB * fy) >> 7) & 0xff00ff) | ((((agT * gy + agB * fy) >> 7) & 0xff00ff) << 8);
}

/**
 * Redraws the patch: for every triangle that moved, each destination pixel samples the source (the
 * neutral picture) through the triangle's affine map, bilinearly (7-bit weights, integer math). Pixels of triangles that did not
 * move are copied. `src` and `dst` are 0xAABBGGRR pixels; `dst` is the patch (patch.width wide).
 * Triangles share edges exactly (same endpoints, same arithmetic, half-open spans), so there are no
 * seams and no double-drawn pixels.
 */
export function rasterize(
  model: FaceModel,
  points: Float32Array,
  src: Uint32Array,
  srcWidth: number,
  srcHeight: number,
  dst: Uint32Array,
  previous: Rect | null = null,
): { trianglesDrawn: number; pixels: number; dirty: Rect | null } {
  const { x: px0, y: py0, width: pw, height: ph } = model.patch;
  const tris = model.triangles;
  const n = model.neutral;
  // Which triangles moved, and the box they cover: only that box (and the last frame's) changes.
  const moved = new Uint8Array(tris.length / 3);
  let bx0 = Infinity, by0 = Infinity, bx1 = -Infinity, by1 = -Infinity;
  for (let t = 0, k = 0; t < tris.length; t += 3, k++) {
    let m = 0;
    for (let j = 0; j < 3; j++) {
      const i = tris[t + j]!;
      m += abs(points[2 * i]! - n[2 * i]!) + abs(points[2 * i + 1]! - n[2 * i + 1]!);
    }
    // Under a third of a pixel in all: drawing it again would change nothing anyone can see.
    if (m < 0.3) continue;
    moved[k] = 1;
    for (let j = 0; j < 3; j++) {
      const i = tris[t + j]!;
      const x = points[2 * i]!, y = points[2 * i + 1]!;
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
    }
  }
  let dirty: Rect | null = null;
  if (bx1 >= bx0) {
    const x0 = max(px0, floor(bx0) - 1), y0 = max(py0, floor(by0) - 1);
    const x1 = min(px0 + pw, ceil(bx1) + 1), y1 = min(py0 + ph, ceil(by1) + 1);
    dirty = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  }
  const region = unionRect(dirty, previous);
  if (region) {
    // Start from the untouched picture.
    for (let row = region.y; row < region.y + region.height; row++) {
      const s = row * srcWidth + region.x;
      dst.set(src.subarray(s, s + region.width), (row - py0) * pw + (region.x - px0));
    }
  }
  let drawn = 0, pixels = 0;
  const maxSx = srcWidth - 1.001, maxSy = srcHeight - 1.001;
  // Signed views of the same pixels: the sampling below stays in int32 arithmetic.
  const s32 = new Int32Array(src.buffer, src.byteOffset, src.length);
  const d32 = new Int32Array(dst.buffer, dst.byteOffset, dst.length);
  for (let t = 0, k = 0; t < tris.length; t += 3, k++) {
    if (!moved[k]) continue;
    const i0 = tris[t]!, i1 = tris[t + 1]!, i2 = tris[t + 2]!;
    let x0 = points[2 * i0]!, y0 = points[2 * i0 + 1]!;
    let x1 = points[2 * i1]!, y1 = points[2 * i1 + 1]!;
    let x2 = points[2 * i2]!, y2 = points[2 * i2 + 1]!;
    let u0 = n[2 * i0]!, v0 = n[2 * i0 + 1]!;
    let u1 = n[2 * i1]!, v1 = n[2 * i1 + 1]!;
    let u2 = n[2 * i2]!, v2 = n[2 * i2 + 1]!;
    // Affine map destination → source: M = S · D⁻¹.
    const dx1 = x1 - x0, dy1 = y1 - y0, dx2 = x2 - x0, dy2 = y2 - y0;
    const det = dx1 * dy2 - dx2 * dy1;
    if (abs(det) < 1e-6) continue;
    const inv = 1 / det;
    const su1 = u1 - u0, sv1 = v1 - v0, su2 = u2 - u0, sv2 = v2 - v0;
    const a = (su1 * dy2 - su2 * dy1) * inv;
    const b = (su2 * dx1 - su1 * dx2) * inv;
    const d = (sv1 * dy2 - sv2 * dy1) * inv;
    const e = (sv2 * dx1 - sv1 * dx2) * inv;
    const c = u0 - a * x0 - b * y0;
    const f = v0 - d * x0 - e * y0;
    drawn++;
    // The source triangle well inside the picture: no clamping needed anywhere in it.
    const sMinX = min(u0, u1, u2), sMaxX = max(u0, u1, u2), sMinY = min(v0, v1, v2), sMaxY = max(v0, v1, v2);
    const safe = sMinX >= 2 && sMinY >= 2 && sMaxX <= srcWidth - 3 && sMaxY <= srcHeight - 3;
    // Sort the destination vertices by (y, x): edges then have one canonical direction. Each swap moves a
    // whole vertex (x, y, u, v) even where the last one's source is not read again.
    /* eslint-disable no-useless-assignment */
    if (y1 < y0 || (y1 === y0 && x1 < x0)) { [x0, x1] = [x1, x0]; [y0, y1] = [y1, y0]; [u0, u1] = [u1, u0]; [v0, v1] = [v1, v0]; }
    if (y2 < y0 || (y2 === y0 && x2 < x0)) { [x0, x2] = [x2, x0]; [y0, y2] = [y2, y0]; [u0, u2] = [u2, u0]; [v0, v2] = [v2, v0]; }
    if (y2 < y1 || (y2 === y1 && x2 < x1)) { [x1, x2] = [x2, x1]; [y1, y2] = [y2, y1]; [u1, u2] = [u2, u1]; [v1, v2] = [v2, v1]; }
    /* eslint-enable no-useless-assignment */
    // Rows whose centre lies in [y0, y2).
    const rowStart = max(py0, ceil(y0 - 0.5));
    const rowEnd = min(py0 + ph, ceil(y2 - 0.5));
    for (let Y = rowStart; Y < rowEnd; Y++) {
      const yc = Y + 0.5;
      // One formula for every edge, endpoints in (y, x) order: a shared edge gives both of its
      // triangles the same x to the last bit.
      const xLong = x0 + ((yc - y0) * (x2 - x0)) / (y2 - y0);
      let xShort: number;
      if (yc < y1) xShort = x0 + ((yc - y0) * (x1 - x0)) / (y1 - y0);
      else if (y2 > y1) xShort = x1 + ((yc - y1) * (x2 - x1)) / (y2 - y1);
      else continue;
      const xa = xLong < xShort ? xLong : xShort;
      const xb = xLong < xShort ? xShort : xLong;
      const colStart = max(px0, ceil(xa - 0.5));
      const colEnd = min(px0 + pw, ceil(xb - 0.5));
      if (colEnd <= colStart) continue;
      const xc = colStart + 0.5;
      // Source position of the first pixel centre, in pixel-index space (centres at .0), then
      // stepped in 16.16 fixed point along the row.
      const sx = a * xc + b * yc + c - 0.5;
      const sy = d * xc + e * yc + f - 0.5;
      let o = (Y - py0) * pw + (colStart - px0);
      const len = colEnd - colStart;
      pixels += len;
      const sxEnd = sx + a * (len - 1), syEnd = sy + d * (len - 1);
      if (safe || (sx >= 0 && sy >= 0 && sx <= maxSx && sy <= maxSy && sxEnd >= 0 && syEnd >= 0 && sxEnd <= maxSx && syEnd <= maxSy)) {
        let fxp = (sx * 65536) | 0, fyp = (sy * 65536) | 0;
        const stepX = (a * 65536) | 0, stepY = (d * 65536) | 0;
        for (let X = 0; X < len; X++) {
          const k = (fyp >> 16) * srcWidth + (fxp >> 16);
          const fx = (fxp >> 9) & 127, fy = (fyp >> 9) & 127;
          d32[o++] = bilinear(s32, k, srcWidth, fx, fy);
          fxp += stepX;
          fyp += stepY;
        }
      } else {
        let fsx = sx, fsy = sy;
        for (let X = 0; X < len; X++) {
          const cx = fsx < 0 ? 0 : fsx > maxSx ? maxSx : fsx;
          const cy = fsy < 0 ? 0 : fsy > maxSy ? maxSy : fsy;
          const ix = cx | 0, iy = cy | 0;
          const fx = ((cx - ix) * 128) | 0, fy = ((cy - iy) * 128) | 0;
          const k = iy * srcWidth + ix;
          d32[o++] = bilinear(s32, k, srcWidth, fx, fy);
          fsx += a;
          fsy += d;
        }
      }
    }
  }
  return { trianglesDrawn: drawn, pixels, dirty: region };
}
