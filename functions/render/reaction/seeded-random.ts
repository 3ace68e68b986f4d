const { cos, floor, imul, PI } = Math;

/**
 * Deterministic randomness for the local engine: same seed, same avatar, same reaction, on every
 * machine. Each decision draws from its own stream (`streamFor(seed, 'hair')`), so adding a trait to a
 * prompt changes that trait only, not every choice drawn after it.
 */

/** FNV-1a over the parts' text: a 32-bit seed for a named decision. */
export function hashSeed(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u241f');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  range(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32: tiny, fast, and good enough for picking hair colours and jittering blinks. */
export function randomFrom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (min, max) => min + (max - min) * next(),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[floor(next() * items.length)]!;
    },
    chance: (probability) => next() < probability,
  };
}

export function streamFor(seed: number, name: string): Random {
  return randomFrom(hashSeed(seed, name));
}

/**
 * Smooth 1-D value noise in [-1, 1]: hashed values on integer points, cosine-blended between them.
 * Used for micro head motion and camera drift, where a sine would look mechanical.
 */
export function smoothNoise(seed: number, x: number): number {
  const i = floor(x);
  const f = x - i;
  const a = lattice(seed, i);
  const b = lattice(seed, i + 1);
  const w = (1 - cos(f * PI)) / 2;
  return a + (b - a) * w;
}

function lattice(seed: number, i: number): number {
  let h = imul(seed ^ imul(i, 0x27d4eb2d), 0x165667b1);
  h ^= h >>> 15;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return ((h >>> 0) / 4294967295) * 2 - 1;
}
