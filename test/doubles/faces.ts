/**
 * A face finder that sees what it is told to, for use-case tests whose files are stand-in bytes (the
 * real one, functions/adapters/media/human-face-finder.ts, is tested on real pictures).
 */
import type { FaceFinder } from '#ports/face-finder';

/** The landmarks it "finds": a marker the tests can see kept with an avatar. */
export const FOUND_FACE = { kind: 'photo-face', found: 'by the test double' } as const;

export function faceFinder(sees: { image?: boolean; clip?: boolean } = {}): FaceFinder {
  return {
    faceInImage: async () => ((sees.image ?? true) ? FOUND_FACE : null),
    clipShowsFace: async () => sees.clip ?? true,
  };
}
