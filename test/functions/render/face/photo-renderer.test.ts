import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { NEUTRAL_FACE, REST_CAMERA, type CameraPose, type FacePose, type ReactionFrame } from '#functions/render/reaction/animation';
import { photoRenderer } from '#functions/render/face/index';
import { detectFace } from '#functions/render/face/image-face';
import {
  cameraMatrix,
  drawPhotoFrame,
  layoutPhoto,
  photoFaceBox,
  preparePhoto,
  SELFIE_FACE_WIDTH,
  type PreparedPhoto,
} from '#functions/render/face/photo-renderer';
import { seamStep } from '#functions/render/face/face-motion';
import { MOTION_CAMERA } from '#functions/render/face/reference-motion';
import { CAMERA_LIMITS } from '#functions/render/reaction/expression-curve';
import { compose } from '#functions/render/reaction/affine';
import { HANDHELD_LIMITS, handheldMatrix, type HandheldPose } from '#functions/render/reaction/camera';
import { EngineError } from '#ports/engine';
import { realFacePng, SYNTH, syntheticFacePng, syntheticRig } from './synthetic-face';
const { abs, hypot, max, min, round } = Math;

const W = 1080, H = 1920;
const frame = (face: Partial<FacePose> = {}, camera: Partial<CameraPose> = {}): ReactionFrame => ({
  face: { ...NEUTRAL_FACE, ...face },
  camera: { ...REST_CAMERA, ...camera },
});
const SHOCKED: Partial<FacePose> = { mouthOpen: 1, browRaise: 1, eyeOpen: 1.45, headPitch: -6 };

function render(ctx: SKRSContext2D, prepared: PreparedPhoto, f: ReactionFrame): Buffer {
  drawPhotoFrame(ctx, prepared, f);
  const data = ctx.getImageData(0, 0, W, H).data;
  return Buffer.from(data.buffer, data.byteOffset, data.length);
}

