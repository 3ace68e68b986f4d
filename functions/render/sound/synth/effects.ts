/**
 * The reaction effects (domain/sound REACTION_EFFECTS), one per emotion. Each is a sting timed to the
 * reaction's first beat (the local engine peaks about 0.6 s in) over a soft chord that carries on to
 * the end, so the reaction is never left in silence whatever its length.
 */
import { hashSeed, randomFrom, type Random } from '../../reaction/seeded-random';
import { bandPass, highPass, lowPass, midiToHz, SAMPLE_RATE, saturate, StereoBuffer } from './signal';
import { bell, glide, kick, noise, pad, pluck, snare, stab } from './voices';
// Read once: in a hot loop, a lookup of the global `Math` costs more than the arithmetic (in jest's sandbox, many times more).
const { PI, abs, max, min, round, sin } = Math;

/** Long enough for the longest reaction (5 s) and the crossfade into the demo. */
export const EFFECT_SECONDS = 6;

interface Effect {
  /** The soft chord under the sting (MIDI notes). */
  chord: readonly number[];
  sting(out: StereoBuffer, random: Random): void;
}

/** Noise shaped by an envelope over its length: breaths, whooshes, risers. */
function shapedNoise(random: Random, seconds: number, centre: (t: number) => number, amp: (t: number) => number, q = 2): Float32Array {
  const n = noise(random, seconds);
  const length = n.length;
  bandPass(n, (i) => centre(i / length), q);
  for (let i = 0; i < length; i++) n[i]! *= amp(i / length);
  return n;
}

/** Short vowel-like bursts through two formants at a giggling rate: a crowd laugh, synthesised. */
function laughter(random: Random, seconds: number, voices: number): Float32Array {
  const length = round(seconds * SAMPLE_RATE);
  const out = new Float32Array(length);
  for (let v = 0; v < voices; v++) {
    const pitch = random.range(140, 320);
    const rate = random.range(4.5, 6.5);
    const start = random.range(0, 0.4);
    const burst = new Float32Array(length);
    let phase = 0;
    for (let i = 0; i < length; i++) {
      const t = i / SAMPLE_RATE;
      phase += (2 * PI * pitch * (1 + 0.05 * sin(t * 7))) / SAMPLE_RATE;
      const pulse = t < start ? 0 : max(0, sin(PI * rate * (t - start))) ** 3;
      burst[i] = (sin(phase) > 0 ? 1 : -1) * 0.3 * pulse + (random.next() * 2 - 1) * 0.15 * pulse;
    }
    const f1 = bandPass(Float32Array.from(burst), 750, 5);
    const f2 = bandPass(burst, 1250, 6);
    for (let i = 0; i < length; i++) out[i]! += (f1[i]! + f2[i]! * 0.7) / voices;
  }
  return out;
}

