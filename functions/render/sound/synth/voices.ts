/** The instruments the built-in beds and effects are played on: each returns one mono note. */
import type { Random } from '../../reaction/seeded-random';
import { adsr, bandPass, decayPerSample, highPass, lowPass, SAMPLE_RATE, samplesOf, saturate } from './signal';
// Read once: in a hot loop, a lookup of the global `Math` costs more than the arithmetic (in jest's sandbox, many times more).
const { PI, floor, max, min, round, sin } = Math;

const TAU = 2 * PI;

export function noise(random: Random, seconds: number): Float32Array {
  const out = new Float32Array(samplesOf(seconds));
  for (let i = 0; i < out.length; i++) out[i] = random.next() * 2 - 1;
  return out;
}

/** A kick: a sine falling from `fromHz` to `toHz`, with a click on top. */
export function kick(fromHz = 150, toHz = 45, seconds = 0.45): Float32Array {
  const out = new Float32Array(samplesOf(seconds));
  const fall = decayPerSample(0.06);
  const amp = decayPerSample(seconds);
  let phase = 0;
  let sweep = 1;
  let gain = 1;
  for (let i = 0; i < out.length; i++) {
    phase += (TAU * (toHz + (fromHz - toHz) * sweep)) / SAMPLE_RATE;
    out[i] = sin(phase) * gain;
    sweep *= fall;
    gain *= amp;
  }
  return out;
}

/** A snare or clap: a short tone under band-passed noise. */
export function snare(random: Random, seconds = 0.25, tone = 190): Float32Array {
  const body = noise(random, seconds);
  bandPass(body, 2200, 1.2);
  const amp = decayPerSample(seconds * 0.7);
  let gain = 1;
  for (let i = 0; i < body.length; i++) {
    body[i] = (body[i]! * 1.6 + sin((TAU * tone * i) / SAMPLE_RATE) * 0.5 * (gain * gain)) * gain;
    gain *= amp;
  }
  return body;
}

/** A hi-hat: high-passed noise, short (closed) or long (open). */
export function hat(random: Random, seconds = 0.05): Float32Array {
  const out = highPass(noise(random, seconds), 7000);
  const amp = decayPerSample(seconds);
  let gain = 1;
  for (let i = 0; i < out.length; i++) {
    out[i]! *= gain;
    gain *= amp;
  }
  return out;
}

/** A band-limited-ish sawtooth (a few harmonics): the raw material of pads, bass and stabs. */
function saw(hz: number, length: number, detuneCents = 0, harmonics = 12): Float32Array {
  const out = new Float32Array(length);
  const f = hz * 2 ** (detuneCents / 1200);
  const top = max(1, min(harmonics, floor(SAMPLE_RATE / 2 / f)));
  for (let k = 1; k <= top; k++) {
    const w = (TAU * f * k) / SAMPLE_RATE;
    const a = 1 / k;
    for (let i = 0; i < length; i++) out[i]! += sin(w * i) * a;
  }
  return out;
}

/** A warm pad chord: detuned saws, low-passed, slow attack and release. */
export function pad(hzs: readonly number[], seconds: number, brightness = 1800): Float32Array {
  const length = samplesOf(seconds);
  const out = new Float32Array(length);
  for (const hz of hzs) {
    for (const cents of [-7, 7]) {
      const voice = saw(hz, length, cents, 8);
      for (let i = 0; i < length; i++) out[i]! += voice[i]!;
    }
  }
  lowPass(out, brightness);
  const env = adsr(length, min(0.4, seconds / 3), 0.3, 0.8, min(0.5, seconds / 3));
  const norm = 0.35 / max(1, hzs.length);
  for (let i = 0; i < length; i++) out[i]! *= env(i) * norm;
  return out;
}

/** A round bass note: a sine with a touch of saturation for presence on phone speakers. */
export function bass(hz: number, seconds: number): Float32Array {
  const length = samplesOf(seconds);
  const out = new Float32Array(length);
  const env = adsr(length, 0.005, 0.1, 0.7, 0.05);
  for (let i = 0; i < length; i++) out[i] = (sin((TAU * hz * i) / SAMPLE_RATE) + 0.3 * sin((TAU * 2 * hz * i) / SAMPLE_RATE)) * env(i);
  return saturate(out, 1.5);
}

/** A plucked string (Karplus-Strong): pizzicato, guitar-like arpeggios, harp. */
export function pluck(random: Random, hz: number, seconds: number, damping = 0.996): Float32Array {
  const out = new Float32Array(samplesOf(seconds));
  const period = max(2, round(SAMPLE_RATE / hz));
  const ring = new Float32Array(period);
  for (let i = 0; i < period; i++) ring[i] = random.next() * 2 - 1;
  // A softer pick: the raw noise burst's top octave is what AAC's encode turns into overshooting peaks.
  lowPass(ring, min(8000, hz * 12));
  for (let i = 0; i < out.length; i++) {
    const j = i % period;
    const next = ring[(j + 1) % period];
    out[i] = ring[j]!;
    ring[j] = damping * 0.5 * (ring[j]! + next!);
  }
  return out;
}

/** A bell or chime: inharmonic partials decaying at their own rates. */
export function bell(hz: number, seconds: number): Float32Array {
  const out = new Float32Array(samplesOf(seconds));
  const partials: [number, number, number][] = [
    [1, 1, seconds],
    [2.76, 0.5, seconds * 0.6],
    [5.4, 0.25, seconds * 0.35],
    [8.93, 0.12, seconds * 0.2],
  ];
  for (const [ratio, amp, decay] of partials) {
    const k = decayPerSample(decay);
    let gain = amp;
    const w = (TAU * hz * ratio) / SAMPLE_RATE;
    for (let i = 0; i < out.length; i++) {
      out[i]! += sin(w * i) * gain;
      gain *= k;
    }
  }
  return out;
}

/** A saw chord stab through hard saturation: the angry effect's bite. */
export function stab(hzs: readonly number[], seconds: number, drive = 4): Float32Array {
  const length = samplesOf(seconds);
  const out = new Float32Array(length);
  for (const hz of hzs) {
    const voice = saw(hz, length, 0, 16);
    for (let i = 0; i < length; i++) out[i]! += voice[i]! / hzs.length;
  }
  saturate(out, drive);
  const env = adsr(length, 0.003, 0.15, 0.4, 0.1);
  for (let i = 0; i < length; i++) out[i]! *= env(i);
  return lowPass(out, 5000);
}

/** A sine whose pitch follows `hzAt(t)` (t in 0..1), with an amplitude envelope `ampAt(t)`. */
export function glide(seconds: number, hzAt: (t: number) => number, ampAt: (t: number) => number): Float32Array {
  const out = new Float32Array(samplesOf(seconds));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / out.length;
    phase += (TAU * hzAt(t)) / SAMPLE_RATE;
    out[i] = sin(phase) * ampAt(t);
  }
  return out;
}
