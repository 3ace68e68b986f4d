import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { NEUTRAL_FACE, REST_CAMERA, type CameraPose, type FacePose, type ReactionFrame } from '#functions/render/reaction/animation';
import { photoRenderer } from '#functions/render/face/index';
import { detectFace } from '#functions/render/face/image-face';
import {
  drawPhotoFrame,
  layoutPhoto,
  photoFaceBox,
  preparePhoto,
  type PreparedPhoto,
} from '#functions/render/face/photo-renderer';
import { EngineError } from '#ports/engine';
import { realFacePng, SYNTH, syntheticFacePng, syntheticRig } from './synthetic-face';

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
      sum += Math.abs(a[o]! - b[o]!) + Math.abs(a[o + 1]! - b[o + 1]!) + Math.abs(a[o + 2]! - b[o + 2]!);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

describe('layoutPhoto', () => {
  test('a portrait fills the width from the top; a square or landscape photo gets a square; 9:16 the whole frame', () => {
    expect(layoutPhoto(1080, 1440, null, W, H).region).toEqual({ x: 0, y: 0, width: 1080, height: 1440 });
    expect(layoutPhoto(2000, 1000, null, W, H).region.height).toBe(1080);
    expect(layoutPhoto(900, 1600, null, W, H).region.height).toBe(1920);
    expect(layoutPhoto(3000, 3000, null, W, H).region.height).toBe(1080);
  });

  test('the crop keeps the face: a face at the right edge of a landscape photo stays in the frame', () => {
    const l = layoutPhoto(2000, 1000, { x: 1800, y: 400 }, W, H);
    const faceX = 1800 * l.scale + l.offsetX;
    expect(faceX).toBeGreaterThan(0);
    expect(faceX).toBeLessThan(W);
    expect(l.offsetX).toBeLessThanOrEqual(0);
    expect(2000 * l.scale + l.offsetX).toBeGreaterThanOrEqual(W - 1e-6);
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
    expect(layout.region).toEqual({ x: 0, y: 0, width: 1080, height: 1440 }); // a 3:4 photo
    const [px, py] = prepared.pivot;
    const faceX = SYNTH.cx * layout.scale + layout.offsetX, faceY = SYNTH.cy * layout.scale + layout.offsetY;
    expect(Math.hypot(px - faceX, py - faceY)).toBeLessThan(0.2 * SYNTH.ry * layout.scale);
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
      const ox = Math.round(x * layout.scale + layout.offsetX), oy = Math.round(y * layout.scale + layout.offsetY);
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
  test('the engine-facing renderer warps the detected face: the mouth opens dark, the same pose repeats exactly', async () => {
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
      // The mouth, in output pixels: the rig's point scaled like the photo (600 px → 1080 px wide).
      const s = W / 600;
      const [mx, my] = [((rig!.anchors.mouth.upperInner[0] + rig!.anchors.mouth.lowerInner[0]) / 2) * s, rig!.anchors.mouth.lowerInner[1] * s];
      let before = 0, after = 0;
      for (let dy = 4; dy < 30; dy += 2) {
        for (let dx = -20; dx <= 20; dx += 4) {
          const o = ((Math.round(my) + dy) * W + Math.round(mx + dx)) * 4;
          before += neutral[o]! + neutral[o + 1]! + neutral[o + 2]!;
          after += shocked[o]! + shocked[o + 1]! + shocked[o + 2]!;
        }
      }
      expect(after).toBeLessThan(before * 0.6);
    } finally {
      await fsp.rm(file, { force: true });
    }
  });
});
