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
import sharp, { type Metadata } from 'sharp';
import { EngineError, REACTION_CLIP } from '#ports/engine';
import type { CameraPose, FacePose, ReactionFrame } from '../reaction/animation';
import { isFaceRig, MESH, type FaceRig } from './landmarks';
import { buildFaceModel, deform, rasterize, type FaceModel, type Rect } from './warp';

export interface PhotoLayout {
  /** Output size. */
  width: number;
  height: number;
  /** Where the photo sits in the output (top-anchored, full width); below it the blurred copy shows. */
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

const SHADOW = 64;
const MIN_IOD_PX = 14;

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const smoothstep = (e0: number, e1: number, x: number) => {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
};

/** Places the photo: region height from its aspect (square to full 9:16), cover-fit, face-centred. */
export function layoutPhoto(imageWidth: number, imageHeight: number, face: { x: number; y: number } | null, width: number, height: number): PhotoLayout {
  const regionH = Math.round(clamp((width * imageHeight) / imageWidth, width, height));
  const scale = Math.max(width / imageWidth, regionH / imageHeight);
  const drawnW = imageWidth * scale, drawnH = imageHeight * scale;
  const cx = face ? face.x * scale : drawnW / 2;
  const offsetX = clamp(width / 2 - cx, width - drawnW, 0);
  const offsetY = face ? clamp(regionH * 0.42 - face.y * scale, regionH - drawnH, 0) : (regionH - drawnH) * 0.25;
  return { width, height, region: { x: 0, y: 0, width, height: regionH }, scale, offsetX, offsetY };
}

/** The rig scaled to the image as it is now (a rig from another size of the same picture still fits). */
function rigForImage(rig: unknown, width: number, height: number): FaceRig | null {
  if (!isFaceRig(rig)) return null;
  const sx = width / rig.image.width, sy = height / rig.image.height;
  if (Math.abs(sx - sy) > 0.01 * Math.max(sx, sy)) return null; // another picture: do not guess
  if (Math.abs(sx - 1) < 1e-6) return rig;
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
  let meta: Metadata;
  try {
    meta = await sharp(image).metadata();
  } catch (cause) {
    throw new EngineError('invalid_input', 'The avatar image could not be read', { cause });
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const imgW = (swap ? meta.height : meta.width) ?? 0;
  const imgH = (swap ? meta.width : meta.height) ?? 0;
  if (!imgW || !imgH) throw new EngineError('invalid_input', 'The avatar image has no size');

  const faceRig = rigForImage(rig, imgW, imgH);
  const faceCentre = faceRig ? { x: faceRig.box[0] + faceRig.box[2] / 2, y: faceRig.box[1] + faceRig.box[3] / 2 } : null;
  const layout = layoutPhoto(imgW, imgH, faceCentre, width, height);
  const margin = Math.round(Math.max(width, height) * 0.09);
  const baseW = width + 2 * margin, baseH = height + 2 * margin;
  const region = layout.region;

  let photo: Buffer, background: Buffer;
  try {
    const drawnW = Math.max(region.width, Math.round(imgW * layout.scale));
    const drawnH = Math.max(region.height, Math.round(imgH * layout.scale));
    const left = clamp(Math.round(-layout.offsetX), 0, drawnW - region.width);
    const top = clamp(Math.round(-layout.offsetY), 0, drawnH - region.height);
    layout.offsetX = -left;
    layout.offsetY = -top;
    layout.scale = drawnW / imgW; // the scale actually used after rounding
    [photo, background] = await Promise.all([
      sharp(image)
        .rotate()
        .resize(drawnW, drawnH, { fit: 'fill', kernel: 'lanczos3' })
        .extract({ left, top, width: region.width, height: region.height })
        .removeAlpha()
        .ensureAlpha()
        .raw()
        .toBuffer(),
      // Blur at a sixth of the size (the same look, a fraction of the work), then enlarge.
      sharp(image)
        .rotate()
        .resize(Math.round(baseW / 6), Math.round(baseH / 6), { fit: 'cover' })
        .blur(4.5)
        .modulate({ brightness: 0.62, saturation: 0.9 })
        .resize(baseW, baseH, { kernel: 'cubic' })
        .removeAlpha()
        .ensureAlpha()
        .raw()
        .toBuffer(),
    ]);
  } catch (cause) {
    throw new EngineError('invalid_input', 'The avatar image could not be decoded', { cause });
  }

  // Composite: the photo over the background with a clean edge; under that edge, when the photo
  // does not fill the frame, a soft drop shadow so the photo reads as a card above the blur.
  const pixels = new Uint8ClampedArray(background); // a copy: aligned for the 32-bit view below
  if (region.height < height) {
    const top = margin + region.y + region.height;
    for (let r = 0; r < SHADOW; r++) {
      const y = top + r;
      if (y >= baseH) break;
      const t = 1 - r / SHADOW;
      const k = 1 - 0.5 * t * t;
      let o = y * baseW * 4;
      for (let x = 0; x < baseW; x++, o += 4) {
        pixels[o] = pixels[o]! * k;
        pixels[o + 1] = pixels[o + 1]! * k;
        pixels[o + 2] = pixels[o + 2]! * k;
      }
    }
  }
  for (let y = 0; y < region.height; y++) {
    const dstRow = ((margin + region.y + y) * baseW + margin + region.x) * 4;
    pixels.set(photo.subarray(y * region.width * 4, (y + 1) * region.width * 4), dstRow);
  }
  for (let k = 3; k < pixels.length; k += 4) pixels[k] = 255;

  const base = createCanvas(baseW, baseH);
  const baseCtx = base.getContext('2d');
  baseCtx.putImageData(new ImageData(pixels, baseW, baseH), 0, 0);
  const basePixels = new Uint32Array(pixels.buffer, pixels.byteOffset, baseW * baseH);

  let face: PreparedFace | null = null;
  let pivot: [number, number] = [width / 2, region.height * 0.42];
  if (faceRig) {
    const placement = { scale: layout.scale, offsetX: layout.offsetX + margin, offsetY: layout.offsetY + margin };
    // The warp stays inside the photo: moving it must never drag the background into the face.
    const bounds = { x: margin + region.x, y: margin + region.y, width: region.width, height: region.height };
    const model = buildFaceModel(faceRig, placement, bounds);
    if (model.iod >= MIN_IOD_PX && model.triangles.length > 0) {
      const patchData = new ImageData(model.patch.width, model.patch.height);
      face = {
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
  return { layout, margin, base, baseCtx, baseWidth: baseW, baseHeight: baseH, basePixels, face, pivot, eyesToMouth: faceRig ? eyesToMouthOf(faceRig, layout) : null };
}

/**
 * The part of the face a caption must not cover, from the landmarks: brows' underside (the eyes' top
 * lids) to the lower lip, eye corner to eye corner, in output pixels. The warp opens the mouth and
 * lifts the brows by a fraction of the face: the box is widened by what an expression can move.
 */
function eyesToMouthOf(rig: FaceRig, layout: PhotoLayout): Rect {
  const { eyes, mouth } = rig.anchors;
  const xs = [eyes.left.outer[0], eyes.right.outer[0], mouth.left[0], mouth.right[0]];
  const top = Math.min(eyes.left.upper[1], eyes.right.upper[1]);
  const bottom = mouth.lowerOuter[1];
  const span = Math.max(1, bottom - top);
  const x0 = Math.min(...xs) - span * 0.12, x1 = Math.max(...xs) + span * 0.12;
  const y0 = top - span * 0.12, y1 = bottom + span * 0.4;
  const out = (v: number, offset: number) => v * layout.scale + offset;
  return { x: out(x0, layout.offsetX), y: out(y0, layout.offsetY), width: (x1 - x0) * layout.scale, height: (y1 - y0) * layout.scale };
}

/** Where a rectangle lands under a canvas transform: the box around its four corners. */
export function transformedBox(m: readonly [number, number, number, number, number, number], r: Rect): Rect {
  const [a, b, c, d, e, f] = m;
  const corners = [[r.x, r.y], [r.x + r.width, r.y], [r.x, r.y + r.height], [r.x + r.width, r.y + r.height]] as const;
  const xs = corners.map(([x, y]) => a * x + c * y + e);
  const ys = corners.map(([x, y]) => b * x + d * y + f);
  const x = Math.min(...xs), y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The face's eyes-to-mouth box in this frame (output pixels), the camera applied; null without a face. */
export function photoFaceBox(prepared: PreparedPhoto, frame: ReactionFrame): Rect | null {
  return prepared.eyesToMouth ? transformedBox(cameraMatrix(frame.camera, prepared.pivot), prepared.eyesToMouth) : null;
}

/** The camera as a canvas transform (about the pivot, offset in output pixels). */
export function cameraMatrix(camera: CameraPose, pivot: [number, number]): [number, number, number, number, number, number] {
  const zoom = Number.isFinite(camera.zoom) && camera.zoom > 0.1 ? camera.zoom : 1;
  const theta = ((Number.isFinite(camera.rotation) ? camera.rotation : 0) * Math.PI) / 180;
  const ox = Number.isFinite(camera.offsetX) ? camera.offsetX : 0;
  const oy = Number.isFinite(camera.offsetY) ? camera.offsetY : 0;
  const c = Math.cos(theta) * zoom, s = Math.sin(theta) * zoom;
  const [px, py] = pivot;
  // out = T(pivot + offset) · R · S · T(−pivot) · p
  return [c, s, -s, c, px + ox - (c * px - s * py), py + oy - (s * px + c * py)];
}

/** Whether the base, drawn with this transform, covers the whole output. */
function covers(m: [number, number, number, number, number, number], prepared: PreparedPhoto): boolean {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (Math.abs(det) < 1e-9) return false;
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
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > REUSE_TOLERANCE_PX) return false;
  return true;
}

function isNeutral(face: FacePose): boolean {
  return (
    Math.abs(face.mouthOpen) < 1e-3 &&
    Math.abs(face.smile) < 1e-3 &&
    Math.abs(face.browRaise) < 1e-3 &&
    Math.abs(face.eyeOpen - 1) < 1e-3 &&
    Math.abs(face.headYaw) < 0.05 &&
    Math.abs(face.headPitch) < 0.05 &&
    Math.abs(face.headRoll) < 0.05
  );
}

/**
 * Draws one frame onto `ctx` (an output-sized canvas): picture, warped face, camera. Leaves the
 * context's transform and state as it found them. Never throws for a face it cannot warp: a photo
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
  const m = cameraMatrix(frame.camera, prepared.pivot);
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (!covers(m, prepared)) {
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
 * Paints the open mouth inside the parted inner lips: a dark cavity, a hint of upper teeth and of the
 * tongue, and a soft shadow along the lips so they keep their edge. Coordinates are the patch's.
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
  const mw = Math.hypot(right[0] - left[0], right[1] - left[1]);
  const cx = (up[0] + low[0]) / 2, cy = (up[1] + low[1]) / 2;
  const contour = model.mouthContour.map(P);

  ctx.save();
  smoothClosedPath(ctx, contour);
  ctx.clip();
  ctx.globalAlpha = alpha;

  // Cavity: near black at the back, warmer toward the lips.
  const r = Math.max(mw * 0.5, gap * 0.9);
  const cavity = ctx.createRadialGradient(cx, cy, 0, cx, cy, r);
  cavity.addColorStop(0, 'rgb(18, 7, 8)');
  cavity.addColorStop(0.6, 'rgb(34, 12, 13)');
  cavity.addColorStop(1, 'rgb(66, 26, 26)');
  ctx.fillStyle = cavity;
  ctx.fillRect(cx - mw, cy - mw, 2 * mw, 2 * mw);

  const angle = Math.atan2(uy, ux);

  // Tongue: a muted mound low in the mouth, mostly in shadow.
  const tongueH = Math.min(gap * 0.38, mw * 0.2);
  if (tongueH > 1.5) {
    const tx = low[0] + vx * tongueH * 0.25, ty = low[1] + vy * tongueH * 0.25;
    // A radial gradient squashed into an ellipse (the transform), fading to nothing at its rim.
    ctx.save();
    ctx.translate(tx, ty);
    ctx.rotate(angle);
    ctx.scale(1, (tongueH * 1.2) / (mw * 0.36));
    const tongue = ctx.createRadialGradient(0, -mw * 0.12, 0, 0, 0, mw * 0.36);
    tongue.addColorStop(0, 'rgba(150, 72, 74, 0.8)');
    tongue.addColorStop(0.5, 'rgba(118, 48, 50, 0.6)');
    tongue.addColorStop(1, 'rgba(60, 20, 22, 0)');
    ctx.fillStyle = tongue;
    ctx.beginPath();
    ctx.arc(0, 0, mw * 0.36, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }

  // Upper teeth: a soft off-white band under the upper lip, middle of the mouth only.
  const teethH = clamp(gap * 0.2, 0, mw * 0.085);
  if (teethH > 1) {
    const upperIdx = MESH.lipsUpperInner;
    const n = upperIdx.length;
    const from = 2, to = n - 3;
    const teeth = ctx.createLinearGradient(up[0] - vx * 2, up[1] - vy * 2, up[0] + vx * teethH, up[1] + vy * teethH);
    teeth.addColorStop(0, 'rgba(222, 214, 202, 0.72)');
    teeth.addColorStop(0.4, 'rgba(200, 190, 178, 0.5)');
    teeth.addColorStop(1, 'rgba(140, 128, 118, 0)');
    ctx.fillStyle = teeth;
    const band: [number, number][] = [];
    for (let k = from; k <= to; k++) {
      const [x, y] = P(upperIdx[k]!);
      band.push([x - vx * 3, y - vy * 3]);
    }
    for (let k = to; k >= from; k--) {
      const [x, y] = P(upperIdx[k]!);
      const taper = Math.sin((Math.PI * (k - from + 0.5)) / (to - from + 1)) ** 0.6;
      band.push([x + vx * teethH * taper, y + vy * teethH * taper]);
    }
    smoothClosedPath(ctx, band);
    ctx.fill();
  }

  // Soft shadow along the lips: a ring around the mouth, clipped away, casts a blurred shadow inward.
  ctx.globalAlpha = alpha;
  ctx.shadowColor = 'rgba(12, 3, 4, 0.85)';
  ctx.shadowBlur = Math.max(2, mw * 0.09);
  ctx.fillStyle = 'rgb(12, 3, 4)';
  smoothClosedPath(ctx, contour);
  ctx.rect(cx - 2 * mw, cy - 2 * mw, 4 * mw, 4 * mw);
  ctx.fill('evenodd');
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
    const w = Math.hypot(points[2 * eye.outer]! - points[2 * eye.inner]!, points[2 * eye.outer + 1]! - points[2 * eye.inner + 1]!);
    for (const [lw, la] of [[0.12, 0.12], [0.06, 0.2], [0.03, 0.3]] as const) {
      ctx.strokeStyle = `rgba(38, 26, 24, ${la * a})`;
      ctx.lineWidth = Math.max(1, w * lw);
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
