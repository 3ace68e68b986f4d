/**
 * The sample clip's pictures: a pure function of time (the same frame on every machine), with motion
 * across the clip, drawn with fonts found in node_modules. The whole clip, encoded, is probed by the
 * products end-to-end suite.
 */
import { createHash } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { SAMPLE_DEMO } from '#domain/sample-product';
import { drawLittleWins, TAP_AT_S, TICKS_AT_S } from '#functions/render/sample/little-wins';

const frameHash = (t: number) => {
  const canvas = createCanvas(SAMPLE_DEMO.width, SAMPLE_DEMO.height);
  drawLittleWins(canvas.getContext('2d'), t);
  return createHash('sha256').update(canvas.data()).digest('hex');
};

describe('the sample clip\'s drawing', () => {
  test('draws the same frame for the same time, every time', () => {
    for (const t of [0, 1.5, 3, 5.9]) expect(frameHash(t)).toBe(frameHash(t));
  });

  test('moves: the list fills in, habits are ticked, the tap lands, the week grows, until the end', () => {
    const times = [0.3, 1.0, ...TICKS_AT_S.map((at) => at + 0.3), TAP_AT_S + 0.1, 3.0, 3.6, 4.5, 5.9];
    expect(new Set(times.map(frameHash)).size).toBe(times.length);
  });

  test('settles before the end: the last frames hold still, so the clip does not end mid-motion', () => {
    expect(frameHash(SAMPLE_DEMO.durationS - 1 / SAMPLE_DEMO.fps)).toBe(frameHash(SAMPLE_DEMO.durationS - 0.5));
  });
});
