import { createCanvas } from '@napi-rs/canvas';
import { paintBokeh } from '#functions/render/illustrated/bokeh';
const { max } = Math;

/** The lights painted over black on a small frame, as RGBA bytes. */
function lightsOver(seed: number, width = 270, height = 480): Uint8ClampedArray {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, width, height);
  paintBokeh(ctx, width, height, 8, seed);
  return ctx.getImageData(0, 0, width, height).data;
}

const lit = (pixels: Uint8ClampedArray) => {
  let count = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > 0) count++;
  return count / (pixels.length / 4);
};

describe('the out-of-focus lights behind the person', () => {
  test('the same seed paints the same lights; another seed moves them', () => {
    expect(Buffer.from(lightsOver(7)).equals(Buffer.from(lightsOver(7)))).toBe(true);
    expect(Buffer.from(lightsOver(7)).equals(Buffer.from(lightsOver(8)))).toBe(false);
  });

  test('they are faint and scattered: some of the frame is lit, none of it brighter than a sixth of white', () => {
    const pixels = lightsOver(3);
    const share = lit(pixels);
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.8);
    let brightest = 0;
    for (let i = 0; i < pixels.length; i += 4) brightest = max(brightest, pixels[i]!);
    expect(brightest).toBeLessThanOrEqual(255 / 6 + 16);
  });
});
