import { NEUTRAL_FACE, type FacePose } from '#functions/render/reaction/animation';
import { delaunay } from '#functions/render/face/delaunay';
import { MESH } from '#functions/render/face/landmarks';
import { buildFaceModel, deform, rasterize, relaxFolds, type FaceModel } from '#functions/render/face/warp';
import { SYNTH, syntheticRig } from './synthetic-face';
const { abs } = Math;

const pose = (p: Partial<FacePose>): FacePose => ({ ...NEUTRAL_FACE, ...p });

let model: FaceModel;
beforeAll(() => {
  model = buildFaceModel(syntheticRig(), { scale: 1, offsetX: 0, offsetY: 0 }, { x: 0, y: 0, width: SYNTH.width, height: SYNTH.height });
});

const dx = (pts: Float32Array, i: number) => pts[2 * i]! - model.neutral[2 * i]!;
const dy = (pts: Float32Array, i: number) => pts[2 * i + 1]! - model.neutral[2 * i + 1]!;
const borderIndices = () => Array.from({ length: model.count - model.faceCount - model.haloCount }, (_, k) => model.faceCount + model.haloCount + k);

describe('delaunay', () => {
  test('triangulates a grid into 2 triangles per cell, all one orientation, no duplicates', () => {
    const pts: number[] = [];
    for (let y = 0; y < 4; y++) for (let x = 0; x < 5; x++) pts.push(x * 10 + (y % 2) * 0.01, y * 10);
    const tris = delaunay(pts);
    expect(tris.length / 3).toBe(2 * 4 * 3);
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!];
      const cross = (pts[2 * b]! - pts[2 * a]!) * (pts[2 * c + 1]! - pts[2 * a + 1]!) - (pts[2 * b + 1]! - pts[2 * a + 1]!) * (pts[2 * c]! - pts[2 * a]!);
      expect(cross).toBeGreaterThan(0);
    }
  });
});