/** Mean absolute difference per channel inside (or outside) a rectangle. */
function diff(a: Buffer, b: Buffer, rect: { x: number; y: number; width: number; height: number }, inside = true): number {
  let sum = 0, n = 0;
  for (let y = 0; y < H; y += 2) {
    for (let x = 0; x < W; x += 2) {
      const inRect = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
      if (inRect !== inside) continue;
      const o = (y * W + x) * 4;
      sum += abs(a[o]! - b[o]!) + abs(a[o + 1]! - b[o + 1]!) + abs(a[o + 2]! - b[o + 2]!);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

describe('layoutPhoto: framed like a selfie video', () => {
  test('the face spans about half the width, centred, its centre at 40 % of the height', () => {
    // A 3000×3000 photo with a 600 px face left of centre: zoomed to the face, not to the photo.
    const l = layoutPhoto(3000, 3000, { x: 1200, y: 1400, width: 600 }, W, H);
    expect(600 * l.scale).toBeCloseTo(SELFIE_FACE_WIDTH * W, 0);
    expect(1200 * l.scale + l.offsetX).toBeCloseTo(W / 2, 0);
    expect(1400 * l.scale + l.offsetY).toBeCloseTo(0.4 * H, 0);
  });

  test('a small photo is never narrower than the frame: the face grows instead', () => {
    const l = layoutPhoto(600, 600, { x: 300, y: 280, width: 350 }, W, H);
    expect(600 * l.scale).toBeGreaterThanOrEqual(W);
    expect(l.region.x).toBeLessThanOrEqual(0);
    expect(l.region.x + l.region.width).toBeGreaterThanOrEqual(W);
    // Shorter than the frame: it stays whole inside it, the rest is extension.
    expect(l.region.y).toBeGreaterThanOrEqual(0);
    expect(l.region.y + l.region.height).toBeLessThanOrEqual(H);
  });

  test('without a face the photo covers the whole 9:16 frame; a face at the edge of a landscape photo stays in it', () => {
    const plain = layoutPhoto(1000, 1000, null, W, H);
    expect(plain.region.width).toBeGreaterThanOrEqual(W);
    expect(plain.region.height).toBeGreaterThanOrEqual(H);
    const l = layoutPhoto(2000, 1000, { x: 1800, y: 400 }, W, H);
    const faceX = 1800 * l.scale + l.offsetX;
    expect(faceX).toBeGreaterThan(0);
    expect(faceX).toBeLessThan(W);
    expect(l.offsetX).toBeLessThanOrEqual(0);
    expect(2000 * l.scale + l.offsetX).toBeGreaterThanOrEqual(W - 1e-6);
  });
});

describe('the picture around the photo (a square upload: a third of the frame is extension)', () => {
  let prepared: PreparedPhoto;
  let ctx: SKRSContext2D;
  beforeAll(async () => {
    const photo = await realFacePng();
    prepared = await preparePhoto(photo, await detectFace(photo));
    ctx = createCanvas(W, H).getContext('2d');
  });

  const luma = (rgba: Buffer) => {
    const out = new Uint8Array(W * H);
    for (let i = 0; i < out.length; i++) out[i] = round(0.2126 * rgba[i * 4]! + 0.7152 * rgba[i * 4 + 1]! + 0.0722 * rgba[i * 4 + 2]!);
    return out;
  };

  test('the photo meets its extension without a seam: no row steps by more than 5 away from the face', () => {
    const { region } = prepared.layout;
    expect(region.y).toBeGreaterThan(100); // there is extension above and below to judge
    expect(region.y + region.height).toBeLessThan(H - 100);
    const face = prepared.face!.model;
    const box = { x: face.patch.x - prepared.margin, y: face.patch.y - prepared.margin, width: face.patch.width, height: face.patch.height };
    for (const camera of [{}, { zoom: 1.15, offsetX: 40, offsetY: -30, rotation: 3 }]) {
      const seam = seamStep(luma(render(ctx, prepared, frame({}, camera))), W, H, box);
      expect(seam.step).toBeLessThanOrEqual(5);
    }
  });

  test('no edge of the source ever shows: the picture covers the frame at every camera limit, the curve\'s and a reference clip\'s, filmed hand-held', () => {
    const offset = max(CAMERA_LIMITS.offset, MOTION_CAMERA.offset);
    const extremes = [];
    for (const zoom of [CAMERA_LIMITS.zoom[0], 1, CAMERA_LIMITS.zoom[1]])
      for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const r of [-1, 1]) extremes.push({ zoom, offsetX: sx * offset, offsetY: sy * offset, rotation: r * CAMERA_LIMITS.rotation });
    // The hand-held camera's furthest reach, the same way as the curve's (its zoom never goes below 1).
    const { offsetPx: hand, rollDeg } = HANDHELD_LIMITS;
    const handheld: HandheldPose[] = [];
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const r of [-1, 1]) handheld.push({ offsetX: sx * hand, offsetY: sy * hand, zoom: 1, roll: r * rollDeg });
    for (const m of extremes.flatMap((camera) => handheld.map((pose) => compose(handheldMatrix(pose, W, H), cameraMatrix(camera, prepared.pivot))))) {
      const det = m[0] * m[3] - m[1] * m[2];
      for (const [qx, qy] of [[0, 0], [W, 0], [0, H], [W, H]] as const) {
        const x = (m[3] * (qx - m[4]) - m[2] * (qy - m[5])) / det;
        const y = (-m[1] * (qx - m[4]) + m[0] * (qy - m[5])) / det;
        expect(min(x + prepared.margin, y + prepared.margin)).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(W + prepared.margin);
        expect(y).toBeLessThanOrEqual(H + prepared.margin);
      }
    }
  });
});

describe('a photo avatar with a face (synthetic landmarks on a drawn face)', () => {
  let prepared: PreparedPhoto;
  let ctx: SKRSContext2D;
  beforeAll(async () => {
    prepared = await preparePhoto(syntheticFacePng(), syntheticRig());
    ctx = createCanvas(W, H).getContext('2d');
  });

  test('prepares a face: a patch around it, a pivot on it', () => {
    expect(prepared.face).not.toBeNull();
    const { layout } = prepared;
    expect(SYNTH.rx * 2 * layout.scale).toBeGreaterThan(0.4 * W); // the face, framed like a selfie
    const [px, py] = prepared.pivot;
    const faceX = SYNTH.cx * layout.scale + layout.offsetX, faceY = SYNTH.cy * layout.scale + layout.offsetY;
    expect(hypot(px - faceX, py - faceY)).toBeLessThan(0.2 * SYNTH.ry * layout.scale);
  });

  test('neutral and peak differ inside the face and only there; the same pose gives the same pixels', () => {
    const patch = prepared.face!.model.patch;
    const box = { x: patch.x - prepared.margin, y: patch.y - prepared.margin, width: patch.width, height: patch.height };
    const neutral = render(ctx, prepared, frame());
    const peak = render(ctx, prepared, frame(SHOCKED));
    render(ctx, prepared, frame({ smile: 1, eyeOpen: 0.3, headRoll: 6 }));
    const peakAgain = render(ctx, prepared, frame(SHOCKED));
    const heldPeak = render(ctx, prepared, frame(SHOCKED)); // a held pose takes the quick path
    const neutralAgain = render(ctx, prepared, frame());
    expect(diff(neutral, peak, box)).toBeGreaterThan(3);
    expect(diff(neutral, peak, box, false)).toBe(0); // the warp never leaves its box
    expect(peakAgain.equals(peak)).toBe(true);
    expect(heldPeak.equals(peak)).toBe(true);
    expect(neutralAgain.equals(neutral)).toBe(true);
  });

  test('reports where the eyes and mouth are: every landmark of them, and the open mouth’s dark cavity, inside the box, through the camera', () => {
    const { layout } = prepared;
    const rest = photoFaceBox(prepared, frame())!;
    const { eyes, mouth } = syntheticRig().anchors;
    for (const [x, y] of [eyes.left.outer, eyes.left.upper, eyes.right.outer, eyes.right.upper, mouth.left, mouth.right, mouth.lowerOuter]) {
      const ox = x * layout.scale + layout.offsetX, oy = y * layout.scale + layout.offsetY;
      expect(ox > rest.x && ox < rest.x + rest.width && oy > rest.y && oy < rest.y + rest.height).toBe(true);
    }
    // Eyes to mouth: well inside the face, not the whole picture.
    expect(rest.height).toBeLessThan(SYNTH.ry * 2 * layout.scale * 0.8);
    for (const camera of [{}, { zoom: 1.3, offsetX: 50, offsetY: -40, rotation: 5 }]) {
      const box = photoFaceBox(prepared, frame({}, camera))!;
      const closed = render(ctx, prepared, frame({}, camera));
      const open = render(ctx, prepared, frame({ mouthOpen: 1 }, camera));
      let cavity = 0, outside = 0;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const o = (y * W + x) * 4;
          const drop = (closed[o]! + closed[o + 1]! + closed[o + 2]! - open[o]! - open[o + 1]! - open[o + 2]!) / 3;
          if (drop < 60) continue;
          cavity++;
          if (x < box.x || x >= box.x + box.width || y < box.y || y >= box.y + box.height) outside++;
        }
      }
      expect({ cavity: cavity > 500, outside }).toEqual({ cavity: true, outside: 0 });
    }
    expect(photoFaceBox({ ...prepared, eyesToMouth: null }, frame())).toBeNull();
  });

  test('the open mouth is painted dark; raised brows leave skin where they were', () => {
    const { layout } = prepared;
    const at = (buf: Buffer, x: number, y: number) => {
      const ox = round(x * layout.scale + layout.offsetX), oy = round(y * layout.scale + layout.offsetY);
      const o = (oy * W + ox) * 4;
      return (buf[o]! + buf[o + 1]! + buf[o + 2]!) / 3;
    };
    const neutral = render(ctx, prepared, frame());
    const open = render(ctx, prepared, frame({ mouthOpen: 1 }));
    // Just under the lips' meeting line, where the cavity opens.
    expect(at(open, 300, 480)).toBeLessThan(at(neutral, 300, 480) - 40);
    const raised = render(ctx, prepared, frame({ browRaise: 1 }));
    // The drawn brow's old place (dark) is skin (light) once raised.
    expect(at(raised, 220, 300)).toBeGreaterThan(at(neutral, 220, 300) + 40);
  });

  test('the camera zooms about the face and moves the whole picture', () => {
    const rest = render(ctx, prepared, frame());
    const zoomed = render(ctx, prepared, frame({}, { zoom: 1.25 }));
    expect(diff(rest, zoomed, { x: 0, y: 0, width: W, height: H })).toBeGreaterThan(5);
    // Far beyond the margin: an empty edge is filled, never left transparent, and nothing throws.
    const wild = render(ctx, prepared, frame({}, { zoom: 0.6, offsetX: 400, offsetY: -300, rotation: 25 }));
    for (let o = 3; o < wild.length; o += 4 * 997) expect(wild[o]).toBe(255);
  });
});

