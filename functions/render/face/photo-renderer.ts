/**
 * Draws a photo avatar's reaction frames: the photo cover-fitted into the upper part of
 * the 9:16 frame over a blurred, enlarged copy of itself, the face warped by a triangle mesh over its
 * landmarks (brows, eyes, jaw with a painted mouth, smile, a little head turn), and the virtual
 * camera applied to the whole picture.
 *
 * Cost model: `preparePhoto` does the heavy work once (decode, resize, blur, composite, triangulate);
 * `drawPhotoFrame` redraws only the face's patch in JS (a typed-array triangle rasteriser over the
 * triangles that moved) and lets Skia place the picture with the camera transform.
 */
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { EngineError, REACTION_CLIP } from '#ports/engine';
import type { CameraPose, FacePose, ReactionFrame } from '../reaction/animation';
import { uprightSize } from './upright-size';
import { isFaceRig, MESH, type FaceRig } from './landmarks';
import { buildFaceModel, deform, rasterize, type FaceModel, type Rect } from './warp';
import { compose, transformedBox, type Affine } from '../reaction/affine';
import { HANDHELD_OVERSCAN } from '../reaction/camera';
const { abs, atan2, cos, floor, hypot, max, min, PI, round, sin } = Math;

export interface PhotoLayout {
  /** Output size. */
  width: number;
  height: number;
  /**
   * Where the photo itself lands in the output (output pixels; it may reach past the frame). Outside
   * it the picture is the photo's own edges carried outwards, blurred and darkened with distance.
   */
  region: Rect;
  /** Image pixels → output pixels: out = image * scale + offset. */
  scale: number;
  offsetX: number;
  offsetY: number;
}

export interface PreparedFace {
  model: FaceModel;
  /** The warped patch, written into the base canvas at `model.patch`. */
  patchData: ImageData;
  patchPixels: Uint32Array;
  /** Scratch buffer for the deformed points. */
  points: Float32Array;
  /** Where the base canvas holds warped pixels (restored when the face comes back to rest). */
  dirty: Rect | null;
  /** The points drawn last, to skip a frame that looks the same (a held expression). */
  lastPoints: Float32Array | null;
}

export interface PreparedPhoto {
  layout: PhotoLayout;
  /** Extra picture around the output on every side, so camera moves never show an empty edge. */
  margin: number;
  /**
   * The picture (background + photo), (width + 2·margin) × (height + 2·margin). Each frame writes its
   * warped face into it, so one PreparedPhoto renders one frame at a time.
   */
  base: Canvas;
  baseCtx: SKRSContext2D;
  baseWidth: number;
  baseHeight: number;
  /** The base's pixels (0xAABBGGRR), the warp's source. */
  basePixels: Uint32Array;
  /** Null when the rig has no usable face: frames get camera motion only. */
  face: PreparedFace | null;
  /** The point the camera zooms and turns about (output pixels): the face's centre when there is one. */
  pivot: [number, number];
  /** The eyes-to-mouth box at rest (output pixels, before the camera), with room for the expressions; null without a face. */
  eyesToMouth: Rect | null;
}

export interface PrepareOptions {
  width?: number;
  height?: number;
}

const MIN_IOD_PX = 14;

/**
 * The face's width as a share of the frame's: a selfie video holds the face at about this size (eyes
 * in the upper third, shoulders at the bottom), whatever the upload's own framing.
 */
export const SELFIE_FACE_WIDTH = 0.52;
/** Where the face's centre sits, as a share of the frame's height. */
const SELFIE_FACE_Y = 0.4;

/**
 * Picture kept around the output on every side (a share of its long side) so no camera move shows an
 * edge: the curve's limits (a 0.9 zoom-out, a 4° turn, 60 px) and a reference clip's larger travel
 * all stay inside 0.16, and the hand-held camera that films every frame on top needs its own overscan
 * (photo-renderer.test.ts checks the corners).
 */
const MARGIN = 0.16 + HANDHELD_OVERSCAN;

/**
 * Where the photo meets its extension, over how much of the output's height (or width, for the sides)
 * the photo fades into the blurred extension: inside the photo where that edge is on screen (the
 * photo's own edge is then never seen), outside it where the edge is only in the margin. Then how much
 * darker the far extension gets. Each is one long gradient, so no row or column steps.
 */
