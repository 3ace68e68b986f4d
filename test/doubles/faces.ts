/**
 * A face finder that sees what it is told to, for use-case tests whose files are stand-in bytes (the
 * real one, functions/adapters/media/human-face-finder.ts, is tested on real pictures).
 */
import type { FaceFinder } from '#ports/face-finder';
import type { FrameBox } from '#domain/jobs';

/** The landmarks it "finds": a marker the tests can see kept with an avatar. */
export const FOUND_FACE = { kind: 'photo-face', found: 'by the test double' } as const;

/** The eyes-to-mouth box it "finds" in a reaction clip: where a selfie-framed face sits on the 1080x1920 frame. */
export const FOUND_BOX: FrameBox = { x: 330, y: 610, width: 420, height: 360 };

export function faceFinder(sees: { image?: boolean; clip?: boolean; box?: FrameBox | null } = {}): FaceFinder {
  return {
    faceInImage: async () => ((sees.image ?? true) ? FOUND_FACE : null),
    clipShowsFace: async () => sees.clip ?? true,
    faceBoxInClip: async () => (sees.box === undefined ? FOUND_BOX : sees.box),
  };
}