describe('the face warp on synthetic landmarks', () => {
  test('the mesh covers the face: every face point, two halo rings, a border; the patch holds the face', () => {
    expect(model.faceCount).toBe(468);
    expect(model.triangles.length / 3).toBeGreaterThan(900);
    const { x, y, width, height } = model.patch;
    expect(x).toBeLessThanOrEqual(SYNTH.cx - SYNTH.rx);
    expect(x + width).toBeGreaterThanOrEqual(SYNTH.cx + SYNTH.rx);
    expect(y).toBeLessThanOrEqual(SYNTH.cy - SYNTH.ry);
    expect(y + height).toBeGreaterThanOrEqual(SYNTH.cy + SYNTH.ry);
    expect(model.iod).toBeCloseTo(120, 0);
  });

  test('the neutral pose moves nothing', () => {
    const pts = deform(model, NEUTRAL_FACE);
    for (let k = 0; k < pts.length; k++) expect(pts[k]).toBeCloseTo(model.neutral[k]!, 4);
  });

  test('browRaise lifts the brows (about a sixth of the eye distance), less above, not the lower lids', () => {
    const pts = deform(model, pose({ browRaise: 1 }));
    for (const i of [...MESH.eyeA.browUpper, ...MESH.eyeB.browUpper]) {
      expect(dy(pts, i)).toBeLessThan(-0.1 * model.iod);
      expect(abs(dx(pts, i))).toBeLessThan(1);
    }
    // Forehead top moves less than the brows; lower lids and the mouth not at all.
    expect(dy(pts, MESH.forehead)).toBeGreaterThan(dy(pts, 105));
    for (const i of [...MESH.eyeA.lower0, ...MESH.lipsLowerOuter, MESH.chin]) expect(abs(dy(pts, i))).toBeLessThan(0.5);
    // A frown lowers them instead.
    const frown = deform(model, pose({ browRaise: -1 }));
    for (const i of MESH.eyeA.browUpper) expect(dy(frown, i)).toBeGreaterThan(0);
  });

  test('mouthOpen drops the jaw: the lips part by ~0.4 mouth widths, the chin follows, the brows stay', () => {
    const pts = deform(model, pose({ mouthOpen: 1 }));
    const gap0 = model.neutral[2 * MESH.lowerLipInner + 1]! - model.neutral[2 * MESH.upperLipInner + 1]!;
    const gap1 = pts[2 * MESH.lowerLipInner + 1]! - pts[2 * MESH.upperLipInner + 1]!;
    expect(gap1 - gap0).toBeGreaterThan(0.35 * model.mouthWidth);
    for (const i of MESH.lipsUpperInner) expect(dy(pts, i)).toBeLessThanOrEqual(0.3 * model.mouthWidth * 0.5 + 0.01);
    for (const i of MESH.lipsLowerOuter.slice(3, -3)) expect(dy(pts, i)).toBeGreaterThan(0.3 * model.mouthWidth);
    expect(dy(pts, MESH.chin)).toBeGreaterThan(0.3 * model.mouthWidth);
    for (const i of [...MESH.eyeA.browUpper, ...MESH.eyeB.upper0, MESH.noseTip]) expect(abs(dy(pts, i))).toBeLessThan(1);
  });

  test('eyeOpen closes the lids onto each other at 0 and lifts the upper lid above 1', () => {
    const lid = (pts: Float32Array) => pts[2 * MESH.eyeA.bottom + 1]! - pts[2 * MESH.eyeA.top + 1]!;
    const open = lid(model.neutral);
    expect(lid(deform(model, pose({ eyeOpen: 0 })))).toBeLessThan(0.1 * open);
    expect(lid(deform(model, pose({ eyeOpen: 0.5 })))).toBeLessThan(0.65 * open);
    expect(lid(deform(model, pose({ eyeOpen: 1.5 })))).toBeGreaterThan(1.3 * open);
  });

  test('smile lifts and widens the mouth corners; a negative smile turns them down', () => {
    const up = deform(model, pose({ smile: 1 }));
    expect(dy(up, MESH.mouthLeft)).toBeLessThan(-0.05 * model.mouthWidth);
    expect(dx(up, MESH.mouthLeft)).toBeLessThan(0);
    expect(dx(up, MESH.mouthRight)).toBeGreaterThan(0);
    const down = deform(model, pose({ smile: -1 }));
    expect(dy(down, MESH.mouthRight)).toBeGreaterThan(0.04 * model.mouthWidth);
  });

  test('head turns follow the FacePose convention (yaw right, pitch down, roll clockwise)', () => {
    expect(dx(deform(model, pose({ headYaw: 15 })), MESH.noseTip)).toBeGreaterThan(5);
    expect(dx(deform(model, pose({ headYaw: -15 })), MESH.noseTip)).toBeLessThan(-5);
    expect(dy(deform(model, pose({ headPitch: 12 })), MESH.noseTip)).toBeGreaterThan(5);
    const roll = deform(model, pose({ headRoll: 8 }));
    expect(dx(roll, MESH.forehead)).toBeGreaterThan(5); // the top of the head swings right
  });

  test('points outside the face box never move: the border ring is fixed for every pose', () => {
    const poses = [pose({ mouthOpen: 1.2, browRaise: 1, eyeOpen: 1.6 }), pose({ headYaw: 18, headPitch: -14, headRoll: -10, smile: 1 }), pose({ eyeOpen: 0, browRaise: -1, smile: -1 })];
    for (const p of poses) {
      const pts = deform(model, p);
      for (const i of borderIndices()) {
        expect(dx(pts, i)).toBe(0);
        expect(dy(pts, i)).toBe(0);
      }
      // Nothing leaves the patch.
      for (let i = 0; i < model.count; i++) {
        expect(pts[2 * i]!).toBeGreaterThanOrEqual(model.patch.x);
        expect(pts[2 * i]!).toBeLessThanOrEqual(model.patch.x + model.patch.width);
        expect(pts[2 * i + 1]!).toBeGreaterThanOrEqual(model.patch.y);
        expect(pts[2 * i + 1]!).toBeLessThanOrEqual(model.patch.y + model.patch.height);
      }
    }
  });

  test('no pose folds the mesh over itself (strong expressions, turns, tilts, and out-of-range values)', () => {
    const poses: Partial<FacePose>[] = [
      { mouthOpen: 1.2 }, { browRaise: 1 }, { browRaise: -1 }, { eyeOpen: 0 }, { eyeOpen: 1.6 }, { smile: 1 }, { smile: -1 },
      { headYaw: 25 }, { headYaw: -25 }, { headPitch: 20 }, { headPitch: -20 }, { headRoll: 20 }, { headRoll: -20 },
      { mouthOpen: 1, browRaise: 1, eyeOpen: 1.5, headPitch: -6, headRoll: 5 },
      { mouthOpen: 0.85, smile: 1, eyeOpen: 0.3, headRoll: 4, headYaw: -10 },
      { mouthOpen: 5, smile: 9, browRaise: -9, eyeOpen: -3, headYaw: 90, headPitch: Number.NaN, headRoll: Infinity },
    ];
    for (const p of poses) {
      const pts = deform(model, pose(p));
      expect(pts.every((v) => Number.isFinite(v))).toBe(true);
      // What deform returns is already relaxed: another pass finds nothing to do.
      expect(relaxFolds(model, pts)).toBe(0);
    }
  });

  test('the rasteriser redraws only what moved, and nothing when nothing moved', () => {
    const W = 64, H = 48;
    const small = buildFaceModel(syntheticRig(), { scale: 0.08, offsetX: 8, offsetY: 0 }, { x: 0, y: 0, width: W, height: H });
    const src = new Uint32Array(W * H).map((_, k) => 0xff000000 | ((k * 2654435761) >>> 8));
    const dst = new Uint32Array(small.patch.width * small.patch.height);
    const still = rasterize(small, deform(small, NEUTRAL_FACE), src, W, H, dst);
    expect(still.trianglesDrawn).toBe(0);
    expect(still.dirty).toBeNull();
    const moved = rasterize(small, deform(small, pose({ mouthOpen: 1 })), src, W, H, dst);
    expect(moved.trianglesDrawn).toBeGreaterThan(0);
    expect(moved.dirty).not.toBeNull();
    // Only the returned rectangle is written (callers put just that); inside it, every pixel is
    // either the source or the warp.
    const { x: px, y: py, width: pw, height: ph } = small.patch;
    const d = moved.dirty!;
    dst.fill(0);
    rasterize(small, deform(small, pose({ mouthOpen: 1 })), src, W, H, dst);
    let outside = 0, changed = 0;
    for (let y = 0; y < ph; y++) {
      for (let x = 0; x < pw; x++) {
        const inDirty = x + px >= d.x && x + px < d.x + d.width && y + py >= d.y && y + py < d.y + d.height;
        const value = dst[y * pw + x]!;
        if (!inDirty) {
          outside++;
          expect(value).toBe(0);
        } else {
          expect(value).not.toBe(0);
          if (value !== src[(y + py) * W + x + px]) changed++;
        }
      }
    }
    expect(outside).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
  });
});