const EFFECTS: Record<string, Effect> = {
  'riser-hit': {
    chord: [45, 52, 57],
    sting(out, random) {
      out.add(0, shapedNoise(random, 0.85, (t) => 400 + 5000 * t * t, (t) => t * t, 3), 0.9);
      out.add(0, glide(0.85, (t) => 200 + 900 * t * t, (t) => 0.3 * t), 1);
      out.add(0.85, kick(120, 38, 1.4), 1.2);
      out.add(0.85, snare(random, 0.6, 120), 0.8);
      out.add(0.85, lowPass(shapedNoise(random, 2.5, () => 180, (t) => (1 - t) ** 3, 1), 400), 2);
    },
  },
  'laugh-swell': {
    chord: [48, 55, 64],
    sting(out, random) {
      const crowd = laughter(random, 4.2, 10);
      for (let i = 0; i < crowd.length; i++) {
        const t = i / crowd.length;
        crowd[i]! *= min(1, t * 4) * (t > 0.75 ? (1 - t) / 0.25 : 1);
      }
      out.add(0.2, crowd, 1.6, -0.2);
      out.add(0.25, laughter(random, 3.8, 8), 1.2, 0.3);
    },
  },
  'whoosh-pop': {
    chord: [50, 57, 62, 66],
    sting(out, random) {
      out.add(0, shapedNoise(random, 0.6, (t) => 600 + 4000 * sin(PI * t), (t) => sin(PI * t), 2), 1.2, -0.5);
      out.add(0.6, glide(0.12, (t) => 1400 - 1000 * t, (t) => 1 - t), 0.8, 0.3);
      out.add(0.62, pluck(random, midiToHz(86), 0.8), 0.6);
      out.add(1.3, glide(0.1, (t) => 1600 - 1100 * t, (t) => 1 - t), 0.6, -0.3);
    },
  },
  'sad-strings': {
    chord: [45, 48, 52],
    sting(out) {
      out.add(0.3, pad([midiToHz(57), midiToHz(60), midiToHz(64)], 4.5, 1400), 1.6);
      out.add(1.2, glide(3.2, (t) => midiToHz(76) * (1 + 0.006 * sin(t * 60)), (t) => 0.12 * sin(PI * t)), 1);
    },
  },
  squelch: {
    chord: [43, 49, 55],
    sting(out, random) {
      const wet = noise(random, 0.9);
      lowPass(wet, (i) => 300 + 1800 * abs(sin(i / 2400)));
      for (let i = 0; i < wet.length; i++) wet[i]! *= (1 - i / wet.length) * 2.5;
      out.add(0.45, wet, 1);
      out.add(0.45, glide(0.7, (t) => 320 - 220 * t + 40 * sin(t * 40), (t) => 0.5 * (1 - t)), 1);
    },
  },
  'boom-shimmer': {
    chord: [38, 45, 50, 57],
    sting(out, random) {
      out.add(0.5, kick(90, 30, 2.5), 1.5);
      out.add(0.5, lowPass(shapedNoise(random, 3, () => 120, (t) => (1 - t) ** 2, 1), 300), 2.5);
      for (let k = 0; k < 24; k++) {
        const at = 0.6 + random.range(0, 2.2);
        out.add(at, bell(random.range(2000, 5200), 0.9), 0.12, random.range(-0.8, 0.8));
      }
    },
  },
  'record-scratch': {
    chord: [46, 53, 58],
    sting(out, random) {
      const scratch = noise(random, 0.7);
      bandPass(scratch, (i) => 900 + 700 * sin(i / 900), 3);
      for (let i = 0; i < scratch.length; i++) scratch[i]! *= abs(sin(i / 1500)) * 2.2;
      out.add(0.3, scratch, 1);
      out.add(1.4, bell(midiToHz(70), 0.5), 0.3);
      out.add(1.65, bell(midiToHz(66), 0.7), 0.3);
    },
  },
  'harp-gliss': {
    chord: [48, 55, 60, 64],
    sting(out, random) {
      const scale = [60, 62, 64, 67, 69, 72, 74, 76, 79, 81, 84, 86, 88];
      scale.forEach((midi, i) => out.add(0.2 + i * 0.07, pluck(random, midiToHz(midi), 2, 0.998), 0.45, -0.6 + i * 0.1));
      out.add(1.3, bell(midiToHz(84), 2), 0.25);
    },
  },
  'distorted-stab': {
    chord: [40, 46, 52],
    sting(out) {
      const hit = stab([midiToHz(40), midiToHz(46), midiToHz(52)], 0.5, 6);
      out.add(0.4, hit, 0.9);
      out.add(0.75, hit, 0.9);
      out.add(0.4, saturate(kick(110, 40, 0.6), 3), 0.9);
    },
  },
  'chime-sparkle': {
    chord: [53, 57, 60, 64],
    sting(out, random) {
      [77, 81, 84, 89].forEach((midi, i) => out.add(0.25 + i * 0.12, bell(midiToHz(midi), 1.8), 0.35, -0.4 + i * 0.25));
      out.add(0.25, highPass(shapedNoise(random, 1.5, () => 8000, (t) => (1 - t) ** 2, 1), 6000), 0.3);
    },
  },
};

/** The effect as a stereo buffer of EFFECT_SECONDS, the same on every run. */
export function renderEffect(id: string): StereoBuffer {
  const effect = EFFECTS[id];
  if (!effect) throw new Error(`no built-in effect "${id}"`);
  const random = randomFrom(hashSeed('effect', id));
  const out = new StereoBuffer(EFFECT_SECONDS);
  // The chord under it: quiet, from the start to the end, so the reaction never falls silent.
  const under = pad(effect.chord.map(midiToHz), EFFECT_SECONDS, 1000);
  out.add(0, under, 0.5, -0.25);
  out.add(0, under, 0.5, 0.25);
  effect.sting(out, random);
  out.fadeEnds(3, 30);
  return out;
}
