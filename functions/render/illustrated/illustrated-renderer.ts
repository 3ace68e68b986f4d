/**
 * Draws the frames of an illustrated avatar's reaction with Skia (@napi-rs/canvas).
 *
 * The portrait stands in a pastel disc (its own background colour) in the upper-middle of the 9:16
 * frame, over a deeper gradient of the same hue, with room above and below for the caption that the
 * render step adds later. The head is a separate layer that turns on the neck; the face parts follow
 * the pose, swapped between bitmaps rendered once per distinct expression (a clip needs a handful).
 *
 * Cost model: everything that does not change per frame is rasterised once in `prepare` (background,
 * mood tint, disc + body, one head bitmap per expression). A frame is then a blit, a few vector fills
 * (rays, accents) and two transformed bitmap draws, a few milliseconds of Skia at 1080×1920 (the
 * engine draws smaller and lets ffmpeg scale up: engine.ts RENDER_SIZE).
 */
import { createCanvas, loadImage, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { REACTION_CLIP } from '#ports/engine';
import type { Emotion, ReactionFrame } from '../reaction/animation';
import { clipFaceBox, type FaceBox, type FrameRenderer } from '../reaction/reaction-clip';
import { partsForFrame, partsKey } from './expression-parts';
import {
  AVATAAARS_DISC,
  AVATAAARS_EYES_TO_MOUTH,
  AVATAAARS_FACE_CENTRE,
  AVATAAARS_NECK_PIVOT,
  AVATAAARS_VIEWBOX,
  avatarLayers,
  avatarSvg,
} from './illustrated-avatar';
import type { ExpressionParts, IllustratedRig } from './illustrated-rig';
import { MOODS, scenePalette, type ScenePalette } from './palette';
import { hashSeed, smoothNoise } from '../reaction/seeded-random';
import { reactionFrames } from '../reaction/expression-curve';
import { HANDHELD_OVERSCAN, handHeld } from '../reaction/camera';
import { paintBokeh } from './bokeh';
const { abs, ceil, cos, max, min, PI, round, sin } = Math;

export interface SceneLayout {
  width: number;
  height: number;
  /** Output pixels per avatar viewBox unit at rest. */
  scale: number;
  /** Output position of the avatar viewBox's origin. */
  originX: number;
  originY: number;
  /** Output position of the face centre: the camera zooms and turns about it. */
  focusX: number;
  focusY: number;
}

/**
 * The disc (80% of the width, so a punch-in still shows its edge) is centred at 46.5% of the height:
 * the face lands in the upper-middle, where eyes go on a phone, about a fifth of the frame stays free
 * above the hair and a quarter below the bust.
 */
export function illustratedLayout(width: number = REACTION_CLIP.width, height: number = REACTION_CLIP.height): SceneLayout {
  const scale = (width * 0.8) / (2 * AVATAAARS_DISC.r);
  const discY = height * 0.465;
  const originX = width / 2 - AVATAAARS_DISC.cx * scale;
  const originY = discY - AVATAAARS_DISC.cy * scale;
  return {
    width,
    height,
    scale,
    originX,
    originY,
    focusX: originX + AVATAAARS_FACE_CENTRE.x * scale,
    focusY: originY + AVATAAARS_FACE_CENTRE.y * scale,
  };
}

/** Layers are rasterised this much larger than they are drawn at rest, so a punch-in stays sharp. */
const SUPERSAMPLE = 1.15;

interface Bitmap {
  canvas: Canvas;
  /** Where the bitmap's top-left corner is, in viewBox units. */
  vbX: number;
  vbY: number;
}

export interface IllustratedSceneOptions {
  width?: number;
  height?: number;
  fps?: number;
  seed?: number;
}

export interface IllustratedScene extends FrameRenderer {
  /** The distinct face-part combinations the frames use (one head bitmap each). */
  readonly expressions: readonly string[];
}

export async function prepareIllustratedScene(rig: IllustratedRig, frames: readonly ReactionFrame[], options: IllustratedSceneOptions = {}): Promise<IllustratedScene> {
  const layout = illustratedLayout(options.width, options.height);
  const fps = options.fps ?? REACTION_CLIP.fps;
  const seed = options.seed ?? 0;
  const palette = scenePalette(rig.options.backgroundColor[0]);
  const emotion = frames.find((f) => f.expression)?.expression?.emotion ?? null;
  const mood = emotion ? MOODS[emotion] : null;
  const rs = layout.scale * SUPERSAMPLE;

  // Which expressions the clip needs, in order of first use.
  const partsPerFrame = frames.map((f) => partsForFrame(f.face, f.expression, rig.eyebrowStyle, f.viseme));
  const distinct = new Map<string, ExpressionParts>();
  for (const p of partsPerFrame) if (!distinct.has(partsKey(p))) distinct.set(partsKey(p), p);

  const background = paintBackground(layout, palette, seed);
  // The mood is the same backdrop re-coloured in the mood's hue, cross-faded in with the emotion.
  const tinted = mood?.tint ? paintBackground(layout, { ...scenePalette(mood.tint.slice(1)), glow: palette.glow }, seed) : null;
  const backdrop = crossFade(background, tinted);
  const overscan = backdropOverscan(layout);

  // The first expression decides the split; if DiceBear's markup is not the expected one, the whole
  // avatar moves as one piece (still with its expressions), which is less alive but never wrong.
  const first = distinct.values().next().value;
  if (!first) throw new Error('a reaction needs at least one frame');
  const firstLayers = await avatarLayers(rig, first);
  const layered = firstLayers !== null;
  const body = firstLayers ? await paintBody(firstLayers.body, rs) : null;
  const heads = new Map<string, Bitmap>();
  let headBox: Box | null = null;
  for (const [key, parts] of distinct) {
    const svg = layered ? (parts === first ? firstLayers : await avatarLayers(rig, parts))!.head : await avatarSvg(rig, parts, { background: false });
    const image = await loadImage(Buffer.from(svg));
    // One crop for every expression: the face parts never reach outside the head's outline.
    headBox ??= opaqueBox(image);
    heads.set(key, rasterise(image, rs, headBox));
  }
  const fallbackHead = heads.values().next().value as Bitmap;
  const accentSeed = hashSeed(seed, 'accents');

  return {
    width: layout.width,
    height: layout.height,
    expressions: [...distinct.keys()],
    drawFrame(ctx, frame, index) {
      const t = index / fps;
      const intensity = frame.expression?.intensity ?? 0;
      // Everything is drawn in the transform handed in (the hand-held camera's, reaction/camera.ts);
      // the backdrop reaches past the frame by its overscan, so the camera never shows an edge.
      ctx.globalAlpha = 1;
      drawBackdrop(ctx, backdrop.at(mood ? mood.tintStrength * min(1, intensity / 0.8) : 0), overscan, layout);

      applyCamera(ctx, layout, frame);
      if (mood && mood.rays > 0 && intensity > 0.05) drawRays(ctx, layout, mood.rays * intensity, t, mood.accent, emotion!);
      drawDisc(ctx, layout, palette);
      if (body) drawBitmap(ctx, body, layout, rs);

      // The head on its neck: yaw and pitch move it, roll turns it, about the base of the neck.
      const head = headPose(layout, frame, layered);
      ctx.save();
      ctx.translate(head.px + head.dx, head.py + head.dy);
      ctx.rotate(head.roll);
      // No squash for yaw: at these angles it is invisible, and a non-uniform scale makes Skia's
      // bitmap sampling markedly slower.
      ctx.translate(-head.px, -head.py);
      // Parts are chosen from the frame itself (cheap), so any frame of the prepared set draws right.
      drawBitmap(ctx, heads.get(partsKey(partsForFrame(frame.face, frame.expression, rig.eyebrowStyle, frame.viseme))) ?? fallbackHead, layout, rs);
      ctx.restore();

      if (emotion && intensity > 0.05) drawAccents(ctx, layout, emotion, frame, t, accentSeed);
    },
    faceBox: (frame) => faceBoxOf(layout, frame, layered),
  };
}

/**
 * The eyes-to-mouth box of a typical reaction on the 1080x1920 frame: a drawn avatar through a strong
 * shocked reaction (the widest punch-in and head moves of the curves), filmed hand-held as the engine
 * films it, every frame's box joined. What a caption keeps clear of before a job has a reaction (the
 * studio's caption preview).
 */
export function typicalFaceBox(): FaceBox {
  const layout = illustratedLayout(REACTION_CLIP.width, REACTION_CLIP.height);
  const frames = reactionFrames({ emotion: 'shocked', intensity: 1, seed: 1, durationS: 4 });
  const drawn: FrameRenderer = { width: layout.width, height: layout.height, drawFrame: () => undefined, faceBox: (frame) => faceBoxOf(layout, frame, true) };
  return clipFaceBox(handHeld(drawn, 1), frames, layout.width, layout.height)!;
}

/** The head's move on its neck in a frame: about (px, py), shifted by (dx, dy), turned by `roll` radians. */
function headPose(layout: SceneLayout, frame: ReactionFrame, layered: boolean) {
  const { headYaw, headPitch, headRoll } = frame.face;
  const k = layered ? 1 : 0.3;
  return {
    px: layout.originX + AVATAAARS_NECK_PIVOT.x * layout.scale,
    py: layout.originY + AVATAAARS_NECK_PIVOT.y * layout.scale,
    dx: sin((headYaw * PI) / 180) * 38 * layout.scale * k,
    dy: sin((headPitch * PI) / 180) * 30 * layout.scale * k,
    roll: ((layered ? headRoll : headRoll * 0.4) * PI) / 180,
  };
}

/**
 * Where the eyes-to-mouth box lands in a frame: the head's pose on the neck, then the camera, as
 * drawFrame applies them, taken at the box's four corners.
 */
function faceBoxOf(layout: SceneLayout, frame: ReactionFrame, layered: boolean): FaceBox {
  const head = headPose(layout, frame, layered);
  const { zoom, offsetX, offsetY, rotation } = frame.camera;
  const px = layout.width / REACTION_CLIP.width;
  const cam = (rotation * PI) / 180;
  const rotate = (x: number, y: number, cx: number, cy: number, angle: number, scale = 1): [number, number] => {
    const c = cos(angle) * scale, s = sin(angle) * scale;
    return [cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)];
  };
  const e = AVATAAARS_EYES_TO_MOUTH;
  const corners = [[e.x, e.y], [e.x + e.width, e.y], [e.x, e.y + e.height], [e.x + e.width, e.y + e.height]].map(([vx, vy]) => {
    const [hx, hy] = rotate(layout.originX + vx! * layout.scale, layout.originY + vy! * layout.scale, head.px, head.py, head.roll);
    const [x, y] = rotate(hx + head.dx, hy + head.dy, layout.focusX, layout.focusY, cam, zoom);
    return [x + offsetX * px, y + offsetY * px] as const;
  });
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  const x = min(...xs), y = min(...ys);
  return { x, y, width: max(...xs) - x, height: max(...ys) - y };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Rasterises an SVG image at `rs` pixels per viewBox unit, cropped to `box` (viewBox units). */
function rasterise(image: Awaited<ReturnType<typeof loadImage>>, rs: number, box: Box): Bitmap {
  const canvas = createCanvas(ceil(box.w * rs), ceil(box.h * rs));
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, -box.x * rs, -box.y * rs, AVATAAARS_VIEWBOX * rs, AVATAAARS_VIEWBOX * rs);
  return { canvas, vbX: box.x, vbY: box.y };
}

