/**
 * An emotion performed over time: per frame, the face (FacePose) and the camera (CameraPose).
 *
 * Every reaction has the same arc, tuned per emotion, and it never stops moving (issue 27: a face that
 * peaks at 0.6 s and then holds reads as a still with a zoom):
 *   1. from the first frame, idle life: the head sways and nods like a person holding a phone;
 *   2. a double-take: a glance aside and back, brows flicking up, just before the reaction;
 *   3. a quick build to the peak (with a little overshoot) and the camera's punch-in;
 *   4. a dip, as if taking it in, then a second beat (the reaction to the reaction): the emotion comes
 *      back nearly as strong, with a nod and a smaller punch;
 *   5. a settle that keeps the emotion's own rhythm (a laugh's "ha-ha", a sob, a tremble) and blinks.
 * A seed moves the timings and the motion a little, so two takes differ but each repeats.
 */
import { REACTION_CLIP } from '#ports/engine';
import { NEUTRAL_FACE, type CameraPose, type Emotion, type FacePose, type ReactionFrame } from './animation';
import { handheldPose } from './camera';
import { hashSeed, smoothNoise, streamFor } from './seeded-random';
const { abs, exp, hypot, max, min, PI, round, sin } = Math;

export interface ReactionPlan {
  emotion: Emotion;
  /** 0..1: how far towards the emotion's peak face the reaction goes. */
  intensity: number;
  durationS: number;
  fps?: number;
  seed: number;
}

/** Bounds every pose stays within (renderers may rely on them). */
export const FACE_LIMITS = {
  mouthOpen: [0, 1],
  smile: [-1, 1],
  browRaise: [-1, 1],
  eyeOpen: [0, 1.5],
  headYaw: [-25, 25],
  headPitch: [-20, 20],
  headRoll: [-20, 20],
} as const satisfies Record<keyof FacePose, readonly [number, number]>;

export const CAMERA_LIMITS = { zoom: [0.9, 1.35], offset: 60, rotation: 4 } as const;

/** The face a reaction starts from: relaxed, a hint of a smile, mouth just open. */
export const CALM_FACE: FacePose = { ...NEUTRAL_FACE, mouthOpen: 0.1, smile: 0.25 };

interface CameraStyle {
  /** Zoom added on the peak (negative: a recoil). */
  punch: number;
  /** Seconds the punch takes. */
  punchS: number;
  /** Part of the punch given back during the hold (0..1). */
  relax: number;
  /** Shake strength at the peak (1 ≈ 22 px and 1.2°), and how fast it dies down. */
  shake: number;
  shakeDecayS: number;
  /** Shake that stays for the whole hold (a tremble). */
  shakeFloor: number;
  /** Zoom added slowly over the whole clip. */
  push: number;
  /** Degrees of slow hand-held tilt. */
  tilt: number;
}

interface Beat {
  /** Seconds after the peak starts; the alternate look lasts `lengthS`. */
  fromS: number;
  lengthS: number;
}

interface Profile {
  peak: FacePose;
  onsetS: number;
  buildS: number;
  overshoot: number;
  /** Intensity left at the end of the hold (the face relaxes a little). */
  settle: number;
  camera: CameraStyle;
  /** Motion of the emotion itself during the hold; `e` is the current intensity, `t` seconds since the peak. */
  life?: (pose: FacePose, t: number, e: number, seed: number) => void;
  /** When the emotion shows its second look (ExpressionHint.alternate). */
  alternate?: Beat;
  /**
   * How the head answers its own reaction after the second beat: a "no way" shake (yaw) or a nod
   * (pitch). It keeps the last second as alive as the first.
   */
  afterthought: 'shake' | 'nod';
}

const pose = (p: Partial<FacePose>): FacePose => ({ ...CALM_FACE, ...p });