const FEATHER = { top: 0.1, bottom: 0.14, side: 0.06 } as const;
const EXTENSION_DARKEN = 0.3;

const clamp = (v: number, lo: number, hi: number) => max(lo, min(hi, v));
const smoothstep = (e0: number, e1: number, x: number) => {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
};

/**
 * Frames a photo like a selfie video: the face at SELFIE_FACE_WIDTH of the frame's width, centred,
 * its centre at SELFIE_FACE_Y of the height; never narrower than the frame (the sides would be all
 * extension). Without a face the photo covers the whole 9:16 frame.
 */
export function layoutPhoto(imageWidth: number, imageHeight: number, face: { x: number; y: number; width?: number } | null, width: number, height: number): PhotoLayout {
  const cover = max(width / imageWidth, height / imageHeight);
  const scale = face?.width ? max(width / imageWidth, (SELFIE_FACE_WIDTH * width) / face.width) : cover;
  const drawnW = imageWidth * scale, drawnH = imageHeight * scale;
  const cx = face ? face.x * scale : drawnW / 2;
  const offsetX = clamp(width / 2 - cx, width - drawnW, 0);
  const wantY = face ? height * SELFIE_FACE_Y - face.y * scale : (height - drawnH) / 2;
  // A photo taller than the frame is cropped (never leaving a gap); a shorter one stays whole inside it.
  const offsetY = drawnH >= height ? clamp(wantY, height - drawnH, 0) : clamp(wantY, 0, height - drawnH);
  return { width, height, region: { x: offsetX, y: offsetY, width: drawnW, height: drawnH }, scale, offsetX, offsetY };
}

const clampIndex = (u: number, n: number) => (u < 0 ? 0 : u >= n ? n - 1 : u);

/**
 * The photo over the whole base, extended past its edges: its edge pixels carried outwards (which
 * continues every edge without a step; a mirror image would repeat the face, upside down), blurred
 * until only the colours remain, and darkened with distance. The photo fades into that extension over
 * a long feather, so no row or column shows a seam.
 */
