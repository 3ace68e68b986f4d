import sharp from 'sharp';
import { EngineError } from '#ports/engine';
import { detectFace } from '#functions/render/face/image-face';
import {
  isFaceRig,
  measureFace,
  MESH,
  unpackMesh,
  type FaceRig,
} from '#functions/render/face/landmarks';
import { noFacePng, realFacePng, syntheticFacePng, syntheticMesh, syntheticRig, SYNTH } from './synthetic-face';
const { abs, cos, hypot, PI, round, sign, sin } = Math;

describe('detectFace', () => {
  test('an image with no face gives null (a plain picture, and a drawn cartoon face)', async () => {
    expect(await detectFace(noFacePng())).toBeNull();
    expect(await detectFace(syntheticFacePng())).toBeNull();
  });

  test('bytes that are not an image are invalid_input', async () => {
    const failure = await detectFace(Buffer.from('definitely not an image')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).code).toBe('invalid_input');
  });

  describe('on a real face photo (a sample that ships in the human package)', () => {
    let photo: Buffer;
    let rig: FaceRig | null;
    beforeAll(async () => {
      photo = await realFacePng();
      rig = await detectFace(photo);
    });

    test('finds the face: 478 points, a box inside the picture, anchors where a face has them', () => {
      expect(rig).not.toBeNull();
      const r = rig!;
      expect(isFaceRig(r)).toBe(true);
      expect(r.image).toEqual({ width: 600, height: 600 });
      expect(r.mesh).toHaveLength(478 * 3);
      const [x, y, w, h] = r.box;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(601);
      expect(y + h).toBeLessThanOrEqual(601);
      expect(w).toBeGreaterThan(200); // the face fills most of this crop
      const a = r.anchors;
      expect(a.eyes.left.outer[0]).toBeLessThan(a.eyes.left.inner[0]);
      expect(a.eyes.left.inner[0]).toBeLessThan(a.eyes.right.inner[0]);
      expect(a.eyes.right.inner[0]).toBeLessThan(a.eyes.right.outer[0]);
      // Iris centre inside its own eye.
      expect(a.eyes.left.center[0]).toBeGreaterThan(a.eyes.left.outer[0]);
      expect(a.eyes.left.center[0]).toBeLessThan(a.eyes.left.inner[0]);
      const eyeY = (a.eyes.left.center[1] + a.eyes.right.center[1]) / 2;
      expect(a.brows.left[3]![1]).toBeLessThan(eyeY);
      expect(eyeY).toBeLessThan(a.nose.tip[1]);
      expect(a.nose.tip[1]).toBeLessThan(a.mouth.upperInner[1]);
      expect(a.mouth.lowerOuter[1]).toBeLessThan(a.jaw.chin[1]);
      expect(a.mouth.left[0]).toBeLessThan(a.mouth.right[0]);
      // A frontal portrait: small angles.
      expect(abs(r.headPose.roll)).toBeLessThan(8);
      expect(abs(r.headPose.yaw)).toBeLessThan(15);
    });

    test('is compact and survives JSON (what is stored with the avatar)', () => {
      const json = JSON.stringify(rig);
      expect(json.length).toBeLessThan(12_000);
      const back = JSON.parse(json) as unknown;
      expect(isFaceRig(back)).toBe(true);
      expect(back).toEqual(rig);
      // Coordinates are rounded to 0.1 px.
      expect(rig!.mesh.every((v) => abs(v * 10 - round(v * 10)) < 1e-6)).toBe(true);
    });

    test('follows the picture: a rotated copy gives a rolled head, a mirrored copy mirrors the yaw', async () => {
      const rotated = await detectFace(await sharp(photo).rotate(12, { background: '#808080' }).png().toBuffer());
      expect(rotated).not.toBeNull();
      expect(rotated!.headPose.roll - rig!.headPose.roll).toBeGreaterThan(6); // clockwise = positive
      const mirrored = await detectFace(await sharp(photo).flop().png().toBuffer());
      expect(mirrored).not.toBeNull();
      expect(sign(mirrored!.headPose.yaw) === -sign(rig!.headPose.yaw) || abs(rig!.headPose.yaw) < 3).toBe(true);
    });

    test('the same picture at another size gives the same landmarks, scaled', async () => {
      const half = await detectFace(await sharp(photo).resize(300, 300).png().toBuffer());
      expect(half).not.toBeNull();
      const [x1, y1] = [half!.anchors.nose.tip[0] * 2, half!.anchors.nose.tip[1] * 2];
      expect(hypot(x1 - rig!.anchors.nose.tip[0], y1 - rig!.anchors.nose.tip[1])).toBeLessThan(12);
    });
  });
});

describe('measureFace', () => {
  test('reads a synthetic face: level, frontal, mouth closed, eyes open', () => {
    const m = measureFace(syntheticMesh());
    expect(m.headPose.roll).toBeCloseTo(0, 1);
    expect(abs(m.headPose.yaw)).toBeLessThan(1);
    expect(m.mouthOpen).toBeLessThan(0.05);
    expect(m.eyeOpen).toBeGreaterThan(0.25);
    expect(m.iod).toBeCloseTo(120, 0);
    expect(m.center).toEqual([300, 340]);
  });

  test('opening the mouth, raising the brows, tilting the head move the right measures', () => {
    const base = syntheticMesh();
    const m0 = measureFace(base);
    const open = base.map((p, i) => (MESH.lipsLowerInner.includes(i as never) && i !== 78 && i !== 308 ? ([p[0], p[1] + 30, p[2]] as typeof p) : p));
    expect(measureFace(open).mouthOpen - m0.mouthOpen).toBeGreaterThan(0.25);
    const brows = base.map((p, i) => ([...MESH.eyeA.browUpper, ...MESH.eyeB.browUpper].includes(i as never) ? ([p[0], p[1] - 15, p[2]] as typeof p) : p));
    expect(measureFace(brows).brow - m0.brow).toBeCloseTo(15 / 120, 2);
    const angle = (10 * PI) / 180;
    const tilted = base.map(([x, y, z]) => {
      const dx = x - SYNTH.cx, dy = y - SYNTH.cy;
      return [SYNTH.cx + dx * cos(angle) - dy * sin(angle), SYNTH.cy + dx * sin(angle) + dy * cos(angle), z] as [number, number, number];
    });
    expect(measureFace(tilted).headPose.roll).toBeCloseTo(10, 0);
  });
});

describe('isFaceRig', () => {
  test('accepts a rig, refuses anything else (other engines store other rigs)', () => {
    const rig = syntheticRig();
    expect(isFaceRig(rig)).toBe(true);
    expect(isFaceRig(null)).toBe(false);
    expect(isFaceRig({ kind: 'illustrated' })).toBe(false);
    expect(isFaceRig({ ...rig, mesh: rig.mesh.slice(3) })).toBe(false);
    expect(isFaceRig({ ...rig, mesh: rig.mesh.map((v, i) => (i === 5 ? Number.NaN : v)) })).toBe(false);
    expect(unpackMesh(rig.mesh)).toHaveLength(478);
  });
});
