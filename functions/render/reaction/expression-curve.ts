/**
 * An emotion performed over time: per frame, the face (FacePose) and the camera (CameraPose).
 *
 * Every reaction has the same arc, tuned per emotion: a calm face with idle life, a small
 * anticipation, a quick build to the peak (with a little overshoot), then a hold that stays alive:
 * blinks, micro head motion, the emotion's own rhythm (a laugh's "ha-ha", a sob, a tremble). The
 * camera punches in on the peak, shakes for the big ones, and otherwise drifts like a hand-held
 * phone. A seed moves the timings and the motion a little, so two takes differ but each repeats.
 */
import { REACTION_CLIP } from '#ports/engine';
import { NEUTRAL_FACE, type CameraPose, type Emotion, type FacePose, type ReactionFrame } from './animation';
import { hashSeed, smoothNoise, streamFor } from './seeded-random';
import { openingMotion } from './opening';

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
    peak: pose({ mouthOpen: 1, smile: -0.15, browRaise: 1, eyeOpen: 1.45, headPitch: -6 }),
    onsetS: 0.42, buildS: 0.14, overshoot: 0.18, settle: 0.9,
    camera: { punch: 0.16, punchS: 0.1, relax: 0.3, shake: 1, shakeDecayS: 0.45, shakeFloor: 0, push: 0.04, tilt: 0.6 },
    life: (p, t, e, seed) => {
      // Frozen in shock, but breathing: a small tremble and the jaw working.
      p.headRoll += e * 1.4 * smoothNoise(seed + 1, t * 3);
      p.mouthOpen -= e * 0.12 * Math.abs(smoothNoise(seed + 2, t * 1.5));
    },
  },
  mind_blown: {
    peak: pose({ mouthOpen: 1, smile: 0, browRaise: 1, eyeOpen: 1.5, headPitch: -8 }),
    onsetS: 0.4, buildS: 0.16, overshoot: 0.25, settle: 0.95,
    camera: { punch: 0.2, punchS: 0.12, relax: 0.25, shake: 1.5, shakeDecayS: 0.8, shakeFloor: 0.1, push: 0.06, tilt: 1 },
    life: (p, t, e) => {
      // The head reels after the blast: a decaying wobble.
      const wobble = Math.sin(t * Math.PI * 2 * 1.4) * Math.exp(-t / 1.6);
      p.headRoll += e * 7 * wobble;
      p.headYaw += e * 5 * Math.sin(t * Math.PI * 2 * 0.9) * Math.exp(-t / 2);
    },
    alternate: { fromS: 0.9, lengthS: 1.4 },
  },
  laughing: {
    peak: pose({ mouthOpen: 0.85, smile: 1, browRaise: 0.4, eyeOpen: 0.3, headPitch: -7, headRoll: 4 }),
    onsetS: 0.38, buildS: 0.22, overshoot: 0.1, settle: 0.85,
    camera: { punch: 0.08, punchS: 0.16, relax: 0.2, shake: 0.25, shakeDecayS: 1.5, shakeFloor: 0.08, push: 0.04, tilt: 0.8 },
    life: (p, t, e) => {
      // "Ha-ha-ha": the mouth opens on each beat and the head bobs with it.
      const ha = pulse(t, 4.2, 0.55);
      p.mouthOpen += e * (ha * 0.15 - (1 - ha) * 0.6);
      p.headPitch += e * (3.5 * ha - 1.5);
      p.headRoll += e * 2.5 * Math.sin(t * Math.PI * 2 * 0.8);
    },
  },
  excited: {
    peak: pose({ mouthOpen: 0.85, smile: 0.9, browRaise: 0.9, eyeOpen: 1.3, headPitch: -3 }),
    onsetS: 0.4, buildS: 0.18, overshoot: 0.2, settle: 0.9,
    camera: { punch: 0.1, punchS: 0.12, relax: 0.3, shake: 0.45, shakeDecayS: 0.6, shakeFloor: 0.05, push: 0.05, tilt: 1 },
    life: (p, t, e) => {
      // Bouncing on the spot.
      const bounce = Math.abs(Math.sin(t * Math.PI * 2.2));
      p.headPitch += e * (4 * bounce - 2);
      p.headRoll += e * 4 * Math.sin(t * Math.PI * 2 * 0.7);
      p.mouthOpen -= e * 0.3 * (1 - bounce);
    },
  },
  crying: {
    peak: pose({ mouthOpen: 0.3, smile: -0.9, browRaise: -0.5, eyeOpen: 0.7, headPitch: 7, headRoll: -4 }),
    onsetS: 0.4, buildS: 0.5, overshoot: 0, settle: 1,
    camera: { punch: 0.03, punchS: 0.5, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.1, tilt: 0.5 },
    life: (p, t, e) => {
      // Sobs: the mouth opens and the shoulders (head) jerk, in bursts.
      const sob = pulse(t, 1.35, 0.45);
      p.mouthOpen += e * (0.25 * sob - 0.15);
      p.headPitch += e * (-2.5 * sob);
      p.headRoll += e * 1.5 * Math.sin(t * Math.PI * 2 * 0.5);
    },
  },
  disgusted: {
    peak: pose({ mouthOpen: 0.3, smile: -0.7, browRaise: -0.6, eyeOpen: 0.6, headYaw: 14, headRoll: -7, headPitch: -4 }),
    onsetS: 0.4, buildS: 0.2, overshoot: 0.15, settle: 0.9,
    camera: { punch: -0.05, punchS: 0.15, relax: 1, shake: 0.3, shakeDecayS: 0.4, shakeFloor: 0, push: 0.08, tilt: 0.6 },
    life: (p, t, e) => {
      // A small "no, no" shake of the head.
      p.headYaw += e * 3 * Math.sin(t * Math.PI * 2 * 1.6) * Math.exp(-t / 1.5);
    },
    alternate: { fromS: 0.35, lengthS: 1.1 },
  },
  skeptical: {
    peak: pose({ mouthOpen: 0, smile: -0.25, browRaise: 0.45, eyeOpen: 0.8, headYaw: -8, headRoll: 8, headPitch: 2 }),
    onsetS: 0.45, buildS: 0.55, overshoot: 0, settle: 1,
    camera: { punch: 0.03, punchS: 0.5, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.14, tilt: 0.8 },
    life: (p, t, e, seed) => {
      p.headRoll += e * 1.5 * smoothNoise(seed + 5, t * 0.8);
    },
    alternate: { fromS: 1.3, lengthS: 0.9 },
  },
  in_love: {
    peak: pose({ mouthOpen: 0.2, smile: 0.85, browRaise: 0.55, eyeOpen: 1, headRoll: 6 }),
    onsetS: 0.4, buildS: 0.35, overshoot: 0.1, settle: 1,
    camera: { punch: 0.05, punchS: 0.3, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.06, tilt: 1 },
    life: (p, t, e) => {
      // Swaying, dreamy.
      p.headRoll += e * 6 * Math.sin(t * Math.PI * 2 * 0.55);
      p.headYaw += e * 3 * Math.sin(t * Math.PI * 2 * 0.3);
    },
  },
  angry: {
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
    peak: pose({ mouthOpen: 0.5, smile: 0.95, browRaise: 0.35, eyeOpen: 0.95, headRoll: 4 }),
    onsetS: 0.4, buildS: 0.3, overshoot: 0.08, settle: 0.95,
    camera: { punch: 0.05, punchS: 0.25, relax: 0, shake: 0, shakeDecayS: 1, shakeFloor: 0, push: 0.05, tilt: 0.8 },
    life: (p, t, e) => {
      p.headRoll += e * 4 * Math.sin(t * Math.PI * 2 * 0.45);
      p.headPitch += e * 1.5 * Math.sin(t * Math.PI * 2 * 0.9);
    },
  },
};

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
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