describe('a photo avatar without a face', () => {
  test('no rig, or a rig that is not a face rig: camera motion only, never a crash', async () => {
    for (const rig of [null, undefined, { kind: 'illustrated' }, { kind: 'photo-face', version: 1, mesh: [1, 2, 3] }]) {
      const prepared = await preparePhoto(syntheticFacePng(), rig);
      expect(prepared.face).toBeNull();
      const ctx = createCanvas(W, H).getContext('2d');
      const neutral = render(ctx, prepared, frame());
      expect(render(ctx, prepared, frame(SHOCKED)).equals(neutral)).toBe(true);
      expect(render(ctx, prepared, frame(SHOCKED, { zoom: 1.2, rotation: 3 })).equals(neutral)).toBe(false);
    }
  });

  test('a rig made for another size of the same picture is scaled; one for another picture is ignored', async () => {
    const half = await sharp(syntheticFacePng()).resize(300, 400).png().toBuffer();
    expect((await preparePhoto(half, syntheticRig())).face).not.toBeNull();
    const square = await sharp(syntheticFacePng()).resize(600, 600, { fit: 'fill' }).png().toBuffer();
    expect((await preparePhoto(square, syntheticRig())).face).toBeNull();
  });

  test('an image that cannot be decoded is invalid_input', async () => {
    const failure = await preparePhoto(Buffer.from('not a picture'), null).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).code).toBe('invalid_input');
  });
});