async function extendPhoto(photo: Buffer, pw: number, ph: number, rect: { x: number; y: number }, baseW: number, baseH: number, margin: number): Promise<Uint8ClampedArray> {
  const extended = new Uint8ClampedArray(baseW * baseH * 4);
  const src = new Uint32Array(Uint8Array.from(photo).buffer, 0, pw * ph); // a copy: aligned for the 32-bit view
  const dst = new Uint32Array(extended.buffer);
  const columns = new Int32Array(baseW);
  for (let x = 0; x < baseW; x++) columns[x] = clampIndex(x - rect.x, pw);
  for (let y = 0; y < baseH; y++) {
    const row = clampIndex(y - rect.y, ph) * pw;
    const o = y * baseW;
    for (let x = 0; x < baseW; x++) dst[o + x] = src[row + columns[x]!]!;
  }
  if (rect.x <= 0 && rect.y <= 0 && rect.x + pw >= baseW && rect.y + ph >= baseH) return extended;

  // Blurred small: a wide blur for a fraction of the work, and wider across than down, so the carried
  // edge's streaks (a dark head of hair at the top edge) melt into the colours beside them. Three
  // pipelines, because sharp runs one resize per pipeline, before its blur, whatever order they are
  // called in.
  const small = { width: max(6, round(baseW / 40)), height: max(8, round(baseH / 16)) };
  const raw = (width: number, height: number) => ({ raw: { width, height, channels: 4 as const } });
  const shrunk = await sharp(Buffer.from(extended.buffer), raw(baseW, baseH)).resize(small.width, small.height, { fit: 'fill' }).raw().toBuffer();
  const soft = await sharp(shrunk, raw(small.width, small.height)).blur(3).raw().toBuffer();
  const blurred = await sharp(soft, raw(small.width, small.height)).resize(baseW, baseH, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();

  const outW = baseW - 2 * margin, outH = baseH - 2 * margin;
  // One edge's weight at distance d inside the photo (negative: outside). An edge on screen fades the
  // photo out inside itself; an edge in the margin keeps the photo and fades the carried edge outside.
  const edge = (d: number, feather: number, onScreen: boolean) => (onScreen ? smoothstep(0, feather, d) : 1 - smoothstep(0, feather, -d));
  const topOn = rect.y > margin, bottomOn = rect.y + ph < margin + outH;
  const leftOn = rect.x > margin, rightOn = rect.x + pw < margin + outW;
  const fTop = FEATHER.top * outH, fBottom = FEATHER.bottom * outH, fSide = FEATHER.side * outW;
  const darkenOver = 0.35 * outH;
  const wx = new Float32Array(baseW), outX = new Float32Array(baseW);
  for (let x = 0; x < baseW; x++) {
    wx[x] = edge(x - rect.x, fSide, leftOn) * edge(rect.x + pw - 1 - x, fSide, rightOn);
    outX[x] = max(0, rect.x - x, x - (rect.x + pw - 1));
  }
  for (let y = 0; y < baseH; y++) {
    const wy = edge(y - rect.y, fTop, topOn) * edge(rect.y + ph - 1 - y, fBottom, bottomOn);
    const outY = max(0, rect.y - y, y - (rect.y + ph - 1));
    for (let x = 0; x < baseW; x++) {
      const w = wy * wx[x]!;
      const far = outY > 0 || outX[x]! > 0 ? hypot(outX[x]!, outY) : 0;
      if (w >= 1 && far === 0) continue;
      const k = 1 - EXTENSION_DARKEN * smoothstep(0, darkenOver, far);
      const o = (y * baseW + x) * 4;
      for (let c = 0; c < 3; c++) extended[o + c] = (extended[o + c]! * w + blurred[o + c]! * (1 - w)) * k;
    }
  }
  return extended;
}

/** The rig scaled to the image as it is now (a rig from another size of the same picture still fits). */
function rigForImage(rig: unknown, width: number, height: number): FaceRig | null {
  if (!isFaceRig(rig)) return null;
  const sx = width / rig.image.width, sy = height / rig.image.height;
  if (abs(sx - sy) > 0.01 * max(sx, sy)) return null; // another picture: do not guess
  if (abs(sx - 1) < 1e-6) return rig;
  return {
    ...rig,
    image: { width, height },
    box: [rig.box[0] * sx, rig.box[1] * sx, rig.box[2] * sx, rig.box[3] * sx],
    mesh: rig.mesh.map((v) => v * sx),
  };
}

/**
 * Decodes and lays out a photo for a reaction. `rig` is what `detectFace` stored (anything else, or
 * null, means "no face": the frames then only move the camera). Throws EngineError('invalid_input')
 * for an image that cannot be decoded.
 */
export async function preparePhoto(image: string | Buffer, rig: unknown, options: PrepareOptions = {}): Promise<PreparedPhoto> {
  const width = options.width ?? REACTION_CLIP.width;
  const height = options.height ?? REACTION_CLIP.height;
  const { width: imgW, height: imgH } = await uprightSize(image, 'The avatar image');

  const faceRig = rigForImage(rig, imgW, imgH);
  const face = faceRig ? { x: faceRig.box[0] + faceRig.box[2] / 2, y: faceRig.box[1] + faceRig.box[3] / 2, width: faceRig.box[2] } : null;
  const layout = layoutPhoto(imgW, imgH, face, width, height);
  const margin = round(max(width, height) * MARGIN);
  const baseW = width + 2 * margin, baseH = height + 2 * margin;

  // The photo at its drawn size, only the part the base can show (a large upload zoomed on its face
  // would otherwise be resized whole).
  const drawnW = max(1, round(imgW * layout.scale));
  const drawnH = max(1, round(imgH * layout.scale));
  layout.scale = drawnW / imgW; // the scale actually used after rounding
  const left = clamp(floor(-(layout.offsetX + margin)), 0, drawnW - 1);
  const top = clamp(floor(-(layout.offsetY + margin)), 0, drawnH - 1);
  const keptW = min(drawnW - left, baseW), keptH = min(drawnH - top, baseH);
  const rect = { x: round(layout.offsetX + margin) + left, y: round(layout.offsetY + margin) + top };
  layout.offsetX = rect.x - left - margin;
  layout.offsetY = rect.y - top - margin;
  layout.region = { x: layout.offsetX, y: layout.offsetY, width: drawnW, height: drawnH };

  let pixels: Uint8ClampedArray;
  try {
    const photo = await sharp(image)
      .rotate()
      .resize(drawnW, drawnH, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left, top, width: keptW, height: keptH })
      .removeAlpha()
      .ensureAlpha()
      .raw()
      .toBuffer();
    pixels = await extendPhoto(photo, keptW, keptH, rect, baseW, baseH, margin);
  } catch (cause) {
    throw new EngineError('invalid_input', 'The avatar image could not be decoded', { cause });
  }
  for (let k = 3; k < pixels.length; k += 4) pixels[k] = 255;

  const base = createCanvas(baseW, baseH);
  const baseCtx = base.getContext('2d');
  baseCtx.putImageData(new ImageData(pixels, baseW, baseH), 0, 0);
  const basePixels = new Uint32Array(pixels.buffer, pixels.byteOffset, baseW * baseH);

  let prepared: PreparedFace | null = null;
  let pivot: [number, number] = [width / 2, height * SELFIE_FACE_Y];
  if (faceRig) {
    const placement = { scale: layout.scale, offsetX: layout.offsetX + margin, offsetY: layout.offsetY + margin };
    // The warp stays inside the photo: moving it must never drag the extension into the face.
    const x0 = max(0, rect.x), y0 = max(0, rect.y);
    const bounds = { x: x0, y: y0, width: min(baseW, rect.x + keptW) - x0, height: min(baseH, rect.y + keptH) - y0 };
    const model = buildFaceModel(faceRig, placement, bounds);
    if (model.iod >= MIN_IOD_PX && model.triangles.length > 0) {
      const patchData = new ImageData(model.patch.width, model.patch.height);
      prepared = {
        model,
        patchData,
        patchPixels: new Uint32Array(patchData.data.buffer, patchData.data.byteOffset, model.patch.width * model.patch.height),
        points: new Float32Array(model.count * 2),
        dirty: null,
        lastPoints: null,
      };
      pivot = [model.center[0] - margin, model.center[1] - margin];
    }
  }
  return { layout, margin, base, baseCtx, baseWidth: baseW, baseHeight: baseH, basePixels, face: prepared, pivot, eyesToMouth: faceRig ? eyesToMouthOf(faceRig, layout) : null };
}

