/**
 * The finished video's sound, end to end through the render wing: a demo levelled when it is
 * normalised, a reaction segment, and the join mixing the job's sound. Every video measures −14 LUFS
 * ±1 and ≤ −1 dBTP on its own AAC whatever the demo's level, and auto and music never fall silent.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOUDNESS_TARGET } from '#domain/sound';
import { captionSegment, joinWithDemo, measureLoudness, normaliseVideo, type JoinSound } from '#render';
import { makeFixture } from '#test-support/media-fixtures';
import { audioStreamOf, builtInSoundFile, demoAtLoudness, loudnessBetween, silences } from '#test-support/sound-fixtures';
const { abs } = Math;

jest.setTimeout(240_000);

let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-sound-'));
});
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

const within = (value: number | null, target: number, tolerance: number) => value !== null && abs(value - target) <= tolerance;

let segment: Promise<{ path: string; durationS: number }> | undefined;
/** A 2 s reaction segment with no sound of its own (the offline engine's clips are silent without a voice line). */
function reactionSegment() {
  segment ??= (async () => {
    const out = path.join(dir, 'segment.mp4');
    const { durationS } = await captionSegment({ reactionPath: await makeFixture('vertical-mp4-silent'), caption: null, outputPath: out });
    return { path: out, durationS };
  })();
  return segment;
}

const demos = new Map<string, Promise<{ path: string; durationS: number; loudnessLufs: number | null; encoding: string }>>();
/** A demo at `lufs`, normalised once for the suite (every test only reads it). */
function normalisedDemo(kind: 'music' | 'speech', lufs: number) {
  const key = `${kind}${lufs}`;
  if (!demos.has(key)) {
    demos.set(key, (async () => {
      const out = path.join(dir, `demo-${key}.mp4`);
      const result = await normaliseVideo(await demoAtLoudness(kind, lufs), out);
      return { path: out, durationS: result.durationS, loudnessLufs: result.loudnessLufs, encoding: result.encoding };
    })());
  }
  return demos.get(key)!;
}

async function soundOf(kind: 'auto' | 'music' | 'none'): Promise<JoinSound> {
  if (kind === 'none') return { voicePath: null, effectPath: null, bed: null };
  if (kind === 'music') return { voicePath: null, effectPath: null, bed: { path: await builtInSoundFile('sunny-pop'), role: 'music' } };
  return { voicePath: null, effectPath: await builtInSoundFile('riser-hit'), bed: { path: await builtInSoundFile('cinematic-rise'), role: 'fill' } };
}

async function finished(name: string, demo: { path: string; durationS: number; loudnessLufs?: number | null; encoding?: string } | null, sound: JoinSound) {
  const seg = await reactionSegment();
  const out = path.join(dir, `${name}.mp4`);
  const result = await joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo, sound, outputPath: out });
  return { path: out, reactionS: seg.durationS, ...result };
}

describe('a demo is levelled once, when it is normalised', () => {
  test.each([
    ['music', -30],
    ['speech', -8],
  ] as const)('a %s demo at %i LUFS comes out at the target, its true peak under the ceiling', async (kind, lufs) => {
    const demo = await normalisedDemo(kind, lufs);
    const measured = await measureLoudness(demo.path);
    expect(demo.loudnessLufs).toBe(LOUDNESS_TARGET.integratedLufs);
    expect(within(measured.integratedLufs, LOUDNESS_TARGET.integratedLufs, 1)).toBe(true);
    expect(measured.truePeakDbtp).toBeLessThanOrEqual(-0.5);
  });

  test('a demo without sound stays silent and says so', async () => {
    const out = path.join(dir, 'silent-demo.mp4');
    const result = await normaliseVideo(await makeFixture('vertical-mp4-silent'), out);
    expect(result.loudnessLufs).toBeNull();
  });
});

