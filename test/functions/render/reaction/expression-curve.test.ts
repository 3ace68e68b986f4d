import type { Emotion, ReactionFrame } from '#functions/render/reaction/animation';
import { partsForFrame, partsKey } from '#functions/render/illustrated/expression-parts';
import {
  CALM_FACE,
  CAMERA_LIMITS,
  FACE_LIMITS,
  reactionFrames,
  reactionTiming,
} from '#functions/render/reaction/expression-curve';
import { handheldPose } from '#functions/render/reaction/camera';
const { abs, ceil, floor, hypot, max, min } = Math;

const EMOTIONS: Emotion[] = ['shocked', 'laughing', 'excited', 'crying', 'disgusted', 'mind_blown', 'skeptical', 'in_love', 'angry', 'happy'];
const frames = (emotion: Emotion, seed = 1, durationS = 4) => reactionFrames({ emotion, intensity: 1, durationS, seed });
const intensity = (f: ReactionFrame) => f.expression?.intensity ?? 0;

describe('an emotion performed over time', () => {
  test('4 s at 30 fps is 120 frames; 3.5 s is 105', () => {
    expect(frames('shocked')).toHaveLength(120);
    expect(frames('happy', 1, 3.5)).toHaveLength(105);
  });

  test('the same plan gives the same frames; another seed varies them a little', () => {
    expect(frames('laughing', 5)).toEqual(frames('laughing', 5));
    const a = frames('laughing', 5);
    const b = frames('laughing', 6);
    expect(a).not.toEqual(b);
    expect(b.every((f) => f.expression?.emotion === 'laughing')).toBe(true);
  });

  test.each(EMOTIONS)('%s starts calm, builds to its peak within a second, dips, comes back in a second beat, and never falls back to calm', (emotion) => {
    for (const seed of [1, 2, 3]) {
      const f = frames(emotion, seed);
      const first = f[0]!;
      expect(intensity(first)).toBe(0);
      expect(first.face.mouthOpen).toBeCloseTo(CALM_FACE.mouthOpen, 5);
      expect(first.face.smile).toBeCloseTo(CALM_FACE.smile, 5);
      expect(first.face.eyeOpen).toBeGreaterThan(0.85);
      expect(abs(first.face.headRoll) + abs(first.face.headYaw) + abs(first.face.headPitch)).toBeLessThan(8);
      // The phone is still settling on the face: a touch of zoom, easing out.
      expect(first.camera.zoom).toBeGreaterThan(1.02);
      expect(first.camera.zoom).toBeLessThan(1.1);

      const peakAt = f.findIndex((x) => intensity(x) >= 0.95);
      expect(peakAt).toBeGreaterThan(5);
      expect(peakAt).toBeLessThan(30);
      const after = f.slice(peakAt).map(intensity);
      const dipAt = after.indexOf(min(...after.slice(0, 60)));
      expect(after[dipAt]).toBeLessThan(0.7);
      // The second beat: back up to near the peak, a second or more after the first.
      const secondAt = after.findIndex((v, i) => i > dipAt && v >= 0.85);
      expect(secondAt).toBeGreaterThan(25);
      expect(peakAt + secondAt).toBeLessThan(105);
      expect(min(...after)).toBeGreaterThan(0.5);
    }
  });

  test.each(EMOTIONS)('%s: the head never holds still, from the first frame to the last', (emotion) => {
    for (const seed of [1, 2, 3]) {
      const f = frames(emotion, seed);
      const pose = (x: ReactionFrame) => [x.face.headYaw, x.face.headPitch, x.face.headRoll];
      // Over every 0.2 s the head turns, nods or tilts by at least a third of a degree (the rendered
      // face's change per second is measured on real frames in the engine's liveliness suite).
      for (let i = 0; i + 6 < f.length; i += 3) {
        const a = pose(f[i]!), b = pose(f[i + 6]!);
        expect(max(...a.map((v, k) => abs(v - b[k]!)))).toBeGreaterThan(0.33);
      }
      // Moving on the first frames already.
      expect(max(...pose(f[0]!).map((v, k) => abs(v - pose(f[2]!)[k]!)))).toBeGreaterThan(0.1);
    }
  });

  test.each(EMOTIONS)('%s: a double-take (a glance aside, brows up) comes just before the build', (emotion) => {
    const seed = 2;
    const f = frames(emotion, seed);
    const { onsetS } = reactionTiming({ emotion, seed });
    const before = f.slice(max(0, floor((onsetS - 0.35) * 30)), floor(onsetS * 30));
    expect(max(...before.map((x) => x.face.browRaise))).toBeGreaterThan(0.2);
    const yaws = before.map((x) => x.face.headYaw);
    expect(max(...yaws) - min(...yaws)).toBeGreaterThan(4);
  });

  test.each(EMOTIONS)('%s stays within the rig\'s bounds on every frame', (emotion) => {
    for (const seed of [1, 7, 99, 12345]) {
      for (const { face, camera } of frames(emotion, seed, 5)) {
        for (const [key, [lo, hi]] of Object.entries(FACE_LIMITS)) {
          const value = face[key as keyof typeof face];
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(lo);
          expect(value).toBeLessThanOrEqual(hi);
        }
        expect(camera.zoom).toBeGreaterThanOrEqual(CAMERA_LIMITS.zoom[0]);
        expect(camera.zoom).toBeLessThanOrEqual(CAMERA_LIMITS.zoom[1]);
        expect(abs(camera.offsetX)).toBeLessThanOrEqual(CAMERA_LIMITS.offset);
        expect(abs(camera.offsetY)).toBeLessThanOrEqual(CAMERA_LIMITS.offset);
        expect(abs(camera.rotation)).toBeLessThanOrEqual(CAMERA_LIMITS.rotation);
      }
    }
  });

  test('shocked: mouth wide open, eyes wide, brows up at the peak; the camera punches in and shakes', () => {
    const seed = 4;
    const f = frames('shocked', seed);
    const { onsetS, peakS } = reactionTiming({ emotion: 'shocked', seed });
    const peak = f.slice(ceil(peakS * 30), ceil(peakS * 30) + 6);
    expect(max(...peak.map((x) => x.face.mouthOpen))).toBeGreaterThan(0.75);
    expect(max(...peak.map((x) => x.face.eyeOpen))).toBeGreaterThan(1.2);
    expect(min(...peak.map((x) => x.face.browRaise))).toBeGreaterThan(0.6);
    const onset = floor(onsetS * 30);
    const punch = f.slice(onset, onset + 10);
    expect(max(...punch.map((x) => x.camera.zoom))).toBeGreaterThan(1.1);
    const moves = punch.slice(1).map((x, i) => hypot(x.camera.offsetX - punch[i]!.camera.offsetX, x.camera.offsetY - punch[i]!.camera.offsetY));
    expect(max(...moves)).toBeGreaterThan(4);
  });

  test('the calm emotions do not shake', () => {
    for (const emotion of ['in_love', 'skeptical', 'crying'] as const) {
      const f = frames(emotion, 2);
      const moves = f.slice(1).map((x, i) => hypot(x.camera.offsetX - f[i]!.camera.offsetX, x.camera.offsetY - f[i]!.camera.offsetY));
      expect(max(...moves)).toBeLessThan(2);
    }
  });

  test.each(['shocked', 'laughing', 'excited', 'angry', 'mind_blown', 'disgusted'] as const)(
    '%s: the shake never holds the picture still against the hand-held sway (where the two cancelled for two frames, whole frames froze)',
    (emotion) => {
      let slow = 0, all = 0;
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const f = frames(emotion, seed);
        // Where the hand and this camera put the picture: the camera is filmed hand-held with the clip's seed.
        const at = f.map((x, i) => [handheldPose(seed, i / 30).offsetX + x.camera.offsetX, handheldPose(seed, i / 30).offsetY + x.camera.offsetY] as const);
        for (let i = 2; i < at.length; i++) {
          const moved = hypot(at[i]![0] - at[i - 2]![0], at[i]![1] - at[i - 2]![1]);
          expect(moved).toBeGreaterThan(1);
          all++;
          if (moved < 3.5) slow++;
        }
      }
      // The sway alone moves it about 4 px in two frames; with the shake untempered 10-17 % of frames fell under 3.5 px.
      expect(slow / all).toBeLessThan(0.08);
    },
  );

  test('the eyes blink in the calm start and during the hold, and a blink draws closed eyes', () => {
    for (const seed of [1, 2, 3, 4]) {
      const f = frames('shocked', seed);
      const { peakS } = reactionTiming({ emotion: 'shocked', seed });
      expect(f.slice(0, 9).some((x) => x.face.eyeOpen < 0.3)).toBe(true);
      const blinks = f.slice(ceil(peakS * 30)).filter((x) => x.face.eyeOpen < 0.3);
      expect(blinks.length).toBeGreaterThan(0);
      for (const b of blinks) expect(partsForFrame(b.face, b.expression, 'classic').eyes).toBe('closed');
    }
  });

  test.each([
    ['shocked', { eyes: 'surprised', mouth: 'screamOpen' }],
    ['in_love', { eyes: 'hearts' }],
    ['crying', { eyes: 'cry' }],
    ['laughing', { eyes: 'happy' }],
    ['mind_blown', { eyes: 'xDizzy' }],
    ['disgusted', { mouth: 'vomit' }],
    ['skeptical', { eyes: 'side', eyebrows: 'upDown' }],
    ['angry', { eyebrows: 'angry' }],
  ] as const)('%s shows its own face parts, in a handful of distinct expressions', (emotion, expected) => {
    const f = frames(emotion, 3);
    const parts = f.map((x) => partsForFrame(x.face, x.expression, 'classic'));
    for (const [part, value] of Object.entries(expected)) expect(parts.map((p) => p[part as keyof typeof p])).toContain(value);
    const distinct = new Set(parts.map(partsKey));
    expect(distinct.size).toBeLessThanOrEqual(10);
    expect(partsKey(parts[0]!)).toBe('default|default|default');
  });

  test('motion without an emotion (a reference clip) still picks sensible parts from the numbers', () => {
    const wide = partsForFrame({ ...CALM_FACE, mouthOpen: 0.9, eyeOpen: 1.4, browRaise: 0.8 }, undefined, 'natural');
    expect(wide).toEqual({ eyes: 'surprised', eyebrows: 'raisedExcitedNatural', mouth: 'screamOpen' });
    const grin = partsForFrame({ ...CALM_FACE, mouthOpen: 0.5, smile: 0.9, eyeOpen: 0.4 }, undefined, 'classic');
    expect(grin).toEqual({ eyes: 'happy', eyebrows: 'default', mouth: 'smile' });
    const frown = partsForFrame({ ...CALM_FACE, smile: -0.6, browRaise: -0.8 }, undefined, 'classic');
    expect(frown).toEqual({ eyes: 'default', eyebrows: 'angry', mouth: 'sad' });
  });
});