/** Seconds at which the eyes close, spread like a person's (every 1.5-3 s), never on the peak itself. */
function blinkTimes(seed: number, durationS: number, onsetS: number, peakS: number): number[] {
  const rnd = streamFor(seed, 'blinks');
  const times: number[] = [];
  // One early blink while calm, when there is room for it before the anticipation.
  if (onsetS > 0.35 && rnd.chance(0.6)) times.push(rnd.range(0.05, onsetS - 0.3));
  // Wide eyes are held for a moment after the peak before the first blink.
  let t = peakS + rnd.range(0.7, 1.1);
  while (t < durationS - 0.2) {
    times.push(t);
    t += rnd.range(1.5, 3);
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
    amount = Math.max(amount, x < 0.35 ? x / 0.35 : 1 - (x - 0.35) / 0.65);
  }
  return clamp(amount, 0, 1);
}

/** The intensity envelope: 0 until the onset, a quick build with overshoot, then a hold that relaxes a little. */
function envelope(profile: Profile, t: number, onsetS: number, peakS: number, durationS: number): number {
  if (t < onsetS) return 0;
  if (t < peakS) return easeOutBack((t - onsetS) / (peakS - onsetS), profile.overshoot);
  const holdT = (t - peakS) / Math.max(0.001, durationS - peakS);
  return 1 - (1 - profile.settle) * smoothstep(0, 1, holdT);
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
  const count = Math.max(1, Math.round(plan.durationS * fps));
  const durationS = count / fps;
  const profile = PROFILES[plan.emotion];
  const strength = clamp(plan.intensity, 0, 1);
  const { onsetS, peakS } = reactionTiming(plan);
  const blinks = blinkTimes(plan.seed, durationS, onsetS, peakS);
  const noiseSeed = hashSeed(plan.seed, 'motion');
  const rnd = streamFor(plan.seed, 'pose');
  // The same emotion, not the same face every time: a slightly different peak per seed.
  const peak: FacePose = {
    ...profile.peak,
    headRoll: profile.peak.headRoll + rnd.range(-3, 3),
    headYaw: profile.peak.headYaw + rnd.range(-3, 3),
    headPitch: profile.peak.headPitch + rnd.range(-1.5, 1.5),
  };
  const target = lerpFace(CALM_FACE, peak, strength);

  const frames: ReactionFrame[] = [];
  for (let i = 0; i < count; i++) {
    const t = i / fps;
    const e = envelope(profile, t, onsetS, peakS, durationS);
    const face = lerpFace(CALM_FACE, target, e);

    // Anticipation: a small dip of the head and a narrowing of the eyes just before the reaction.
    const anticipation = smoothstep(onsetS - 0.18, onsetS - 0.04, t) * (1 - smoothstep(onsetS - 0.02, onsetS + 0.06, t));
    face.headPitch += 2.5 * anticipation;
    face.eyeOpen -= 0.12 * anticipation;

    // Idle life, always on: the head is never perfectly still.
    face.headYaw += 1.6 * smoothNoise(noiseSeed + 11, t * 0.7);
    face.headPitch += 1.1 * smoothNoise(noiseSeed + 12, t * 0.6);
    face.headRoll += 1.3 * smoothNoise(noiseSeed + 13, t * 0.5);
    // The clip opens already moving (./opening.ts): no frozen frames before the reaction.
    const opening = openingMotion(t, onsetS);
    face.headYaw += opening.headYaw;
    face.headPitch += opening.headPitch;

    if (t >= peakS && profile.life) profile.life(face, t - peakS, e * strength, noiseSeed);
    else if (t >= onsetS && profile.life) profile.life(face, 0, e * strength, noiseSeed);

    face.eyeOpen *= 1 - blinkAmount(blinks, t);

    const alternate = profile.alternate !== undefined && t >= peakS + profile.alternate.fromS && t < peakS + profile.alternate.fromS + profile.alternate.lengthS;
    frames.push({
      face: clampFace(face),
      camera: cameraAt(profile.camera, t, onsetS, durationS, strength, noiseSeed),
      expression: { emotion: plan.emotion, intensity: clamp(e * strength, 0, 1), ...(alternate ? { alternate: true } : {}) },
    });
  }
  return frames;
}