/** A rhythmic 0..1 pulse with soft edges: `rate` pulses a second. */
const pulse = (t: number, rate: number, duty = 0.5) => {
  const phase = (t * rate) % 1;
  const edge = 0.12;
  if (phase < duty) return smoothstep(0, edge, phase) * (1 - smoothstep(duty - edge, duty, phase));
  return 0;
};

const PROFILES: Record<Emotion, Profile> = {
  shocked: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 1, smile: -0.15, browRaise: 1, eyeOpen: 1.45, headPitch: -6 }),
    onsetS: 0.42, buildS: 0.14, overshoot: 0.18, settle: 0.9,
    camera: { punch: 0.16, punchS: 0.1, relax: 0.3, shake: 1, shakeDecayS: 0.45, shakeFloor: 0, push: 0.04, tilt: 0.6 },
    life: (p, t, e, seed) => {
      // Frozen in shock, but breathing: a small tremble and the jaw working.
      p.headRoll += e * 1.4 * smoothNoise(seed + 1, t * 3);
      p.mouthOpen -= e * 0.12 * abs(smoothNoise(seed + 2, t * 1.5));
    },
  },
  mind_blown: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 1, smile: 0, browRaise: 1, eyeOpen: 1.5, headPitch: -8 }),
    onsetS: 0.4, buildS: 0.16, overshoot: 0.25, settle: 0.95,
    camera: { punch: 0.2, punchS: 0.12, relax: 0.25, shake: 1.5, shakeDecayS: 0.8, shakeFloor: 0.1, push: 0.06, tilt: 1 },
    life: (p, t, e) => {
      // The head reels after the blast: a decaying wobble.
      const wobble = sin(t * PI * 2 * 1.4) * exp(-t / 1.6);
      p.headRoll += e * 7 * wobble;
      p.headYaw += e * 5 * sin(t * PI * 2 * 0.9) * exp(-t / 2);
    },
    alternate: { fromS: 0.9, lengthS: 1.4 },
  },
  laughing: {
    afterthought: 'nod',
    peak: pose({ mouthOpen: 0.85, smile: 1, browRaise: 0.4, eyeOpen: 0.3, headPitch: -7, headRoll: 4 }),
    onsetS: 0.38, buildS: 0.22, overshoot: 0.1, settle: 0.85,
    camera: { punch: 0.08, punchS: 0.16, relax: 0.2, shake: 0.25, shakeDecayS: 1.5, shakeFloor: 0.08, push: 0.04, tilt: 0.8 },
    life: (p, t, e) => {
      // "Ha-ha-ha": the mouth opens on each beat and the head bobs with it.
      const ha = pulse(t, 4.2, 0.55);
      p.mouthOpen += e * (ha * 0.15 - (1 - ha) * 0.6);
      p.headPitch += e * (3.5 * ha - 1.5);
      p.headRoll += e * 2.5 * sin(t * PI * 2 * 0.8);
    },
  },
  excited: {
    afterthought: 'nod',
    peak: pose({ mouthOpen: 0.85, smile: 0.9, browRaise: 0.9, eyeOpen: 1.3, headPitch: -3 }),
    onsetS: 0.4, buildS: 0.18, overshoot: 0.2, settle: 0.9,
    camera: { punch: 0.1, punchS: 0.12, relax: 0.3, shake: 0.45, shakeDecayS: 0.6, shakeFloor: 0.05, push: 0.05, tilt: 1 },
    life: (p, t, e) => {
      // Bouncing on the spot.
      const bounce = abs(sin(t * PI * 2.2));
      p.headPitch += e * (4 * bounce - 2);
      p.headRoll += e * 4 * sin(t * PI * 2 * 0.7);
      p.mouthOpen -= e * 0.3 * (1 - bounce);
    },
  },
  crying: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 0.3, smile: -0.9, browRaise: -0.5, eyeOpen: 0.7, headPitch: 7, headRoll: -4 }),
    onsetS: 0.4, buildS: 0.5, overshoot: 0, settle: 1,
    camera: { punch: 0.03, punchS: 0.5, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.1, tilt: 0.5 },
    life: (p, t, e) => {
      // Sobs: the mouth opens and the shoulders (head) jerk, in bursts.
      const sob = pulse(t, 1.35, 0.45);
      p.mouthOpen += e * (0.25 * sob - 0.15);
      p.headPitch += e * (-2.5 * sob);
      p.headRoll += e * 1.5 * sin(t * PI * 2 * 0.5);
    },
  },
  disgusted: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 0.3, smile: -0.7, browRaise: -0.6, eyeOpen: 0.6, headYaw: 14, headRoll: -7, headPitch: -4 }),
    onsetS: 0.4, buildS: 0.2, overshoot: 0.15, settle: 0.9,
    camera: { punch: -0.05, punchS: 0.15, relax: 1, shake: 0.3, shakeDecayS: 0.4, shakeFloor: 0, push: 0.08, tilt: 0.6 },
    life: (p, t, e) => {
      // A small "no, no" shake of the head.
      p.headYaw += e * 3 * sin(t * PI * 2 * 1.6) * exp(-t / 1.5);
    },
    alternate: { fromS: 0.35, lengthS: 1.1 },
  },
  skeptical: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 0, smile: -0.25, browRaise: 0.45, eyeOpen: 0.8, headYaw: -8, headRoll: 8, headPitch: 2 }),
    onsetS: 0.45, buildS: 0.55, overshoot: 0, settle: 1,
    camera: { punch: 0.03, punchS: 0.5, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.14, tilt: 0.8 },
    life: (p, t, e, seed) => {
      p.headRoll += e * 1.5 * smoothNoise(seed + 5, t * 0.8);
    },
    alternate: { fromS: 1.3, lengthS: 0.9 },
  },
  in_love: {
    afterthought: 'nod',
    peak: pose({ mouthOpen: 0.2, smile: 0.85, browRaise: 0.55, eyeOpen: 1, headRoll: 6 }),
    onsetS: 0.4, buildS: 0.35, overshoot: 0.1, settle: 1,
    camera: { punch: 0.05, punchS: 0.3, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.06, tilt: 1 },
    life: (p, t, e) => {
      // Swaying, dreamy.
      p.headRoll += e * 6 * sin(t * PI * 2 * 0.55);
      p.headYaw += e * 3 * sin(t * PI * 2 * 0.3);
    },
  },
  angry: {
    afterthought: 'shake',
    peak: pose({ mouthOpen: 0.8, smile: -0.7, browRaise: -1, eyeOpen: 0.75, headPitch: 6 }),
    onsetS: 0.4, buildS: 0.16, overshoot: 0.15, settle: 0.9,
    camera: { punch: 0.12, punchS: 0.1, relax: 0.2, shake: 0.7, shakeDecayS: 0.5, shakeFloor: 0.18, push: 0.05, tilt: 0.5 },
    life: (p, t, e, seed) => {
      // Shaking with rage, jaw clenching between shouts.
      p.headRoll += e * 1.8 * smoothNoise(seed + 7, t * 9);
      const shout = pulse(t + 0.2, 0.9, 0.45);
      p.mouthOpen += e * (0.2 * shout - 0.55 * (1 - shout));
    },
  },
  happy: {
    afterthought: 'nod',
    peak: pose({ mouthOpen: 0.5, smile: 0.95, browRaise: 0.35, eyeOpen: 0.95, headRoll: 4 }),
    onsetS: 0.4, buildS: 0.3, overshoot: 0.08, settle: 0.95,
    camera: { punch: 0.05, punchS: 0.25, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.05, tilt: 0.8 },
    life: (p, t, e) => {
      p.headRoll += e * 4 * sin(t * PI * 2 * 0.45);
      p.headPitch += e * 1.5 * sin(t * PI * 2 * 0.9);
    },
  },
};

