/** Seeds for generation requests. The deterministic generator itself is render/reaction/seeded-random.ts. */

/** A fresh seed when the caller gave none: 31 bits, so it survives JSON and every engine's range. */
export function newSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
