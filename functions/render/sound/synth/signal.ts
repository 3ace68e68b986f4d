/**
 * A stereo sample buffer the built-in sounds are drawn into, and the few signal blocks they need.
 * Written here rather than taken from a library: the Web Audio ports for Node are native builds of a
 * whole audio engine, while these sounds need a dozen lines of arithmetic and must be bit-identical
 * on every machine (no threads, no platform maths beyond IEEE doubles).
 */
// Read once: in a hot loop, a lookup of the global `Math` costs more than the arithmetic (in jest's sandbox, many times more).
const { PI, ceil, cos, exp, log, max, min, round, sin, tanh } = Math;
export const SAMPLE_RATE = 48_000;

export class StereoBuffer {
  readonly left: Float32Array;
  readonly right: Float32Array;

  constructor(readonly seconds: number) {
    const length = ceil(seconds * SAMPLE_RATE);
    this.left = new Float32Array(length);
    this.right = new Float32Array(length);
  }

  get length(): number {
    return this.left.length;
  }

  /**
   * Adds a mono voice starting at `atS`, panned (−1 left .. 1 right, equal power). Samples past the
   * end are dropped: a note that rings over the end of the buffer is cut, not wrapped.
   */
  add(atS: number, voice: Float32Array, gain = 1, pan = 0): void {
    const start = round(atS * SAMPLE_RATE);
    const angle = ((pan + 1) * PI) / 4;
    const l = cos(angle) * gain;
    const r = sin(angle) * gain;
    const end = min(voice.length, this.length - start);
    for (let i = max(0, -start); i < end; i++) {
      this.left[start + i]! += voice[i]! * l;
      this.right[start + i]! += voice[i]! * r;
    }
  }

  /** Fades both ends (ms) so a clip never starts or stops on a click. */
  fadeEnds(inMs: number, outMs: number): void {
    const fadeIn = round((inMs / 1000) * SAMPLE_RATE);
    const fadeOut = round((outMs / 1000) * SAMPLE_RATE);
    for (let i = 0; i < fadeIn && i < this.length; i++) {
      const g = i / fadeIn;
      this.left[i]! *= g;
      this.right[i]! *= g;
    }
    for (let i = 0; i < fadeOut && i < this.length; i++) {
      const g = i / fadeOut;
      this.left[this.length - 1 - i]! *= g;
      this.right[this.length - 1 - i]! *= g;
    }
  }
}

export const samplesOf = (seconds: number) => max(1, round(seconds * SAMPLE_RATE));

export const midiToHz = (note: number) => 440 * 2 ** ((note - 69) / 12);

/** Exponential decay to −60 dB over `seconds`, per sample. */
export const decayPerSample = (seconds: number) => exp(log(0.001) / (seconds * SAMPLE_RATE));

/** A one-pole low-pass, in place; `cutoffHz` may vary per sample. */
export function lowPass(samples: Float32Array, cutoffHz: number | ((i: number) => number)): Float32Array {
  let state = 0;
  for (let i = 0; i < samples.length; i++) {
    const fc = typeof cutoffHz === 'number' ? cutoffHz : cutoffHz(i);
    const a = 1 - exp((-2 * PI * fc) / SAMPLE_RATE);
    state += a * (samples[i]! - state);
    samples[i] = state;
  }
  return samples;
}

/** A one-pole high-pass (the input minus its low-pass), in place. */
export function highPass(samples: Float32Array, cutoffHz: number): Float32Array {
  const a = 1 - exp((-2 * PI * cutoffHz) / SAMPLE_RATE);
  let state = 0;
  for (let i = 0; i < samples.length; i++) {
    state += a * (samples[i]! - state);
    samples[i]! -= state;
  }
  return samples;
}

/**
 * A resonant band-pass (state-variable filter), in place: the formants of a laugh, the sweep of a
 * whoosh. `centreHz` may vary per sample.
 */
export function bandPass(samples: Float32Array, centreHz: number | ((i: number) => number), q = 4): Float32Array {
  let low = 0;
  let band = 0;
  const damping = 1 / q;
  for (let i = 0; i < samples.length; i++) {
    const fc = typeof centreHz === 'number' ? centreHz : centreHz(i);
    const f = 2 * sin((PI * min(fc, SAMPLE_RATE / 6)) / SAMPLE_RATE);
    low += f * band;
    const high = samples[i]! - low - damping * band;
    band += f * high;
    samples[i] = band;
  }
  return samples;
}

/** Soft saturation: drives a voice into warmth (or, hard, into distortion) without clipping. */
export function saturate(samples: Float32Array, drive: number): Float32Array {
  const norm = tanh(drive);
  for (let i = 0; i < samples.length; i++) samples[i] = tanh(samples[i]! * drive) / norm;
  return samples;
}

/** Attack-decay-sustain-release, as a gain per sample over `length` samples (release at the end). */
export function adsr(length: number, a: number, d: number, s: number, r: number): (i: number) => number {
  const A = max(1, round(a * SAMPLE_RATE));
  const D = max(1, round(d * SAMPLE_RATE));
  const R = max(1, round(r * SAMPLE_RATE));
  const releaseAt = max(A + D, length - R);
  return (i) => {
    if (i < A) return i / A;
    if (i < A + D) return 1 - (1 - s) * ((i - A) / D);
    if (i < releaseAt) return s;
    return max(0, s * (1 - (i - releaseAt) / R));
  };
}
