/**
 * The emotion's accents (surprise strokes, anger mark, hearts, sparkles, stars, sweat drop) stay out of
 * the band a top caption sits in: drawn above the head they peeked out from behind the caption box
 * as fragments.
 */
import { createCanvas } from '@napi-rs/canvas';
import { rigFromPrompt } from '#render';
import { reactionFrames } from '#functions/render/reaction/expression-curve';
import { applyCamera, drawAccents, illustratedLayout, prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { clipFaceBox } from '#functions/render/reaction/reaction-clip';
import { FACE_GAP_PX, FOREHEAD_SHARE } from '#functions/render/caption/caption';
import type { Emotion, ReactionFrame } from '#functions/render/reaction/animation';

const { ceil, floor, min } = Math;

const EMOTIONS: Emotion[] = ['shocked', 'laughing', 'excited', 'crying', 'disgusted', 'mind_blown', 'skeptical', 'in_love', 'angry', 'happy'];

const layout = illustratedLayout();

/**
 * The lowest row a top caption's ink can reach over a clip: above the eyes-to-mouth box the engine
 * hands the caption (every frame's box joined), its forehead and the gap it keeps.
 */
async function topCaptionFloor(frames: ReactionFrame[]): Promise<number> {
  const scene = await prepareIllustratedScene(rigFromPrompt('woman with long hair', 1), frames, { seed: 1 });
  const box = clipFaceBox(scene, frames, layout.width, layout.height)!;
  return box.y - FOREHEAD_SHARE * box.height - FACE_GAP_PX;
}

/** The highest row any accent inks over the clip, each frame in its camera (zoom, offsets, roll), as the scene draws it. */
function highestAccentRow(emotion: Emotion, frames: ReactionFrame[]): number {
  const canvas = createCanvas(layout.width, layout.height);
  const ctx = canvas.getContext('2d');
  let highest = Infinity;
  frames.forEach((frame, index) => {
    if (index % 3 !== 0) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, layout.width, layout.height);
    applyCamera(ctx, layout, frame);
    for (const alternate of [false, true]) {
      drawAccents(ctx, layout, emotion, { ...frame, expression: { emotion, intensity: 1, ...(alternate ? { alternate } : {}) } }, index / 30, 1);
    }
    const pixels = ctx.getImageData(0, 0, layout.width, ceil(layout.focusY)).data;
    for (let i = 3; i < pixels.length; i += 4) {
      if (pixels[i]! > 8) {
        highest = min(highest, floor((i - 3) / 4 / layout.width));
        break;
      }
    }
  });
  return highest;
}

describe('accents', () => {
  test.each(EMOTIONS)('of %s stay below the band a top caption sits in, in every frame of the reaction', async (emotion) => {
    const frames = reactionFrames({ emotion, intensity: 1, durationS: 4, seed: 1 });
    expect(highestAccentRow(emotion, frames)).toBeGreaterThan(await topCaptionFloor(frames));
  });
});