/** The part of the viewBox an image actually paints (alpha > 0), with a margin, in viewBox units. */
function opaqueBox(image: Awaited<ReturnType<typeof loadImage>>): Box {
  // A coarse raster is enough to find the edges; the margin covers what it misses.
  const probeScale = 1;
  const size = AVATAAARS_VIEWBOX * probeScale;
  const probe = createCanvas(size, size);
  probe.getContext('2d').drawImage(image, 0, 0, size, size);
  const px = probe.data();
  let minX = size, minY = size, maxX = -1, maxY = -1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (px[(y * size + x) * 4 + 3]! === 0) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return { x: 0, y: 0, w: AVATAAARS_VIEWBOX, h: AVATAAARS_VIEWBOX };
  const margin = 8;
  const x = max(0, minX / probeScale - margin);
  const y = max(0, minY / probeScale - margin);
  const w = min(AVATAAARS_VIEWBOX, maxX / probeScale + margin) - x;
  const h = min(AVATAAARS_VIEWBOX, maxY / probeScale + margin + 14) - y;
  return { x, y, w, h };
}

function drawBitmap(ctx: SKRSContext2D, bitmap: Bitmap, layout: SceneLayout, rs: number): void {
  const k = layout.scale / rs;
  ctx.drawImage(
    bitmap.canvas,
    layout.originX + bitmap.vbX * layout.scale,
    layout.originY + bitmap.vbY * layout.scale,
    bitmap.canvas.width * k,
    bitmap.canvas.height * k,
  );
}