const clamp = (v: number, lo: number, hi: number) => max(lo, min(hi, v));
function smoothstep(e0: number, e1: number, x: number): number {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
}
const easeOutCubic = (x: number) => 1 - (1 - clamp(x, 0, 1)) ** 3;
/** Ease-out with an overshoot of `amount` (0 = none) that comes back to 1. */
function easeOutBack(x: number, amount: number): number {
  const t = clamp(x, 0, 1);
  const c = amount * 10;
  return 1 + (c + 1) * (t - 1) ** 3 + c * (t - 1) ** 2;
}

/** When the reaction starts and how long its build takes, nudged by the seed. */
export function reactionTiming(plan: Pick<ReactionPlan, 'emotion' | 'seed'>): { onsetS: number; peakS: number } {
  const profile = PROFILES[plan.emotion];
  const rnd = streamFor(plan.seed, 'timing');
  const onsetS = profile.onsetS + rnd.range(-0.08, 0.08);
  const buildS = profile.buildS * rnd.range(0.85, 1.15);
  return { onsetS, peakS: onsetS + buildS };
}

/**
 * Seconds at which the eyes close, spread like a person's (every 1.2-2.2 s), never on a peak itself:
 * one in the calm start (a person about to see something blinks, and it moves the face early), then
 * in the dip between the beats, and on through the settle.
 */