/**
 * The part of the face a caption must not cover, from the landmarks: brows' underside (the eyes' top
 * lids) to the lower lip, eye corner to eye corner, in output pixels. The warp opens the mouth and
 * lifts the brows by a fraction of the face: the box is widened by what an expression can move.
 */
function eyesToMouthOf(rig: FaceRig, layout: PhotoLayout): Rect {
  const { eyes, mouth } = rig.anchors;
  const xs = [eyes.left.outer[0], eyes.right.outer[0], mouth.left[0], mouth.right[0]];
  const top = min(eyes.left.upper[1], eyes.right.upper[1]);
  const bottom = mouth.lowerOuter[1];
  const span = max(1, bottom - top);
  const x0 = min(...xs) - span * 0.12, x1 = max(...xs) + span * 0.12;
  const y0 = top - span * 0.12, y1 = bottom + span * 0.4;
  const out = (v: number, offset: number) => v * layout.scale + offset;
  return { x: out(x0, layout.offsetX), y: out(y0, layout.offsetY), width: (x1 - x0) * layout.scale, height: (y1 - y0) * layout.scale };
}

/** The face's eyes-to-mouth box in this frame (output pixels), the camera applied; null without a face. */
export function photoFaceBox(prepared: PreparedPhoto, frame: ReactionFrame): Rect | null {
  return prepared.eyesToMouth ? transformedBox(cameraMatrix(frame.camera, prepared.pivot), prepared.eyesToMouth) : null;
}

/** The camera as a canvas transform (about the pivot, offset in output pixels). */
export function cameraMatrix(camera: CameraPose, pivot: [number, number]): [number, number, number, number, number, number] {
  const zoom = Number.isFinite(camera.zoom) && camera.zoom > 0.1 ? camera.zoom : 1;
  const theta = ((Number.isFinite(camera.rotation) ? camera.rotation : 0) * PI) / 180;
  const ox = Number.isFinite(camera.offsetX) ? camera.offsetX : 0;
  const oy = Number.isFinite(camera.offsetY) ? camera.offsetY : 0;
  const c = cos(theta) * zoom, s = sin(theta) * zoom;
  const [px, py] = pivot;
  // out = T(pivot + offset) · R · S · T(−pivot) · p
  return [c, s, -s, c, px + ox - (c * px - s * py), py + oy - (s * px + c * py)];
}