export function applyCamera(ctx: SKRSContext2D, layout: SceneLayout, frame: ReactionFrame): void {
  const { zoom, offsetX, offsetY, rotation } = frame.camera;
  // Offsets are output pixels: a scene drawn smaller (and scaled up by the encoder) moves as far on screen.
  const px = layout.width / REACTION_CLIP.width;
  ctx.translate(layout.focusX + offsetX * px, layout.focusY + offsetY * px);
  ctx.rotate((rotation * PI) / 180);
  ctx.scale(zoom, zoom);
  ctx.translate(-layout.focusX, -layout.focusY);
}

/**
 * The backdrop with the mood faded in by `amount`. The mix is composed once per step of 1/48 and
 * kept, so a frame blits one full-frame image instead of blending two (the mix changes only while
 * the emotion builds).
 */
function crossFade(base: Canvas, mood: Canvas | null): { at(amount: number): Canvas } {
  if (!mood) return { at: () => base };
  const mixed = createCanvas(base.width, base.height);
  const ctx = mixed.getContext('2d');
  let current = -1;
  return {
    at(amount) {
      const step = round(max(0, min(1, amount)) * 48);
      if (step === 0) return base;
      if (step !== current) {
        ctx.globalAlpha = 1;
        ctx.drawImage(base, 0, 0);
        ctx.globalAlpha = step / 48;
        ctx.drawImage(mood, 0, 0);
        current = step;
      }
      return mixed;
    },
  };
}

