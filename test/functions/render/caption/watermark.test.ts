/** The TEST label of a test job's video: drawn in the top-left corner, with or without the caption. */
import sharp from 'sharp';
import { CAPTION_SAFE_AREA, renderCaptionPng, renderOverlayPng } from '#render';
const { abs, floor, min } = Math;

async function rgbaAt(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

describe('renderOverlayPng', () => {
  test('without a watermark it is the caption as renderCaptionPng draws it', async () => {
    const caption = { text: 'Wait for it', position: 'bottom' as const, size: 'medium' as const };
    const [overlay, plain] = await Promise.all([renderOverlayPng(caption, null), renderCaptionPng(caption)]);
    expect(overlay.box).toEqual(plain.box);
    expect(overlay.png.equals(plain.png)).toBe(true);
  });

  test('the label alone sits in the top-left corner, inside the safe area, opaque red behind its letters', async () => {
    const { png, box } = await renderOverlayPng(null, 'TEST');
    expect(box.x).toBeGreaterThanOrEqual(CAPTION_SAFE_AREA.left);
    expect(box.y).toBeGreaterThanOrEqual(CAPTION_SAFE_AREA.top);
    expect(box.x + box.width).toBeLessThan(540);
    expect(box.y + box.height).toBeLessThan(400);
    // Just inside the tab's left edge, before the first letter: the tab's own colour.
    const [r, g, b, a] = await rgbaAt(png, box.x + 8, box.y + floor(box.height / 2));
    expect({ red: r! > 180, green: g! < 80, blue: b! < 120, opaque: a! > 200 }).toEqual({ red: true, green: true, blue: true, opaque: true });
    // Outside it, nothing is drawn.
    expect((await rgbaAt(png, 900, 1700))[3]).toBe(0);
  });

  test('with a caption, both are drawn and the box covers both', async () => {
    const caption = { text: 'Wait for it', position: 'bottom' as const, size: 'medium' as const };
    const [both, label, plain] = await Promise.all([renderOverlayPng(caption, 'TEST'), renderOverlayPng(null, 'TEST'), renderCaptionPng(caption)]);
    expect(both.box.x).toBe(min(label.box.x, plain.box.x));
    expect(both.box.y).toBe(label.box.y);
    expect(both.box.y + both.box.height).toBe(plain.box.y + plain.box.height);
    const centre = { x: plain.box.x + floor(plain.box.width / 2), y: plain.box.y + floor(plain.box.height / 2) };
    // Copied over as drawn (premultiplied alpha may round a channel by one).
    const [drawn, original] = await Promise.all([rgbaAt(both.png, centre.x, centre.y), rgbaAt(plain.png, centre.x, centre.y)]);
    drawn.forEach((channel, i) => expect(abs(channel - original[i]!)).toBeLessThanOrEqual(2));
  });
});