function blinkTimes(seed: number, durationS: number, onsetS: number, peakS: number, beat: SecondBeat): number[] {
  const rnd = streamFor(seed, 'blinks');
  const times: number[] = [rnd.range(0.04, max(0.06, min(0.2, onsetS - 0.3)))];
  let t = max(peakS + 0.45, beat.dipS + rnd.range(0.15, 0.35));
  while (t < durationS - 0.2) {
    if (abs(t - beat.peakS) > 0.15) times.push(t);
    t += rnd.range(1.2, 2.2);
  }
  return times;
}

const BLINK_S = 0.17;
/** How closed the eyes are at time t: 0 open, 1 shut, a fast close and a slightly slower open. */
function blinkAmount(times: readonly number[], t: number): number {
  let amount = 0;
  for (const start of times) {
    const x = (t - start) / BLINK_S;
    if (x < 0 || x > 1) continue;
    amount = max(amount, x < 0.35 ? x / 0.35 : 1 - (x - 0.35) / 0.65);
  }
  return clamp(amount, 0, 1);
}

/**
 * The second beat: after the peak the face eases to `dip` (taking it in), then comes back up to
 * `level` at `peakS` (the reaction to the reaction). Far enough from the first that a viewer sees two.
 */
interface SecondBeat {
  dipS: number;
  dip: number;
  startS: number;
  peakS: number;
  level: number;
}

function secondBeat(seed: number, peakS: number, durationS: number): SecondBeat {
  const rnd = streamFor(seed, 'second-beat');
  // In a short clip the beats come closer, but the second still peaks before the last half second.
  const room = max(0.9, durationS - peakS - 0.6);
  const startS = peakS + min(room * 0.55, rnd.range(1.05, 1.35));
  return { dipS: peakS + 0.25, dip: rnd.range(0.58, 0.66), startS, peakS: startS + rnd.range(0.2, 0.28), level: rnd.range(0.9, 0.96) };
}

/**
 * The intensity envelope: 0 until the onset, a quick build with overshoot, a dip, a second beat with
 * a smaller overshoot, then a settle that relaxes a little towards the end.
 */
function envelope(profile: Profile, t: number, onsetS: number, peakS: number, beat: SecondBeat, durationS: number): number {
  if (t < onsetS) return 0;
  if (t < peakS) return easeOutBack((t - onsetS) / (peakS - onsetS), profile.overshoot);
  if (t < beat.startS) {
    const hold = 1 - smoothstep(beat.dipS, beat.startS, t) * (1 - beat.dip);
    return hold;
  }
  if (t < beat.peakS) return beat.dip + (beat.level - beat.dip) * easeOutBack((t - beat.startS) / (beat.peakS - beat.startS), profile.overshoot * 0.6);
  const settleT = (t - beat.peakS) / max(0.001, durationS - beat.peakS);
  return beat.level - (beat.level - beat.level * profile.settle) * smoothstep(0, 1, settleT);
}