/**
 * The backdrop, moved as the transform moves the frame's centre but in whole pixels, and neither
 * turned nor zoomed. It is gradients and a soft shadow: a step of one render pixel (two on the output)
 * changes none of it visibly, but a turned, resampled full-frame draw cost Skia ~3 ms a frame, and its
 * sub-pixel moves left x264 a residual on every block of it (~20 % more encoder CPU), where a whole
 * pixel is a blit and a motion vector it predicts exactly.
 */
function drawBackdrop(ctx: SKRSContext2D, backdrop: Canvas, overscan: number, layout: SceneLayout): void {
  const { a, b, c, d, e, f } = ctx.getTransform();
  const cx = layout.width / 2, cy = layout.height / 2;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, round(a * cx + c * cy + e - cx), round(b * cx + d * cy + f - cy));
  ctx.drawImage(backdrop, -overscan, -overscan);
  ctx.restore();
}

/** Backdrop painted past each edge of the frame, in pixels: what the hand-held camera may bring into view. */
const backdropOverscan = (layout: SceneLayout) => ceil(HANDHELD_OVERSCAN * max(layout.width, layout.height));

/**
 * Gradient backdrop with a soft glow behind the disc, out-of-focus lights (same seed, same places) and a vignette, `backdropOverscan` larger than
 * the frame on every side (drawn at minus that), its gradients carried on past the frame's edges.
 */
function paintBackground(layout: SceneLayout, palette: ScenePalette, seed: number): Canvas {
  const { width: W, height: H } = layout;
  const m = backdropOverscan(layout);
  const canvas = createCanvas(W + 2 * m, H + 2 * m);
  const ctx = canvas.getContext('2d');
  ctx.translate(m, m);
  const linear = ctx.createLinearGradient(0, 0, 0, H);
  linear.addColorStop(0, palette.top);
  linear.addColorStop(1, palette.bottom);
  ctx.fillStyle = linear;
  ctx.fillRect(-m, -m, W + 2 * m, H + 2 * m);
  const discX = layout.originX + AVATAAARS_DISC.cx * layout.scale;
  const discY = layout.originY + AVATAAARS_DISC.cy * layout.scale;
  const glow = ctx.createRadialGradient(discX, discY, 0, discX, discY, W * 0.95);
  glow.addColorStop(0, palette.glow);
  glow.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = glow;
  ctx.fillRect(-m, -m, W + 2 * m, H + 2 * m);
  paintBokeh(ctx, W, H, m, seed);
  // The disc's soft shadow, slightly below it. It stays put while the camera moves the disc, which
  // reads as depth (the wall is further away than the disc).
  const r = AVATAAARS_DISC.r * layout.scale;
  const shadow = ctx.createRadialGradient(discX, discY + r * 0.05, r * 0.9, discX, discY + r * 0.05, r * 1.12);
  shadow.addColorStop(0, palette.shadow);
  shadow.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = shadow;
  ctx.beginPath();
  ctx.arc(discX, discY + r * 0.05, r * 1.12, 0, PI * 2);
  ctx.fill();
  const vignette = ctx.createRadialGradient(W / 2, H * 0.45, H * 0.3, W / 2, H * 0.45, H * 0.75);
  vignette.addColorStop(0, 'rgba(0,0,0,0)');
  vignette.addColorStop(1, 'rgba(0,0,0,0.32)');
  ctx.fillStyle = vignette;
  ctx.fillRect(-m, -m, W + 2 * m, H + 2 * m);
  return canvas;
}

