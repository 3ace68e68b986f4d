/**
 * The room behind the person, out of focus: soft discs of light scattered over the backdrop, placed
 * by the job's seed, painted once per clip into the backdrop bitmap (no cost per frame).
 *
 * Why: a phone filming someone indoors sees lamps and windows behind them as blurred circles, and a
 * bare gradient reads as a studio card. It also gives the hand-held camera something to move: a
 * gradient shifted two pixels changes by a fraction of a luma level, so in the calmest emotions
 * (crying) the whole frame changed by 0.5 level a frame and ffmpeg's freezedetect (n = 0.003 over
 * 0.1 s) found 8 short freezes in three seeds. Each disc's edge is a contrast that moves with the
 * camera.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { streamFor } from '../reaction/seeded-random';
const { PI } = Math;

/** How many lights, their radius range (pixels of a 1080-wide frame) and their strength (alpha of white). */
const BOKEH = { count: 34, radiusPx: [26, 96], alpha: [0.05, 0.13], softEdge: 0.22 } as const;

/**
 * Paints the lights over `width` x `height` (plus `margin` past every edge, where the camera may look)
 * in `ctx`, whose origin is the frame's top-left corner.
 */
export function paintBokeh(ctx: SKRSContext2D, width: number, height: number, margin: number, seed: number): void {
  const random = streamFor(seed, 'bokeh');
  const scale = width / 1080;
  ctx.save();
  for (let i = 0; i < BOKEH.count; i++) {
    const x = random.range(-margin, width + margin);
    const y = random.range(-margin, height + margin);
    const r = random.range(BOKEH.radiusPx[0], BOKEH.radiusPx[1]) * scale;
    const alpha = random.range(BOKEH.alpha[0], BOKEH.alpha[1]);
    // A lens's out-of-focus disc: nearly even light with a slightly brighter rim and a soft edge.
    const light = ctx.createRadialGradient(x, y, 0, x, y, r);
    light.addColorStop(0, `rgba(255,255,255,${(alpha * 0.75).toFixed(3)})`);
    light.addColorStop(1 - BOKEH.softEdge, `rgba(255,255,255,${alpha.toFixed(3)})`);
    light.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = light;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, PI * 2);
    ctx.fill();
  }
  ctx.restore();
}