/**
 * Head motion that never stops: a sway (yaw), a nod (pitch) and a tilt (roll) at unrelated slow
 * rates, phased by the seed and moving already on the first frame. Sines, not noise: noise has flat
 * stretches, and a flat stretch is exactly the freeze this exists to prevent.
 */
interface Sway {
  phase: [number, number, number];
  rate: [number, number, number];
}

function swayFor(seed: number): Sway {
  const rnd = streamFor(seed, 'sway');
  // Phases kept away from the sines' turning points at t = 0, so the head is already moving.
  const phase = (): number => rnd.range(-0.9, 0.9) + (rnd.chance(0.5) ? PI : 0);
  return { phase: [phase(), phase(), phase()], rate: [rnd.range(0.42, 0.52), rnd.range(0.62, 0.78), rnd.range(0.33, 0.4)] };
}

const SWAY_DEG = { yaw: 4, pitch: 2.6, roll: 3 } as const;

function applySway(face: FacePose, sway: Sway, t: number, calm: number): void {
  const w = (k: 0 | 1 | 2) => sin(2 * PI * sway.rate[k] * t + sway.phase[k]);
  // A strong emotion has its own head motion; the sway carries on under it, a little smaller.
  const k = 1 - 0.35 * calm;
  face.headYaw += SWAY_DEG.yaw * k * w(0);
  face.headPitch += SWAY_DEG.pitch * k * w(1);
  face.headRoll += SWAY_DEG.roll * k * w(2);
}

/**
 * The double-take before the build: the head glances aside and comes back, the brows flick up and the
 * eyes widen a little: 0 outside [startS, startS + GLANCE_S], 1 at its middle.
 */
const GLANCE_S = 0.3;
function glanceAt(t: number, startS: number): number {
  const x = (t - startS) / GLANCE_S;
  if (x <= 0 || x >= 1) return 0;
  return sin(PI * x) ** 2;
}

/** The afterthought's swing: starts 0.5 s after the second beat peaks and dies out over ~1.5 s. */
function afterthoughtAt(t: number, beat: SecondBeat): number {
  const x = t - beat.peakS - 0.5;
  if (x <= 0) return 0;
  return sin(2 * PI * 1.25 * x) * exp(-x / 1.4) * smoothstep(0, 0.15, x);
}

/** The nod that lands each beat: the head dips and comes back over 0.35 s. */
function beatNod(t: number, atS: number): number {
  const x = (t - atS) / 0.35;
  if (x <= 0 || x >= 1) return 0;
  return sin(PI * x);
}

function clampFace(p: FacePose): FacePose {
  const out = { ...p };
  for (const key of Object.keys(FACE_LIMITS) as Array<keyof FacePose>) {
    const [lo, hi] = FACE_LIMITS[key];
    out[key] = clamp(p[key], lo, hi);
  }
  return out;
}

function lerpFace(a: FacePose, b: FacePose, k: number): FacePose {
  const out = { ...a };
  for (const key of Object.keys(a) as Array<keyof FacePose>) out[key] = a[key] + (b[key] - a[key]) * k;
  return out;
}

