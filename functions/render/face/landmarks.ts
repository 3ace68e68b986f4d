/**
 * Face landmarks: the "rig" stored with an uploaded photo avatar, which the photo renderer later warps
 * (docs/engines.md), and the measures motion transfer reads. Detection runs on human's WASM backend;
 * decoding a still image for it is image-face.ts's (sharp), so that a function reading only clips
 * (the videos function's face check) bundles no sharp.
 *
 * Coordinates are image pixels of the image as displayed (EXIF orientation applied), x right, y down.
 * "left"/"right" in the anchors mean the image's left and right (the viewer's), not the subject's.
 */
import { EngineError } from '#ports/engine';
import { withHuman, type HumanFaceResult, type HumanInstance } from './human-loader';
const { asin, atan2, hypot, max, min, PI, round } = Math;

export type Point2 = [number, number];

/** Mesh indices (MediaPipe face mesh topology, as human returns it: 468 face points + 10 iris). */
export const MESH = {
  count: 478,
  faceCount: 468,
  silhouette: [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109],
  lipsUpperOuter: [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291],
  lipsLowerOuter: [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291],
  lipsUpperInner: [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308],
  lipsLowerInner: [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308],
  lipsUpperSemiOuter: [184, 74, 73, 72, 11, 302, 303, 304, 408],
  lipsLowerSemiOuter: [76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306],
  lipsUpperSemiInner: [183, 42, 41, 38, 12, 268, 271, 272, 407],
  lipsLowerSemiInner: [62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292],
  // The subject's right eye: on the image's left in an unmirrored photo (33 outer corner, 133 inner).
  eyeA: {
    upper0: [246, 161, 160, 159, 158, 157, 173],
    lower0: [33, 7, 163, 144, 145, 153, 154, 155, 133],
    upper1: [247, 30, 29, 27, 28, 56, 190],
    lower1: [130, 25, 110, 24, 23, 22, 26, 112, 243],
    upper2: [113, 225, 224, 223, 222, 221, 189],
    lower2: [226, 31, 228, 229, 230, 231, 232, 233, 244],
    browUpper: [156, 70, 63, 105, 66, 107, 55, 193],
    browLower: [35, 124, 46, 53, 52, 65],
    iris: [473, 474, 475, 476, 477],
    outer: 33,
    inner: 133,
    top: 159,
    bottom: 145,
  },
  // The subject's left eye (263 outer corner, 362 inner).
  eyeB: {
    upper0: [466, 388, 387, 386, 385, 384, 398],
    lower0: [263, 249, 390, 373, 374, 380, 381, 382, 362],
    upper1: [467, 260, 259, 257, 258, 286, 414],
    lower1: [359, 255, 339, 254, 253, 252, 256, 341, 463],
    upper2: [342, 445, 444, 443, 442, 441, 413],
    lower2: [446, 261, 448, 449, 450, 451, 452, 453, 464],
    browUpper: [383, 300, 293, 334, 296, 336, 285, 417],
    browLower: [265, 353, 276, 283, 282, 295],
    iris: [468, 469, 470, 471, 472],
    outer: 263,
    inner: 362,
    top: 386,
    bottom: 374,
  },
  mouthLeft: 61,
  mouthRight: 291,
  upperLipInner: 13,
  lowerLipInner: 14,
  upperLipOuter: 0,
  lowerLipOuter: 17,
  noseTip: 1,
  noseBottom: 2,
  noseBridge: 168,
  forehead: 10,
  chin: 152,
  cheekLeft: 234,
  cheekRight: 454,
  jawLeft: 172,
  jawRight: 397,
} as const;

export interface EyeAnchors {
  outer: Point2;
  inner: Point2;
  upper: Point2;
  lower: Point2;
  /** Iris centre. */
  center: Point2;
}

export interface FaceAnchors {
  /** By image side: `left` is the eye on the image's left. */
  eyes: { left: EyeAnchors; right: EyeAnchors };
  /** Upper brow contour, outer end first. */
  brows: { left: Point2[]; right: Point2[] };
  mouth: { left: Point2; right: Point2; upperInner: Point2; lowerInner: Point2; upperOuter: Point2; lowerOuter: Point2 };
  jaw: { chin: Point2; left: Point2; right: Point2 };
  nose: { tip: Point2; bottom: Point2; bridge: Point2 };
  forehead: Point2;
}