function cameraAt(style: CameraStyle, t: number, onsetS: number, durationS: number, strength: number, seed: number): CameraPose {
  const since = t - onsetS;
  let zoom = 1 + style.push * strength * smoothstep(0, durationS, t);
  if (since >= 0) {
    const hit = easeOutCubic(since / style.punchS);
    const relax = style.relax * smoothstep(style.punchS, style.punchS + 1.2, since);
    zoom += style.punch * strength * hit * (1 - relax);
  }
  const shake = since >= 0 ? strength * (style.shake * Math.exp(-since / style.shakeDecayS) + style.shakeFloor) : 0;
  // Hand-held drift: a few pixels and a fraction of a degree, slow.
  let offsetX = 7 * smoothNoise(seed + 21, t * 0.35);
  const opening = openingMotion(t, onsetS);
  zoom += opening.zoom;
  let offsetY = 5 * smoothNoise(seed + 22, t * 0.3) + opening.offsetY;
  let rotation = style.tilt * smoothNoise(seed + 23, t * 0.25) + opening.rotation;
  if (shake > 0) {
    offsetX += shake * 22 * smoothNoise(seed + 31, t * 15);
    offsetY += shake * 22 * smoothNoise(seed + 32, t * 15);
    rotation += shake * 1.2 * smoothNoise(seed + 33, t * 11);
  }
  return {
    zoom: clamp(zoom, CAMERA_LIMITS.zoom[0], CAMERA_LIMITS.zoom[1]),
    offsetX: clamp(offsetX, -CAMERA_LIMITS.offset, CAMERA_LIMITS.offset),
    offsetY: clamp(offsetY, -CAMERA_LIMITS.offset, CAMERA_LIMITS.offset),
    rotation: clamp(rotation, -CAMERA_LIMITS.rotation, CAMERA_LIMITS.rotation),
  };
}