describe('end to end on a real face photo (detectFace → preparePhoto → frames)', () => {
  test('the engine-facing renderer warps the detected face: the mouth opens onto a dark cavity with a band of light teeth under the upper lip, the same pose repeats exactly', async () => {
    const photo = await realFacePng();
    const rig = await detectFace(photo);
    expect(rig).not.toBeNull();
    const file = path.join(os.tmpdir(), `rs-face-${process.pid}.png`);
    await sharp(photo).toFile(file);
    try {
      const renderer = await photoRenderer.prepare(file, rig, { width: W, height: H });
      const ctx = createCanvas(W, H).getContext('2d');
      const grab = (f: ReactionFrame) => {
        renderer.drawFrame(ctx, f, 0);
        const d = ctx.getImageData(0, 0, W, H).data;
        return Buffer.from(d.buffer, d.byteOffset, d.length);
      };
      const neutral = grab(frame());
      const shocked = grab(frame(SHOCKED));
      expect(grab(frame(SHOCKED)).equals(shocked)).toBe(true);
      // The mouth, in output pixels: the rig's points placed as the renderer lays the photo out.
      const { layout } = await preparePhoto(file, rig, { width: W, height: H });
      const out = ([x, y]: readonly number[]) => [x! * layout.scale + layout.offsetX, y! * layout.scale + layout.offsetY] as const;
      const [ux, uy] = out(rig!.anchors.mouth.upperInner), [, ly] = out(rig!.anchors.mouth.lowerInner);
      // Rows from the upper lip down through the opened jaw, across the middle of the mouth.
      const rows: { before: number; after: number; lightest: number }[] = [];
      for (let y = round(uy) - 20; y < round(ly) + 110; y += 3) {
        let before = 0, after = 0, lightest = 0;
        for (let dx = -24; dx <= 24; dx += 4) {
          const o = (y * W + round(ux + dx)) * 4;
          const l = (b: Buffer) => (b[o]! + b[o + 1]! + b[o + 2]!) / 3;
          before += l(neutral);
          after += l(shocked);
          lightest = max(lightest, l(shocked));
        }
        rows.push({ before: before / 13, after: after / 13, lightest });
      }
      // A cavity: rows near black, darker than the moustache and lips there before.
      expect(rows.filter((r) => r.after < 45 && r.after < r.before - 25).length).toBeGreaterThanOrEqual(3);
      // Teeth: near the top of the opening, a row far lighter than the cavity under it.
      const darkest = min(...rows.map((r) => r.after));
      expect(rows.slice(0, 14).some((r) => r.lightest > darkest + 90)).toBe(true);
    } finally {
      await fsp.rm(file, { force: true });
    }
  });
});
