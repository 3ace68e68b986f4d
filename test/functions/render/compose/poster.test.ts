/** The poster shows the reaction at its peak: the frame the engine's curve says is strongest. */
import { peakFrameIndex, posterTimeS } from '#functions/render/compose/poster';
import { CALM_FACE, reactionFrames } from '#functions/render/reaction/expression-curve';
import { REST_CAMERA, type ReactionFrame } from '#functions/render/reaction/animation';
const { floor, max } = Math;

const still = (face: Partial<ReactionFrame['face']> = {}): ReactionFrame => ({ face: { ...CALM_FACE, ...face }, camera: REST_CAMERA });

describe('peakFrameIndex', () => {
  test.each(['shocked', 'laughing', 'mind_blown', 'crying'] as const)('a %s reaction: the frame whose emotion is strongest', (emotion) => {
    const frames = reactionFrames({ emotion, intensity: 1, durationS: 4, seed: 7 });
    const peak = peakFrameIndex(frames);
    const strongest = max(...frames.map((f) => f.expression?.intensity ?? 0));
    expect(frames[peak]!.expression?.intensity).toBe(strongest);
    // Not the fixed 60 % the poster used to take, and never the calm opening.
    expect(peak).toBeGreaterThan(0);
    expect(frames[peak]!.expression!.intensity).toBeGreaterThan(frames[0]!.expression?.intensity ?? 0);
  });

  test('motion from a reference clip (no emotion): the face furthest from rest', () => {
    const frames = [still(), still({ mouthOpen: 0.2 }), still({ mouthOpen: 0.8, browRaise: 0.6, eyeOpen: 1.4 }), still({ mouthOpen: 0.3 })];
    expect(peakFrameIndex(frames)).toBe(2);
  });

  test('a held peak is shown as it lands: the first of equal frames', () => {
    const frames = [still(), still({ mouthOpen: 0.9 }), still({ mouthOpen: 0.9 })];
    expect(peakFrameIndex(frames)).toBe(1);
  });

  test('without a curve (another engine’s clip) the poster falls back to 60 % of the segment, on a frame', () => {
    expect(posterTimeS(4)).toBeCloseTo(2.4, 5);
    expect(posterTimeS(3.5) * 30).toBe(floor(3.5 * 0.6 * 30));
  });
});