export interface HeadPose {
  /** Degrees, as the viewer sees it: yaw > 0 turns the face toward the image's right. */
  yaw: number;
  /** Degrees: pitch > 0 tips the head down (chin toward the chest), as the illustrated renderer reads it. */
  pitch: number;
  /** Degrees: roll > 0 tilts the head clockwise in the image. */
  roll: number;
}

/**
 * What is stored with a photo avatar. JSON-serialisable and compact (about 8 KB): the whole mesh is
 * kept because the renderer's triangulation uses it, coordinates rounded to 0.1 px (depth to 1 px).
 */
export interface FaceRig {
  kind: 'photo-face';
  version: 1;
  /** Size of the image the coordinates refer to (after EXIF orientation). */
  image: { width: number; height: number };
  /** Detection confidence 0..1. */
  score: number;
  /** Face box [x, y, width, height]. */
  box: [number, number, number, number];
  /** 478 points flattened as [x0, y0, z0, x1, y1, z1, ...]; z is relative depth (smaller = nearer). */
  mesh: number[];
  anchors: FaceAnchors;
  headPose: HeadPose;
}

/** Neutral-independent measures of an expression, used for motion transfer. */
export interface FaceMeasures {
  /** Inner-lip gap over mouth width. */
  mouthOpen: number;
  /** Corners above the upper lip (over mouth width) plus half the mouth's width over the eyes' distance. */
  smile: number;
  /** Brow-to-eye distance over inter-ocular distance. */
  brow: number;
  /** Lid gap over eye width (average of both eyes). */
  eyeOpen: number;
  /** Inter-ocular distance in pixels (scale of the face). */
  iod: number;
  /** Centre between the eyes, pixels. */
  center: Point2;
  headPose: HeadPose;
}

export interface DetectOptions {
  signal?: AbortSignal;
  /** Faces smaller than this (box width, pixels) count as no face: too small to animate. Default 40. */
  minFaceSize?: number;
}

const MIN_FACE_SCORE = 0.5;

/** Rounded to 0.1 (never -0: the rig must survive a JSON round trip unchanged). */
const round1 = (v: number) => round(v * 10) / 10 + 0;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'The render was cancelled');
}

/** Runs human on an RGB buffer; returns the best face in that buffer's pixel coordinates. */
export async function detectInRgb(rgb: Uint8Array, width: number, height: number, options: DetectOptions = {}): Promise<HumanFaceResult | null> {
  throwIfAborted(options.signal);
  return withHuman(async (human: HumanInstance) => {
    throwIfAborted(options.signal);
    const tensor = human.tf.tensor3d(rgb, [height, width, 3], 'int32');
    let faces: HumanFaceResult[];
    try {
      const result = await human.detect(tensor);
      if (result.error) throw new Error(String(result.error));
      faces = result.face ?? [];
    } catch (cause) {
      throw new EngineError('engine_failure', `Face detection failed: ${(cause as Error).message}`, { cause });
    } finally {
      tensor.dispose();
    }
    const minSize = options.minFaceSize ?? 40;
    const usable = faces.filter(
      (f) =>
        f.mesh?.length >= MESH.count &&
        (f.faceScore ?? f.score) >= MIN_FACE_SCORE &&
        f.box[2] >= minSize &&
        f.mesh.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])),
    );
    if (usable.length === 0) return null;
    // The largest face is the subject (a photo avatar is one person; bystanders are smaller).
    usable.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
    return usable[0] ?? null;
  });
}

/** Builds a rig from a human mesh (scaled by `scale` into the image's pixels). Exported for tests. */
export function rigFromMesh(mesh: ArrayLike<ArrayLike<number>>, image: { width: number; height: number }, scale: number, score: number): FaceRig {
  const flat: number[] = new Array(MESH.count * 3);
  for (let i = 0; i < MESH.count; i++) {
    const p = mesh[i];
    if (!p) throw new EngineError('engine_failure', `Face mesh has ${mesh.length} points, expected ${MESH.count}`);
    flat[i * 3] = round1((p[0] ?? 0) * scale);
    flat[i * 3 + 1] = round1((p[1] ?? 0) * scale);
    flat[i * 3 + 2] = round((p[2] ?? 0) * scale) + 0;
  }
  const pts = unpackMesh(flat);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < MESH.faceCount; i++) {
    const [x, y] = pts[i]!;
    minX = min(minX, x);
    minY = min(minY, y);
    maxX = max(maxX, x);
    maxY = max(maxY, y);
  }
  const measures = measureFace(pts);
  return {
    kind: 'photo-face',
    version: 1,
    image: { width: image.width, height: image.height },
    score: round(min(1, max(0, score)) * 100) / 100,
    box: [round(minX), round(minY), round(maxX - minX), round(maxY - minY)],
    mesh: flat,
    anchors: anchorsOf(pts),
    headPose: measures.headPose,
  };
}