/** The body (neck, shoulders, clothes) as a bitmap covering only the lower part of the disc. */
async function paintBody(bodySvg: string, rs: number): Promise<Bitmap> {
  const box: Box = { x: AVATAAARS_DISC.cx - AVATAAARS_DISC.r, y: 150, w: 2 * AVATAAARS_DISC.r, h: AVATAAARS_VIEWBOX - 150 };
  return rasterise(await loadImage(Buffer.from(bodySvg)), rs, box);
}

/**
 * The disc the avatar stands in, drawn as vectors every frame (a solid fill and a rim cost far less
 * than sampling a transformed bitmap of the same size); its soft shadow is in the background.
 */
function drawDisc(ctx: SKRSContext2D, layout: SceneLayout, palette: ScenePalette): void {
  const cx = layout.originX + AVATAAARS_DISC.cx * layout.scale;
  const cy = layout.originY + AVATAAARS_DISC.cy * layout.scale;
  const r = AVATAAARS_DISC.r * layout.scale;
  ctx.fillStyle = palette.disc;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, PI * 2);
  ctx.fill();
  ctx.strokeStyle = palette.rim;
  ctx.lineWidth = 2.4 * layout.scale;
  ctx.beginPath();
  ctx.arc(cx, cy, r - 1.2 * layout.scale, 0, PI * 2);
  ctx.stroke();
}

// ---------------------------------------------------------------------------------------------
// Accents: vector touches in camera space that make the emotion read at a glance.

function drawRays(ctx: SKRSContext2D, layout: SceneLayout, strength: number, t: number, colour: string, emotion: Emotion): void {
  const count = emotion === 'mind_blown' ? 22 : 16;
  const reach = layout.height;
  const spin = (emotion === 'mind_blown' ? 0.35 : 0.12) * t;
  const half = (PI / count) * 0.55;
  ctx.save();
  ctx.globalAlpha = min(0.5, strength);
  // Strong near the head, gone before the frame's edges: a burst, not stripes.
  const fade = ctx.createRadialGradient(layout.focusX, layout.focusY, layout.width * 0.2, layout.focusX, layout.focusY, layout.height * 0.62);
  fade.addColorStop(0, colour);
  fade.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = fade;
  ctx.beginPath();
  for (let i = 0; i < count; i++) {
    const a = spin + (i / count) * PI * 2;
    ctx.moveTo(layout.focusX, layout.focusY);
    ctx.lineTo(layout.focusX + cos(a - half) * reach, layout.focusY + sin(a - half) * reach);
    ctx.lineTo(layout.focusX + cos(a + half) * reach, layout.focusY + sin(a + half) * reach);
    ctx.closePath();
  }
  ctx.fill();
  ctx.restore();
}

/**
 * How high above the face centre (viewBox units) an accent may reach at rest. A top caption may come
 * down to the forehead above the face's eyes-to-mouth box (joined over the clip) less the gap it keeps
 * (render/caption); with the punch-in's zoom and the camera's moves, accents under 58 stay below it
 * in every frame (accents.test.ts). Drawn above the head they peeked out from behind a top caption
 * as fragments of white strokes.
 */
const ACCENT_CEILING = 58;