/** The frames of a reaction: `durationS × fps` of them, deterministic for the plan. */
export function reactionFrames(plan: ReactionPlan): ReactionFrame[] {
  const fps = plan.fps ?? REACTION_CLIP.fps;
  const count = max(1, round(plan.durationS * fps));
  const durationS = count / fps;
  const profile = PROFILES[plan.emotion];
  const strength = clamp(plan.intensity, 0, 1);
  const { onsetS, peakS } = reactionTiming(plan);
  const beat = secondBeat(plan.seed, peakS, durationS);
  const blinks = blinkTimes(plan.seed, durationS, onsetS, peakS, beat);
  const noiseSeed = hashSeed(plan.seed, 'motion');
  const sway = swayFor(plan.seed);
  const rnd = streamFor(plan.seed, 'pose');
  // The double-take looks to one side, the seed says which; it ends as the build starts.
  const glanceSide = rnd.chance(0.5) ? 1 : -1;
  const glanceStartS = max(0.02, onsetS - GLANCE_S - 0.02);
  // The same emotion, not the same face every time: a slightly different peak per seed.
  const peak: FacePose = {
    ...profile.peak,
    headRoll: profile.peak.headRoll + rnd.range(-3, 3),
    headYaw: profile.peak.headYaw + rnd.range(-3, 3),
    headPitch: profile.peak.headPitch + rnd.range(-1.5, 1.5),
  };
  const target = lerpFace(CALM_FACE, peak, strength);

  const frames: ReactionFrame[] = [];
  const placed: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const t = i / fps;
    const e = envelope(profile, t, onsetS, peakS, beat, durationS);
    const face = lerpFace(CALM_FACE, target, e);

    // The double-take: a glance aside with the brows up, then back for the real reaction.
    const glance = glanceAt(t, glanceStartS);
    face.headYaw += 7 * glanceSide * glance;
    face.headPitch -= 2 * glance;
    face.browRaise += 0.35 * glance;
    face.eyeOpen += 0.12 * glance;

    // Idle life, always on: the sway, and a little noise on it so it never reads as a loop.
    applySway(face, sway, t, e * strength);
    face.headYaw += 1.2 * smoothNoise(noiseSeed + 11, t * 0.9);
    face.headPitch += 0.8 * smoothNoise(noiseSeed + 12, t * 0.8);
    face.headRoll += 1 * smoothNoise(noiseSeed + 13, t * 0.7);
    const after = afterthoughtAt(t, beat) * strength;
    if (profile.afterthought === 'shake') face.headYaw += 6 * after;
    else face.headPitch += 4 * after;
    // Each beat lands with a nod (the head goes back, then forward).
    face.headPitch -= 3.5 * strength * (beatNod(t, peakS - 0.1) + 0.8 * beatNod(t, beat.startS));

    if (t >= peakS && profile.life) profile.life(face, t - peakS, e * strength, noiseSeed);
    else if (t >= onsetS && profile.life) profile.life(face, 0, e * strength, noiseSeed);

    face.eyeOpen *= 1 - blinkAmount(blinks, t);

    const alternate = profile.alternate !== undefined && t >= peakS + profile.alternate.fromS && t < peakS + profile.alternate.fromS + profile.alternate.lengthS;
    const shot = (jolt: number) => cameraAt(profile.camera, t, onsetS, beat, durationS, strength, noiseSeed, jolt);
    const camera = neverHeldStill(shot, handheldPose(plan.seed, t), placed);
    frames.push({
      face: clampFace(face),
      camera,
      expression: { emotion: plan.emotion, intensity: clamp(e * strength, 0, 1), ...(alternate ? { alternate: true } : {}) },
    });
  }
  return frames;
}

const INTRO_S = 0.55;

/**
 * How far (output pixels) the picture must have moved since two frames before: the hand's sway alone
 * moves it about 4 px in that time. ffmpeg's freezedetect (n = 0.003, d = 0.1 s) reports a freeze
 * when two frames in a row stay within its noise of a third.
 */
const MIN_MOVE_IN_TWO_FRAMES_PX = 3.5;

/**
 * The frame's camera, its shake tempered where the shake would hold the picture still against the
 * hand-held sway (camera.ts films every clip with the seed's sway, the pose `hand`): the shake's noise
 * jolts in any direction, and where it cancelled the sway for two frames a laughing or shocked clip
 * froze. `placed` is where the hand and the camera put the picture in the frames before; this frame's
 * place is added to it.
 */