/** The mesh as [x, y, z] points. */
export function unpackMesh(flat: ArrayLike<number>): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) out.push([flat[i]!, flat[i + 1]!, flat[i + 2]!]);
  return out;
}

type MeshPoints = ArrayLike<ArrayLike<number>>;

const pt = (pts: MeshPoints, i: number): Point2 => {
  const p = pts[i]!;
  return [p[0]!, p[1]!];
};
const r2 = (p: Point2): Point2 => [round1(p[0]), round1(p[1])];
const mean = (pts: MeshPoints, idx: readonly number[]): Point2 => {
  let x = 0, y = 0;
  for (const i of idx) {
    x += pts[i]![0]!;
    y += pts[i]![1]!;
  }
  return [x / idx.length, y / idx.length];
};

/** Which of MESH.eyeA / eyeB is on the image's left. */
type EyeIndices = typeof MESH.eyeA | typeof MESH.eyeB;

function eyeSides(pts: MeshPoints): { left: EyeIndices; right: EyeIndices } {
  const a = mean(pts, MESH.eyeA.lower0);
  const b = mean(pts, MESH.eyeB.lower0);
  return a[0] <= b[0] ? { left: MESH.eyeA, right: MESH.eyeB } : { left: MESH.eyeB, right: MESH.eyeA };
}

function eyeAnchors(pts: MeshPoints, eye: EyeIndices): EyeAnchors {
  return {
    outer: r2(pt(pts, eye.outer)),
    inner: r2(pt(pts, eye.inner)),
    upper: r2(pt(pts, eye.top)),
    lower: r2(pt(pts, eye.bottom)),
    center: r2(pt(pts, eye.iris[0])),
  };
}

function anchorsOf(pts: MeshPoints): FaceAnchors {
  const sides = eyeSides(pts);
  const mouthA = pt(pts, MESH.mouthLeft);
  const mouthB = pt(pts, MESH.mouthRight);
  const [mouthLeft, mouthRight] = mouthA[0] <= mouthB[0] ? [mouthA, mouthB] : [mouthB, mouthA];
  const jawA = pt(pts, MESH.jawLeft);
  const jawB = pt(pts, MESH.jawRight);
  const [jawLeft, jawRight] = jawA[0] <= jawB[0] ? [jawA, jawB] : [jawB, jawA];
  return {
    eyes: { left: eyeAnchors(pts, sides.left), right: eyeAnchors(pts, sides.right) },
    brows: {
      left: sides.left.browUpper.map((i) => r2(pt(pts, i))),
      right: sides.right.browUpper.map((i) => r2(pt(pts, i))),
    },
    mouth: {
      left: r2(mouthLeft),
      right: r2(mouthRight),
      upperInner: r2(pt(pts, MESH.upperLipInner)),
      lowerInner: r2(pt(pts, MESH.lowerLipInner)),
      upperOuter: r2(pt(pts, MESH.upperLipOuter)),
      lowerOuter: r2(pt(pts, MESH.lowerLipOuter)),
    },
    jaw: { chin: r2(pt(pts, MESH.chin)), left: r2(jawLeft), right: r2(jawRight) },
    nose: { tip: r2(pt(pts, MESH.noseTip)), bottom: r2(pt(pts, MESH.noseBottom)), bridge: r2(pt(pts, MESH.noseBridge)) },
    forehead: r2(pt(pts, MESH.forehead)),
  };
}

const dist = (a: Point2, b: Point2) => hypot(a[0] - b[0], a[1] - b[1]);
const DEG = 180 / PI;

/**
 * Expression and head pose measured from landmarks alone, in a face frame (u along the eye line,
 * v perpendicular, down): ratios that do not depend on the face's size or tilt.
 *
 * Head pose: roll is the eye line's angle; yaw comes from the nose tip's offset between the face's
 * sides; pitch from the depth (z) difference between chin and forehead, which facemesh estimates.
 * These are estimates good to a few degrees, enough to drive an avatar, not to measure anyone.
 */