/** Whether the base, drawn with this transform, covers the whole output. */
function covers(m: Affine, prepared: PreparedPhoto): boolean {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (abs(det) < 1e-9) return false;
  const { width, height } = prepared.layout;
  const M = prepared.margin;
  for (const [qx, qy] of [[0, 0], [width, 0], [0, height], [width, height]] as const) {
    const x = (d * (qx - e) - c * (qy - f)) / det;
    const y = (-b * (qx - e) + a * (qy - f)) / det;
    if (x < -M || y < -M || x > width + M || y > height + M) return false;
  }
  return true;
}

/**
 * How far (pixels, any point) a frame's points may be from those last drawn and still reuse that
 * drawing. A quarter pixel is below what the bilinear warp resolves visibly, yet a slow hold moves
 * less than that per frame about a quarter of the time: those frames skip the warp (the camera still
 * moves them). Measured from the last drawn points, so a slow drift never accumulates.
 */
const REUSE_TOLERANCE_PX = 0.25;

function samePoints(a: Float32Array, b: Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (abs(a[i]! - b[i]!) > REUSE_TOLERANCE_PX) return false;
  return true;
}

function isNeutral(face: FacePose): boolean {
  return (
    abs(face.mouthOpen) < 1e-3 &&
    abs(face.smile) < 1e-3 &&
    abs(face.browRaise) < 1e-3 &&
    abs(face.eyeOpen - 1) < 1e-3 &&
    abs(face.headYaw) < 0.05 &&
    abs(face.headPitch) < 0.05 &&
    abs(face.headRoll) < 0.05
  );
}

/**
 * Draws one frame onto `ctx` (an output-sized canvas), inside the transform it holds: picture, warped
 * face, camera. Leaves the context's transform and state as it found them. Never throws for a face it cannot warp: a photo
 * prepared without a face only moves the camera.
 */
export function drawPhotoFrame(ctx: SKRSContext2D, prepared: PreparedPhoto, frame: ReactionFrame): void {
  const face = prepared.face;
  if (face) {
    const { x: px, y: py, width: pw } = face.model.patch;
    const put = (r: Rect) => prepared.baseCtx.putImageData(face.patchData, px, py, r.x - px, r.y - py, r.width, r.height);
    if (!isNeutral(frame.face)) {
      const points = deform(face.model, frame.face, face.points);
      if (!face.lastPoints || !samePoints(points, face.lastPoints) || face.dirty === null) {
        const { dirty } = rasterize(face.model, points, prepared.basePixels, prepared.baseWidth, prepared.baseHeight, face.patchPixels, face.dirty);
        if (dirty) put(dirty);
        face.dirty = dirty;
        const bctx = prepared.baseCtx;
        bctx.save();
        bctx.translate(px, py);
        paintMouth(bctx, face.model, points);
        paintLashes(bctx, face.model, points, clamp(1 - frame.face.eyeOpen, 0, 1));
        bctx.restore();
        face.lastPoints = face.lastPoints ?? new Float32Array(points.length);
        face.lastPoints.set(points);
      }
    } else if (face.dirty) {
      // Back to the untouched photo.
      const r = face.dirty;
      for (let row = r.y; row < r.y + r.height; row++) {
        const s = row * prepared.baseWidth + r.x;
        face.patchPixels.set(prepared.basePixels.subarray(s, s + r.width), (row - py) * pw + (r.x - px));
      }
      put(r);
      face.dirty = null;
      face.lastPoints = null;
    }
  }
  // The frame's camera inside the hand-held camera's (reaction/camera.ts), which the margin covers too.
  const { a, b, c, d, e, f } = ctx.getTransform();
  const m = compose([a, b, c, d, e, f], cameraMatrix(frame.camera, prepared.pivot));
  ctx.save();
  if (!covers(m, prepared)) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#101014';
    ctx.fillRect(0, 0, prepared.layout.width, prepared.layout.height);
  }
  ctx.setTransform(m[0], m[1], m[2], m[3], m[4], m[5]);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(prepared.base, -prepared.margin, -prepared.margin);
  ctx.restore();
}

/** A smooth closed path through points (quadratic curves between midpoints). */
function smoothClosedPath(ctx: SKRSContext2D, pts: [number, number][]): void {
  const n = pts.length;
  const mid = (a: [number, number], b: [number, number]): [number, number] => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const start = mid(pts[n - 1]!, pts[0]!);
  ctx.beginPath();
  ctx.moveTo(start[0], start[1]);
  for (let k = 0; k < n; k++) {
    const p = pts[k]!;
    const m = mid(p, pts[(k + 1) % n]!);
    ctx.quadraticCurveTo(p[0], p[1], m[0], m[1]);
  }
  ctx.closePath();
}