describe('the finished video is levelled whatever the demo', () => {
  test.each(['auto', 'music', 'none'] as const)('sound=%s: −14 LUFS ±1 and ≤ −1 dBTP from a −30 and a −8 LUFS demo, no more than 2 LU apart', async (kind) => {
    const quiet = await finished(`${kind}-quiet`, await normalisedDemo('music', -30), await soundOf(kind));
    const loud = await finished(`${kind}-loud`, await normalisedDemo('speech', -8), await soundOf(kind));
    for (const video of [quiet, loud]) {
      const measured = await measureLoudness(video.path);
      expect(within(measured.integratedLufs, LOUDNESS_TARGET.integratedLufs, LOUDNESS_TARGET.toleranceLu)).toBe(true);
      expect(measured.truePeakDbtp).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeakDbtp);
      expect(abs(video.loudness.integratedLufs! - measured.integratedLufs!)).toBeLessThanOrEqual(0.2);
      // The audio is AAC and exactly as long as the pictures.
      const audio = await audioStreamOf(video.path);
      expect(audio.codec).toBe('aac');
      expect(abs(audio.durationS - video.durationS)).toBeLessThan(0.05);
    }
    const [a, b] = await Promise.all([measureLoudness(quiet.path), measureLoudness(loud.path)]);
    expect(abs(a.integratedLufs! - b.integratedLufs!)).toBeLessThanOrEqual(2);
  });
});

describe('the hook is never silent', () => {
  test.each(['auto', 'music'] as const)('sound=%s: nothing under −50 dB for 0.5 s, even over a demo with no sound', async (kind) => {
    const silentDemo = path.join(dir, `silent-demo-${kind}.mp4`);
    const normalised = await normaliseVideo(await makeFixture('vertical-mp4-silent'), silentDemo);
    const withSound = await finished(`${kind}-demo`, await normalisedDemo('speech', -8), await soundOf(kind));
    const withSilentDemo = await finished(`${kind}-silent-demo`, { path: silentDemo, durationS: normalised.durationS, loudnessLufs: null }, await soundOf(kind));
    expect(await silences(withSound.path)).toEqual([]);
    expect(await silences(withSilentDemo.path)).toEqual([]);
  });

  test('sound=none keeps the reaction silent and the demo as it is', async () => {
    const video = await finished('none-parts', await normalisedDemo('speech', -8), await soundOf('none'));
    const gaps = await silences(video.path);
    expect(gaps[0]).toMatchObject({ startS: 0 });
    expect(gaps[0]!.endS).toBeGreaterThan(video.reactionS - 0.1);
    expect(gaps[0]!.endS).toBeLessThan(video.reactionS + 0.3);
  });
});

describe('music', () => {
  test('the bed plays under the reaction and ducks under the demo’s own sound', async () => {
    const demo = await normalisedDemo('speech', -8);
    const music = await finished('music-ducking', demo, await soundOf('music'));
    const none = await finished('none-ducking', demo, await soundOf('none'));
    // Under the reaction the bed is the sound; under the demo it sits low enough to leave the voice on top.
    expect(await loudnessBetween(music.path, 0, music.reactionS)).toBeGreaterThan(-20);
    const demoWithBed = await loudnessBetween(music.path, music.reactionS + 0.5, music.durationS);
    const demoAlone = await loudnessBetween(none.path, none.reactionS + 0.5, none.durationS);
    expect(abs(demoWithBed! - demoAlone!)).toBeLessThan(2);
  });
});

describe('a demo normalised before levelling existed', () => {
  test('is measured and levelled in the mix, its stored file untouched', async () => {
    // As a demo normalised by an older release: canonical, at its own level, with no loudness recorded.
    const levelled = await normalisedDemo('music', -30);
    const old = path.join(dir, 'demo-normalised-by-an-older-release.mp4');
    const { runFfmpeg, fileArg } = await import('#render');
    await runFfmpeg(['-v', 'error', '-i', fileArg(levelled.path), '-c:v', 'copy', '-af', 'volume=-16dB', '-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2', '-y', fileArg(old)]);
    const before = await fsp.readFile(old);
    const video = await finished('old-demo', { path: old, durationS: levelled.durationS }, await soundOf('none'));
    expect((await measureLoudness(video.path)).integratedLufs).toBeCloseTo(LOUDNESS_TARGET.integratedLufs, 0);
    expect((await fsp.readFile(old)).equals(before)).toBe(true);
  });
});