export function measureFace(pts: MeshPoints): FaceMeasures {
  const sides = eyeSides(pts);
  const eyeL = mean(pts, [sides.left.outer, sides.left.inner]);
  const eyeR = mean(pts, [sides.right.outer, sides.right.inner]);
  const center: Point2 = [(eyeL[0] + eyeR[0]) / 2, (eyeL[1] + eyeR[1]) / 2];
  const iod = max(1e-6, dist(eyeL, eyeR));
  const ux = (eyeR[0] - eyeL[0]) / iod;
  const uy = (eyeR[1] - eyeL[1]) / iod;
  // Face frame: u along the eyes (to the image right), v perpendicular pointing down the face.
  const toU = (p: Point2) => (p[0] - center[0]) * ux + (p[1] - center[1]) * uy;
  const toV = (p: Point2) => -(p[0] - center[0]) * uy + (p[1] - center[1]) * ux;
  const roll = atan2(uy, ux) * DEG;

  const mouthL = pt(pts, MESH.mouthLeft);
  const mouthR = pt(pts, MESH.mouthRight);
  const mouthWidth = max(1e-6, dist(mouthL, mouthR));
  const mouthOpen = max(0, toV(pt(pts, MESH.lowerLipInner)) - toV(pt(pts, MESH.upperLipInner))) / mouthWidth;
  // Smile: the corners' height against the upper lip (which a jaw drop leaves in place), plus the
  // mouth's widening, which a smile brings and an open mouth does not.
  const smile = (toV(pt(pts, MESH.upperLipInner)) - (toV(mouthL) + toV(mouthR)) / 2) / mouthWidth + 0.5 * (mouthWidth / iod);

  // Brows against the eye corners (which stay put when the lids open or close).
  const browOf = (eye: EyeIndices) => toV(mean(pts, [eye.outer, eye.inner])) - toV(mean(pts, eye.browUpper.slice(2, 6)));
  const brow = (browOf(MESH.eyeA) + browOf(MESH.eyeB)) / 2 / iod;

  const lidOf = (eye: EyeIndices) =>
    max(0, toV(pt(pts, eye.bottom)) - toV(pt(pts, eye.top))) / max(1e-6, dist(pt(pts, eye.outer), pt(pts, eye.inner)));
  const eyeOpen = (lidOf(MESH.eyeA) + lidOf(MESH.eyeB)) / 2;

  // Yaw: the nose tip between the face's two sides (0 centred, ±1 at a side), through asin.
  const sideL = toU(pt(pts, MESH.cheekLeft));
  const sideR = toU(pt(pts, MESH.cheekRight));
  const half = max(1e-6, (max(sideL, sideR) - min(sideL, sideR)) / 2);
  const mid = (sideL + sideR) / 2;
  const yawRatio = (toU(pt(pts, MESH.noseTip)) - mid) / half;
  const yaw = asin(max(-1, min(1, yawRatio))) * DEG;

  // Pitch: chin vs forehead depth (facemesh z grows away from the camera), over face height: a head
  // tipped down brings the forehead nearer and takes the chin away.
  const forehead = pts[MESH.forehead]!;
  const chin = pts[MESH.chin]!;
  const faceHeight = max(1e-6, toV(pt(pts, MESH.chin)) - toV(pt(pts, MESH.forehead)));
  const depthTilt = ((chin[2] ?? 0) - (forehead[2] ?? 0)) / faceHeight;
  const pitch = asin(max(-1, min(1, depthTilt))) * DEG;

  return {
    mouthOpen,
    smile,
    brow,
    eyeOpen,
    iod,
    center,
    headPose: { yaw: round1(yaw), pitch: round1(pitch), roll: round1(roll) },
  };
}

/** Whether a value read back from storage looks like a FaceRig this code can use. */
export function isFaceRig(value: unknown): value is FaceRig {
  if (!value || typeof value !== 'object') return false;
  const rig = value as Partial<FaceRig>;
  return (
    rig.kind === 'photo-face' &&
    rig.version === 1 &&
    Array.isArray(rig.mesh) &&
    rig.mesh.length === MESH.count * 3 &&
    rig.mesh.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
    !!rig.image &&
    rig.image.width > 0 &&
    rig.image.height > 0
  );
}
