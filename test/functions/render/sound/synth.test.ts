/** The built-in sounds are made by our own code: deterministic, never silent where they play, levelled when stored. */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILT_IN_TRACKS, LOUDNESS_TARGET, REACTION_EFFECTS } from '#domain/sound';
import { renderBuiltInSound } from '#functions/render/sound/built-in-sounds';
import { measureLoudness } from '#functions/render/sound/loudness';
import { renderBed } from '#functions/render/sound/synth/beds';
import { EFFECT_SECONDS, renderEffect } from '#functions/render/sound/synth/effects';
import { SAMPLE_RATE, type StereoBuffer } from '#functions/render/sound/synth/signal';
import { wavOf } from '#functions/render/sound/synth/wav';
const { abs, max } = Math;

/** The longest run of samples under −50 dBFS in either channel, in seconds. */
function longestQuietS(buffer: StereoBuffer): number {
  const floor = 10 ** (-50 / 20);
  let longest = 0;
  let run = 0;
  for (let i = 0; i < buffer.length; i++) {
    run = abs(buffer.left[i]!) < floor && abs(buffer.right[i]!) < floor ? run + 1 : 0;
    longest = max(longest, run);
  }
  return longest / SAMPLE_RATE;
}

const EFFECT_IDS = Object.values(REACTION_EFFECTS).map((effect) => effect.id);

describe('built-in sounds', () => {
  test('eight beds across eight moods, and one effect per emotion, each its own', () => {
    expect(BUILT_IN_TRACKS).toHaveLength(8);
    expect(new Set(BUILT_IN_TRACKS.map((t) => t.mood)).size).toBe(8);
    expect(new Set(EFFECT_IDS).size).toBe(Object.keys(REACTION_EFFECTS).length);
  });

  test.each(EFFECT_IDS)('effect %s: the same samples every time, and sound from start to end', (id) => {
    const a = renderEffect(id);
    expect(a.length).toBe(EFFECT_SECONDS * SAMPLE_RATE);
    expect(wavOf(a).equals(wavOf(renderEffect(id)))).toBe(true);
    expect(longestQuietS(a)).toBeLessThan(0.1);
  });

  test.each(BUILT_IN_TRACKS.map((t) => t.id))('bed %s: the same samples every time, and no gap in the music', (id) => {
    const a = renderBed(id, 6);
    expect(wavOf(a).equals(wavOf(renderBed(id, 6)))).toBe(true);
    expect(longestQuietS(a)).toBeLessThan(0.25);
  });

  test('stored levelled: the platforms’ loudness, the true peak under the ceiling', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-synth-'));
    try {
      for (const id of ['whoosh-pop', 'sunny-pop']) {
        const file = path.join(dir, `${id}.m4a`);
        await renderBuiltInSound(id, file);
        const measured = await measureLoudness(file);
        expect(abs(measured.integratedLufs! - LOUDNESS_TARGET.integratedLufs)).toBeLessThanOrEqual(0.5);
        expect(measured.truePeakDbtp).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeakDbtp);
      }
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