function neverHeldStill(shot: (jolt: number) => CameraPose, hand: { offsetX: number; offsetY: number }, placed: Array<[number, number]>): CameraPose {
  const twoBefore = placed[placed.length - 2];
  const at = (camera: CameraPose): [number, number] => [hand.offsetX + camera.offsetX, hand.offsetY + camera.offsetY];
  const moved = (camera: CameraPose) => (twoBefore ? hypot(at(camera)[0] - twoBefore[0], at(camera)[1] - twoBefore[1]) : Infinity);
  let camera = shot(1);
  // Else the jolt halved, left out or turned round, whichever moves the picture most.
  for (const jolt of [0.5, 0, -0.5, -1]) {
    if (moved(camera) >= MIN_MOVE_IN_TWO_FRAMES_PX) break;
    const other = shot(jolt);
    if (moved(other) > moved(camera)) camera = other;
  }
  placed.push(at(camera));
  return camera;
}

function cameraAt(style: CameraStyle, t: number, onsetS: number, beat: SecondBeat, durationS: number, strength: number, seed: number, jolt: number): CameraPose {
  const since = t - onsetS;
  let zoom = 1 + style.push * strength * smoothstep(0, durationS, t);
  if (since >= 0) {
    const hit = easeOutCubic(since / style.punchS);
    const relax = style.relax * smoothstep(style.punchS, style.punchS + 1.2, since);
    zoom += style.punch * strength * hit * (1 - relax);
  }
  // The second beat punches in again, less, and eases back out by the end.
  const again = t - beat.startS;
  if (again >= 0) zoom += 0.45 * abs(style.punch) * strength * easeOutCubic(again / (style.punchS * 1.5)) * (1 - 0.6 * smoothstep(0.3, durationS - beat.startS, again));
  const shake = since >= 0 ? strength * (style.shake * exp(-since / style.shakeDecayS) + 0.5 * style.shake * (again >= 0 ? exp(-again / style.shakeDecayS) : 0) + style.shakeFloor) : 0;
  // Hand-held drift: a few pixels and a fraction of a degree, slow; a sine under the noise keeps it
  // moving where the noise flattens out.
  let offsetX = 7 * smoothNoise(seed + 21, t * 0.35) + 5 * sin(2 * PI * 0.23 * t + (seed % 7));
  let offsetY = 5 * smoothNoise(seed + 22, t * 0.3) + 4 * sin(2 * PI * 0.31 * t + (seed % 5));
  let rotation = style.tilt * smoothNoise(seed + 23, t * 0.25);
  // The opening move: the phone is still settling on the face when the clip starts (a fraction of a
  // second of zoom, drop and tilt easing out), so the very first frames already move.
  // Eased out gently (quadratic, not cubic): the cubic had all but stopped by 0.3 s, before the
  // reaction's onset, and a drawn head with a modelled face froze there for ffmpeg's freezedetect.
  const intro = (1 - clamp(t / INTRO_S, 0, 1)) ** 2;
  zoom += 0.07 * intro;
  offsetY += 8 * intro;
  rotation += (seed % 2 === 0 ? 1 : -1) * 1.4 * intro;
  if (shake > 0) {
    offsetX += jolt * shake * 22 * smoothNoise(seed + 31, t * 15);
    offsetY += jolt * shake * 22 * smoothNoise(seed + 32, t * 15);
    rotation += shake * 1.2 * smoothNoise(seed + 33, t * 11);
  }
  return {
    zoom: clamp(zoom, CAMERA_LIMITS.zoom[0], CAMERA_LIMITS.zoom[1]),
    offsetX: clamp(offsetX, -CAMERA_LIMITS.offset, CAMERA_LIMITS.offset),
    offsetY: clamp(offsetY, -CAMERA_LIMITS.offset, CAMERA_LIMITS.offset),
    rotation: clamp(rotation, -CAMERA_LIMITS.rotation, CAMERA_LIMITS.rotation),
  };
}