export function drawAccents(ctx: SKRSContext2D, layout: SceneLayout, emotion: Emotion, frame: ReactionFrame, t: number, seed: number): void {
  const e = frame.expression?.intensity ?? 0;
  const s = layout.scale;
  const fx = layout.focusX;
  const fy = layout.focusY;
  switch (emotion) {
    case 'shocked':
      surpriseLines(ctx, fx, fy, s, e);
      break;
    case 'mind_blown':
      surpriseLines(ctx, fx, fy, s, e);
      if (frame.expression?.alternate) dizzyStars(ctx, fx, fy - (ACCENT_CEILING - 22) * s, s, t);
      break;
    case 'in_love':
      floatingHearts(ctx, layout, t, e, seed);
      break;
    case 'excited':
    case 'happy':
      sparkles(ctx, layout, t, e * (emotion === 'happy' ? 0.7 : 1), seed);
      break;
    case 'angry':
      angerMark(ctx, fx + 64 * s, fy - (ACCENT_CEILING - 26) * s, s * (0.95 + 0.15 * abs(sin(t * 9))), e);
      break;
    case 'skeptical':
      sweatDrop(ctx, fx - 62 * s, fy - (ACCENT_CEILING - 14) * s + min(1, t % 2.4) * 10 * s, s * 1.4, e);
      break;
    case 'laughing':
      laughLines(ctx, fx, fy, s, t, e);
      break;
    case 'crying':
    case 'disgusted':
      break;
  }
}

function stroke(ctx: SKRSContext2D, colour: string, width: number, alpha: number): void {
  ctx.globalAlpha = alpha;
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.stroke();
  ctx.globalAlpha = 1;
}

/**
 * Manga "!" strokes that pop on the peak: a burst of three at each temple, pointing up and out, clear
 * of the hair and under ACCENT_CEILING. A dark stroke under the white keeps them readable on the pale
 * disc behind the head.
 */
function surpriseLines(ctx: SKRSContext2D, fx: number, fy: number, s: number, e: number): void {
  const pop = min(1, e * 1.3);
  ctx.beginPath();
  for (const side of [-1, 1]) {
    const x = fx + side * 84 * s, y = fy - (ACCENT_CEILING - 24) * s;
    for (const angle of [-0.5, 0, 0.5]) {
      const a = -PI / 2 + side * (0.75 + angle);
      const r0 = 6 * s;
      const r1 = r0 + 16 * s * pop;
      ctx.moveTo(x + cos(a) * r0, y + sin(a) * r0);
      ctx.lineTo(x + cos(a) * r1, y + sin(a) * r1);
    }
  }
  stroke(ctx, 'rgba(40,20,40,0.45)', 6.4 * s, min(1, e * 1.2));
  stroke(ctx, '#ffffff', 4 * s, min(1, e * 1.2));
}

function star(ctx: SKRSContext2D, x: number, y: number, r: number, points: number, inner: number, rotation: number): void {
  ctx.beginPath();
  for (let i = 0; i < points * 2; i++) {
    const a = rotation + (i * PI) / points;
    const rr = i % 2 === 0 ? r : r * inner;
    if (i === 0) ctx.moveTo(x + cos(a) * rr, y + sin(a) * rr);
    else ctx.lineTo(x + cos(a) * rr, y + sin(a) * rr);
  }
  ctx.closePath();
}

/** Stars circling the head, cartoon-dizzy. */
function dizzyStars(ctx: SKRSContext2D, x: number, y: number, s: number, t: number): void {
  for (let i = 0; i < 4; i++) {
    const a = t * 4 + (i * PI) / 2;
    const sx = x + cos(a) * 62 * s;
    const sy = y + sin(a) * 14 * s;
    star(ctx, sx, sy, 8 * s, 5, 0.45, a);
    ctx.fillStyle = '#ffe45c';
    ctx.fill();
    ctx.strokeStyle = '#c98a00';
    ctx.lineWidth = 1.2 * s;
    ctx.stroke();
  }
}

function heart(ctx: SKRSContext2D, x: number, y: number, size: number): void {
  ctx.beginPath();
  ctx.moveTo(x, y + size * 0.3);
  ctx.bezierCurveTo(x, y, x - size * 0.5, y - size * 0.1, x - size * 0.5, y + size * 0.25);
  ctx.bezierCurveTo(x - size * 0.5, y + size * 0.55, x - size * 0.1, y + size * 0.7, x, y + size * 0.95);
  ctx.bezierCurveTo(x + size * 0.1, y + size * 0.7, x + size * 0.5, y + size * 0.55, x + size * 0.5, y + size * 0.25);
  ctx.bezierCurveTo(x + size * 0.5, y - size * 0.1, x, y, x, y + size * 0.3);
  ctx.closePath();
}