/**
 * Paints the open mouth inside the parted inner lips, as a mouth and not a hole (issue 27): a cavity
 * that is darkest at the back and warms towards the lips, a band of upper teeth under the upper lip
 * (lower teeth too once the jaw is well down), the tongue low in the mouth, a shadow where the lips
 * overhang, and a little light on the lower lip. Coordinates are the patch's.
 */
function paintMouth(ctx: SKRSContext2D, model: FaceModel, points: Float32Array): void {
  const { ux, uy, vx, vy } = model.frame;
  const ox = model.patch.x, oy = model.patch.y;
  const P = (i: number): [number, number] => [points[2 * i]! - ox, points[2 * i + 1]! - oy];
  const up = P(MESH.upperLipInner), low = P(MESH.lowerLipInner);
  const gap = (low[0] - up[0]) * vx + (low[1] - up[1]) * vy;
  const opened = gap - model.neutralMouthGap;
  const alpha = smoothstep(0.6, 4, opened) * smoothstep(0.5, 3, gap);
  if (alpha <= 0.01) return;
  const left = P(MESH.mouthLeft), right = P(MESH.mouthRight);
  const mw = hypot(right[0] - left[0], right[1] - left[1]);
  const cx = (up[0] + low[0]) / 2, cy = (up[1] + low[1]) / 2;
  const contour = model.mouthContour.map(P);
  const angle = atan2(uy, ux);

  ctx.save();
  smoothClosedPath(ctx, contour);
  ctx.clip();
  ctx.globalAlpha = alpha;
  // As soft as the photo around it: a drawn mouth crisper than the face reads as a sticker.
  ctx.filter = `blur(${max(0.5, mw * 0.012).toFixed(2)}px)`;

  // Cavity: the back of the mouth (just under the upper teeth) darkest, warmer and redder towards the
  // lower lip and the corners, never flat black.
  const backX = up[0] + vx * gap * 0.35, backY = up[1] + vy * gap * 0.35;
  const cavity = ctx.createRadialGradient(backX, backY, 0, backX, backY, max(mw * 0.55, gap));
  cavity.addColorStop(0, 'rgb(30, 10, 12)');
  cavity.addColorStop(0.45, 'rgb(58, 20, 22)');
  cavity.addColorStop(1, 'rgb(112, 46, 46)');
  ctx.fillStyle = cavity;
  ctx.fillRect(cx - mw, cy - mw, 2 * mw, 2 * mw);

  // Tongue: a rounded mound resting on the lower teeth, lit from the front.
  const tongueH = min(gap * 0.42, mw * 0.24);
  if (tongueH > 1.5) {
    const tx = low[0] - vx * tongueH * 0.1, ty = low[1] - vy * tongueH * 0.1;
    ctx.save();
    ctx.translate(tx, ty);
    ctx.rotate(angle);
    ctx.scale(1, (tongueH * 1.25) / (mw * 0.34));
    const tongue = ctx.createRadialGradient(0, -mw * 0.16, 0, 0, 0, mw * 0.34);
    tongue.addColorStop(0, 'rgba(168, 84, 86, 0.85)');
    tongue.addColorStop(0.55, 'rgba(134, 60, 64, 0.7)');
    tongue.addColorStop(1, 'rgba(90, 30, 34, 0)');
    ctx.fillStyle = tongue;
    ctx.beginPath();
    ctx.arc(0, 0, mw * 0.34, 0, PI * 2);
    ctx.fill();
    ctx.restore();
  }

  // Teeth: an off-white band along the inner lip, tapering to the corners, shaded towards its edge
  // and split by faint gaps; the lower row only shows once the jaw is well down.
  const band = (lip: readonly number[], height: number, sign: 1 | -1, opacity: number) => {
    const n = lip.length;
    const from = 2, to = n - 3;
    const edge: [number, number][] = [];
    const inner: [number, number][] = [];
    for (let k = from; k <= to; k++) {
      const [x, y] = P(lip[k]!);
      const taper = sin((PI * (k - from + 0.5)) / (to - from + 1)) ** 0.5;
      edge.push([x - sign * vx * 2, y - sign * vy * 2]);
      inner.push([x + sign * vx * height * taper, y + sign * vy * height * taper]);
    }
    const mid = P(lip[floor(n / 2)]!);
    const shade = ctx.createLinearGradient(mid[0], mid[1], mid[0] + sign * vx * height, mid[1] + sign * vy * height);
    shade.addColorStop(0, `rgba(232, 224, 210, ${opacity})`);
    shade.addColorStop(0.7, `rgba(208, 196, 180, ${opacity})`);
    shade.addColorStop(1, `rgba(160, 140, 128, ${opacity * 0.7})`);
    ctx.fillStyle = shade;
    smoothClosedPath(ctx, [...edge, ...inner.reverse()]);
    ctx.fill();
    // Gaps between the front teeth: short, soft lines across the band.
    ctx.strokeStyle = `rgba(120, 96, 88, ${0.18 * opacity})`;
    ctx.lineWidth = max(0.6, mw * 0.012);
    ctx.beginPath();
    for (const f of [-0.2, 0, 0.2]) {
      const bx = mid[0] + ux * f * mw, by = mid[1] + uy * f * mw;
      ctx.moveTo(bx, by);
      ctx.lineTo(bx + sign * vx * height * 0.85, by + sign * vy * height * 0.85);
    }
    ctx.stroke();
  };
  const upperH = clamp(gap * 0.3, 0, mw * 0.13);
  if (upperH > 1) band(MESH.lipsUpperInner, upperH, 1, 0.95);
  const lowerH = clamp((gap - mw * 0.3) * 0.25, 0, mw * 0.08);
  if (lowerH > 1) band(MESH.lipsLowerInner, lowerH, -1, 0.75);

  // The lips' shadow inside the mouth: a ring around the mouth, clipped away, casts a blurred shadow
  // inward, deeper under the upper lip.
  ctx.shadowColor = 'rgba(20, 5, 6, 0.8)';
  ctx.shadowBlur = max(2, mw * 0.07);
  ctx.shadowOffsetX = vx * mw * 0.02;
  ctx.shadowOffsetY = vy * mw * 0.02;
  ctx.fillStyle = 'rgb(20, 5, 6)';
  smoothClosedPath(ctx, contour);
  ctx.rect(cx - 2 * mw, cy - 2 * mw, 4 * mw, 4 * mw);
  ctx.fill('evenodd');
  ctx.restore();

  // Lip shading outside the cavity: a soft highlight along the lower lip's fullness.
  ctx.save();
  ctx.globalAlpha = alpha * 0.22;
  ctx.strokeStyle = 'rgba(255, 214, 206, 0.5)';
  ctx.lineWidth = max(1, mw * 0.05);
  ctx.shadowColor = 'rgba(255, 214, 206, 0.5)';
  ctx.shadowBlur = max(2, mw * 0.05);
  ctx.lineCap = 'round';
  ctx.beginPath();
  const lower = MESH.lipsLowerInner;
  for (let k = 3; k < lower.length - 3; k++) {
    const [x, y] = P(lower[k]!);
    const px = x + vx * mw * 0.07, py = y + vy * mw * 0.07;
    if (k === 3) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.stroke();
  ctx.restore();
}

/** A dark lash line where a closing eye's lids meet, so a shut eye reads as one. */
function paintLashes(ctx: SKRSContext2D, model: FaceModel, points: Float32Array, closed: number): void {
  const a = smoothstep(0.45, 0.95, closed);
  if (a <= 0.01) return;
  const ox = model.patch.x, oy = model.patch.y;
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const eye of [MESH.eyeA, MESH.eyeB]) {
    const idx = [eye.outer, ...eye.upper0, eye.inner];
    const w = hypot(points[2 * eye.outer]! - points[2 * eye.inner]!, points[2 * eye.outer + 1]! - points[2 * eye.inner + 1]!);
    for (const [lw, la] of [[0.12, 0.12], [0.06, 0.2], [0.03, 0.3]] as const) {
      ctx.strokeStyle = `rgba(38, 26, 24, ${la * a})`;
      ctx.lineWidth = max(1, w * lw);
      ctx.beginPath();
      idx.forEach((i, k) => {
        const x = points[2 * i]! - ox, y = points[2 * i + 1]! - oy;
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
    }
  }
  ctx.restore();
}
