/**
 * A reaction's frames with a line spoken over them: the expression keeps playing (eyes, brows, head,
 * camera, the emotion's accents), and while the line is heard the mouth is the speech's. The jaw
 * (FacePose.mouthOpen, which the photo warp opens) follows the visemes' openness; the shape
 * (ReactionFrame.viseme, which the illustrated avatar draws) is set while the speech dominates;
 * wide vowels pull the corners out a little, round ones in.
 */
import type { ReactionFrame } from '../reaction/animation';
import type { MouthFrame } from './visemes';
const { max, min } = Math;

const clamp = (v: number, lo: number, hi: number) => min(hi, max(lo, v));

export function speakingFrames(frames: readonly ReactionFrame[], mouth: readonly MouthFrame[]): ReactionFrame[] {
  return frames.map((frame, i) => {
    const m = mouth[i];
    if (!m || m.weight <= 0) return frame;
    const w = m.weight;
    const { face } = frame;
    const corners = m.viseme === 'wide' ? 0.12 : m.viseme === 'round' ? -0.15 - 0.5 * face.smile : 0;
    return {
      ...frame,
      face: {
        ...face,
        mouthOpen: clamp(face.mouthOpen + (m.open - face.mouthOpen) * w, 0, 1),
        smile: clamp(face.smile + corners * w, -1, 1),
      },
      ...(w >= 0.5 ? { viseme: m.viseme } : {}),
    };
  });
}

/**
 * Frames long enough for `minS` seconds: the same frames when they already are, else more of the
 * reaction from `longer` (an expression curve re-planned at the length), else the last pose held.
 */
export function framesToLength(
  frames: ReactionFrame[],
  minFrames: number,
  longer?: (frameCount: number) => ReactionFrame[],
): ReactionFrame[] {
  if (frames.length >= minFrames) return frames;
  if (longer) return longer(minFrames);
  const out = frames.slice();
  while (out.length < minFrames) out.push(out[out.length - 1]!);
  return out;
}