/** Hearts rising around the avatar, each on its own loop. */
function floatingHearts(ctx: SKRSContext2D, layout: SceneLayout, t: number, e: number, seed: number): void {
  const s = layout.scale;
  for (let i = 0; i < 7; i++) {
    const period = 2.2 + (i % 3) * 0.4;
    const phase = ((t + i * 0.37) / period) % 1;
    const side = i % 2 === 0 ? -1 : 1;
    const x = layout.focusX + side * (85 + (i % 3) * 14) * s + smoothNoise(seed + i, t * 0.8) * 10 * s;
    const y = layout.focusY + 120 * s - phase * (120 + ACCENT_CEILING - 24) * s;
    const size = (14 + (i % 3) * 5) * s;
    ctx.globalAlpha = min(1, e * 1.2) * sin(phase * PI);
    heart(ctx, x, y, size);
    ctx.fillStyle = i % 3 === 0 ? '#ff7aa8' : '#ff4d7d';
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

/** Four-point twinkles around the head. */
function sparkles(ctx: SKRSContext2D, layout: SceneLayout, t: number, e: number, seed: number): void {
  const s = layout.scale;
  for (let i = 0; i < 6; i++) {
    const a = (i / 6) * PI * 2 + 0.4;
    const x = layout.focusX + cos(a) * (95 + 12 * smoothNoise(seed + i, 0.5)) * s;
    // Flattened above the face, so the top twinkles stay under ACCENT_CEILING.
    const y = layout.focusY - 10 * s + sin(a) * (sin(a) < 0 ? ACCENT_CEILING - 26 : 95) * s;
    const twinkle = max(0, sin(t * 5 + i * 1.7));
    if (twinkle < 0.05) continue;
    ctx.globalAlpha = min(1, e * 1.3) * twinkle;
    star(ctx, x, y, 15 * s * twinkle, 4, 0.26, 0);
    ctx.fillStyle = '#fffbe0';
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

/** The cartoon anger mark (💢): four arcs bulging towards a common centre. */
function angerMark(ctx: SKRSContext2D, x: number, y: number, s: number, e: number): void {
  ctx.beginPath();
  for (let q = 0; q < 4; q++) {
    const a = (q * PI) / 2 + PI / 4;
    const ox = x + cos(a) * 15 * s;
    const oy = y + sin(a) * 15 * s;
    const inward = a + PI;
    ctx.moveTo(ox + cos(inward - 0.6) * 9 * s, oy + sin(inward - 0.6) * 9 * s);
    ctx.arc(ox, oy, 9 * s, inward - 0.6, inward + 0.6);
  }
  stroke(ctx, '#e0322b', 2.6 * s, min(1, e * 1.3));
}

function sweatDrop(ctx: SKRSContext2D, x: number, y: number, s: number, e: number): void {
  ctx.beginPath();
  ctx.moveTo(x, y - 10 * s);
  ctx.quadraticCurveTo(x + 7 * s, y + 2 * s, x, y + 6 * s);
  ctx.quadraticCurveTo(x - 7 * s, y + 2 * s, x, y - 10 * s);
  ctx.closePath();
  ctx.globalAlpha = min(1, e * 1.2);
  ctx.fillStyle = '#9ed4ff';
  ctx.fill();
  ctx.strokeStyle = '#4a90c2';
  ctx.lineWidth = 1.2 * s;
  ctx.stroke();
  ctx.globalAlpha = 1;
}

/** Little motion strokes on both sides of the head, on the beat of the laugh. */
function laughLines(ctx: SKRSContext2D, fx: number, fy: number, s: number, t: number, e: number): void {
  const beat = max(0, sin(t * PI * 2 * 2.1));
  ctx.beginPath();
  for (const side of [-1, 1]) {
    for (let k = 0; k < 3; k++) {
      const a = (side < 0 ? PI : 0) + (k - 1) * 0.38 * side;
      const r0 = 78 * s;
      const r1 = r0 + 14 * s * (0.6 + 0.4 * beat);
      ctx.moveTo(fx + cos(a) * r0, fy - 8 * s + sin(a) * r0);
      ctx.lineTo(fx + cos(a) * r1, fy - 8 * s + sin(a) * r1);
    }
  }
  stroke(ctx, '#ffffff', 3.6 * s, min(1, e * 1.2));
}
