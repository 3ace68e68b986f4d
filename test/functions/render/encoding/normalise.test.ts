import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AppError } from '#domain/errors';
import { fileArg, runFfmpeg, runFfprobe } from '#functions/render/ffmpeg/binaries';
import {
  CANONICAL,
  CANONICAL_ENCODING_ID,
  canonicalConcatList,
  canonicalJoinArgs,
  canonicalMismatches,
} from '#functions/render/encoding/canonical-encoding';
import { normaliseVideo } from '#functions/render/encoding/normalise';
import { probeMedia, type MediaProbe } from '#functions/render/ffmpeg/probe';
import { makeFixture, makeTempDir, type FixtureKind } from '#test-support/media-fixtures';
const { abs, min } = Math;

let dir: string;
const normalised = new Map<FixtureKind, Promise<string>>();

beforeAll(async () => {
  dir = await makeTempDir('normalise-test-');
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Each source is normalised once per file; several tests look at the same output. */
function normalisedFrom(kind: FixtureKind): Promise<string> {
  let pending = normalised.get(kind);
  if (!pending) {
    pending = (async () => {
      const out = path.join(dir, `${kind}.mp4`);
      await normaliseVideo(await makeFixture(kind), out);
      return out;
    })();
    normalised.set(kind, pending);
  }
  return pending;
}

async function probe(file: string): Promise<MediaProbe> {
  const result = await probeMedia(file);
  if (!result.ok) throw new Error(result.detail);
  return result.media;
}

/** Stream facts straight from ffprobe, so the test does not trust the module under test. */
async function ffprobeStreams(file: string): Promise<Array<Record<string, unknown>>> {
  const { stdout } = await runFfprobe(['-v', 'error', '-print_format', 'json', '-show_streams', '-count_frames', fileArg(file)]);
  return (JSON.parse(stdout) as { streams: Array<Record<string, unknown>> }).streams;
}

/** One frame, shrunk to 108x192 grey, as luma rows. */
async function greyFrame(file: string, atS: number): Promise<Buffer> {
  return greyPart(file, atS, 'scale=108:192');
}

/** One frame through `filter` (a crop, then a scale to a small size), grey, as luma rows. */
async function greyPart(file: string, atS: number, filter: string): Promise<Buffer> {
  return framePart(file, atS, filter, 'gray');
}

/**
 * The same as RGB, to compare pictures across encodings: the canonical one is BT.709, a test
 * source's BT.601, so the same colour has another luma in each (red: 0.21 against 0.30).
 */
async function rgbPart(file: string, atS: number, filter: string): Promise<Buffer> {
  return framePart(file, atS, `${filter},format=rgb24`, 'rgb24');
}

async function framePart(file: string, atS: number, filter: string, pixFmt: 'gray' | 'rgb24'): Promise<Buffer> {
  const raw = path.join(dir, `frame-${randomUUID()}.raw`);
  await runFfmpeg(['-v', 'error', '-ss', String(atS), '-i', fileArg(file), '-frames:v', '1', '-vf', filter, '-pix_fmt', pixFmt, '-f', 'rawvideo', '-y', fileArg(raw)]);
  return fsp.readFile(raw);
}

/** Mean absolute difference of two pictures of one size and format, 0-255. */
function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += abs(a[i]! - b[i]!);
  return sum / a.length;
}

const mean = (picture: Buffer) => picture.reduce((sum, value) => sum + value, 0) / picture.length;

/** How much neighbouring pixels of a row differ on average: high for sharp detail, low for a blur. */
function sharpness(picture: Buffer, width: number): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < picture.length; i++) {
    if (i % width === width - 1) continue;
    sum += abs(picture[i]! - picture[i + 1]!);
    count++;
  }
  return sum / count;
}

/** Loudest sample of the audio track in dBFS (-91 is 16-bit digital silence). */
async function maxVolumeDb(file: string): Promise<number> {
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-i', fileArg(file), '-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-']);
  const reading = /max_volume: (-inf|-?[\d.]+) dB/.exec(stderrTail)?.[1];
  if (reading === undefined) throw new Error(`volumedetect printed no max_volume: ${stderrTail}`);
  return reading === '-inf' ? -Infinity : Number(reading);
}

const rowMean = (frame: Buffer, row: number) => {
  let sum = 0;
  for (let x = 0; x < 108; x++) sum += frame[row * 108 + x] ?? 0;
  return sum / 108;
};

describe('normaliseVideo', () => {
  it('normalising gives exactly the canonical encoding (ffprobe: 1080x1920, h264 high, yuv420p, 30 fps, aac 48000 stereo)', async () => {
    const out = await normalisedFrom('vertical-mp4');
    const [video, audio] = await ffprobeStreams(out);
    expect(video).toMatchObject({
      codec_type: 'video',
      codec_name: 'h264',
      profile: 'High',
      pix_fmt: 'yuv420p',
      width: 1080,
      height: 1920,
      r_frame_rate: '30/1',
      avg_frame_rate: '30/1',
      time_base: `1/${CANONICAL.video.timescale}`,
      nb_read_frames: '60',
      color_space: 'bt709',
    });
    expect(audio).toMatchObject({ codec_type: 'audio', codec_name: 'aac', sample_rate: '48000', channels: 2 });
    expect(canonicalMismatches(await probe(out))).toEqual([]);
  });

  it('returns what it wrote, and audio and video end together', async () => {
    const out = path.join(dir, 'returned.mp4');
    const result = await normaliseVideo(await makeFixture('vertical-mp4'), out);
    expect(result).toEqual({ encoding: CANONICAL_ENCODING_ID, durationS: 2, width: 1080, height: 1920, sizeBytes: (await fsp.stat(out)).size, loudnessLufs: -14 });
    const media = await probe(out);
    expect(media.video?.durationS).toBe(2);
    expect(media.audio?.durationS).toBe(2);
  });

  it('writes the index first (+faststart), so playback starts before the download ends', async () => {
    const bytes = await fsp.readFile(await normalisedFrom('vertical-mp4'));
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
  });

  it('adds silence when the source has none: a stereo AAC track as long as the video', async () => {
    const out = await normalisedFrom('vertical-mp4-silent');
    const media = await probe(out);
    expect(media.audio).toMatchObject({ codec: 'aac', sampleRate: 48000, channels: 2 });
    expect(media.audio?.durationS).toBe(media.video?.durationS);
    expect(await maxVolumeDb(out)).toBeLessThanOrEqual(-90);
  });

  it('keeps the source sound, resampled to 48 kHz stereo', async () => {
    const out = await normalisedFrom('vertical-mp4');
    expect((await probe(out)).audio).toMatchObject({ sampleRate: 48000, channels: 2 });
    expect(await maxVolumeDb(out)).toBeGreaterThan(-40);
  });

  it('applies rotation: a landscape-pixel clip rotated to portrait fills the frame with no bars', async () => {
    const out = await normalisedFrom('rotated-mp4');
    expect((await probe(out)).video).toMatchObject({ displayWidth: 1080, displayHeight: 1920, rotation: 0 });
    const frame = await greyFrame(out, 1);
    expect(rowMean(frame, 2)).toBeGreaterThan(20);
    expect(rowMean(frame, 189)).toBeGreaterThan(20);
  });

  it('fits a wider picture inside 1080x1920 and centres it on black', async () => {
    const out = await normalisedFrom('square-mp4');
    const frame = await greyFrame(out, 1);
    // 720x720 → 1080x1080 in the middle: 420 px of black above and below (42 rows of 192 here).
    for (const row of [0, 20, 40, 151, 171, 191]) expect(rowMean(frame, row)).toBeLessThan(20);
    for (const row of [50, 96, 140]) expect(rowMean(frame, row)).toBeGreaterThan(20);
  });

  it('brings a 30 fps AVI with MP3 audio to the same encoding, frame-exact in length', async () => {
    const out = await normalisedFrom('vertical-avi');
    const media = await probe(out);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video?.frameCount).toBe(61);
    expect(media.audio?.durationS).toBeCloseTo(61 / 30, 3);
  });

  it('keeps none of the source metadata (titles, GPS location)', async () => {
    const out = await normalisedFrom('vertical-mov');
    const { stdout } = await runFfprobe(['-v', 'error', '-print_format', 'json', '-show_format', fileArg(out)]);
    const tags = (JSON.parse(stdout) as { format: { tags?: Record<string, string> } }).format.tags ?? {};
    expect(tags).not.toHaveProperty('title');
    expect(tags).not.toHaveProperty('location');
    expect(JSON.stringify(tags)).not.toMatch(/48\.8584/);
  });

  it('refuses an unreadable input with 422 invalid_media and leaves no output behind', async () => {
    const out = path.join(dir, 'never.mp4');
    const error = await normaliseVideo(await makeFixture('truncated-mp4'), out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect((error as Error).message).not.toContain(dir);
    expect((await fsp.readdir(dir)).filter((name) => name.startsWith('never.mp4'))).toEqual([]);
  });
});

describe('WebM demos', () => {
  it('a WebM of VP9 and Opus normalises to the canonical encoding, its sound kept', async () => {
    const out = await normalisedFrom('vp9-opus-webm');
    const media = await probe(out);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video?.frameCount).toBe(60);
    expect(media.audio?.durationS).toBe(2);
    expect(await maxVolumeDb(out)).toBeGreaterThan(-40);
  });

  it('a trim keeps exactly the part asked for, seeking even in a live-recorded WebM (no duration, no index)', async () => {
    const out = path.join(dir, 'trimmed.mp4');
    const result = await normaliseVideo(await makeFixture('live-webm'), out, { startS: 0.5, endS: 1.7 });
    expect(result.durationS).toBe(1.2);
    const media = await probe(out);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video?.frameCount).toBe(36);
    expect(media.audio?.durationS).toBe(1.2);
    // The first frame kept is the source's at 0.5 s (testsrc2 draws a moving picture and a frame counter).
    // testsrc2 prints the time and the frame number top left: the kept part's first frame shows 0.500 and 15.
    const source = await makeFixture('live-webm');
    const clock = 'crop=iw*0.13:ih*0.05:iw*0.155:0,scale=48:32';
    const first = await rgbPart(out, 0, clock);
    const nearby = [14, 15, 16, 17].map((frame) => frame / 30);
    const distances = await Promise.all(nearby.map(async (atS) => meanDifference(first, await rgbPart(source, atS, clock))));
    expect(nearby[distances.indexOf(min(...distances))]).toBe(0.5);
  });
});

describe('reframing a landscape demo (1280x720) to the portrait frame', () => {
  const reframed = new Map<string, Promise<string>>();
  const reframedAs = (framing: 'blur' | 'crop') => {
    let pending = reframed.get(framing);
    if (!pending) {
      pending = (async () => {
        const out = path.join(dir, `horizontal-${framing}.mp4`);
        await normaliseVideo(await makeFixture('horizontal-mp4'), out, { framing });
        return out;
      })();
      reframed.set(framing, pending);
    }
    return pending;
  };
  /** 1280x720 fitted to 1080 wide is 1080x606, from row 657 of 1920. */
  const BAND = { y: 657, height: 606 };

  it.each(['blur', 'crop'] as const)('%s gives the canonical 1080x1920 encoding', async (framing) => {
    const media = await probe(await reframedAs(framing));
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video).toMatchObject({ displayWidth: 1080, displayHeight: 1920, frameCount: 60 });
  });

  it('blur keeps the whole picture, as a band across the middle', async () => {
    const out = await reframedAs('blur');
    const band = await rgbPart(out, 1, `crop=1080:${BAND.height}:0:${BAND.y},scale=108:61`);
    const whole = await rgbPart(await makeFixture('horizontal-mp4'), 1, 'scale=108:61');
    expect(meanDifference(band, whole)).toBeLessThan(4);
  });

  it('blur fills above and below the band with a blurred, darkened copy, never black', async () => {
    const out = await reframedAs('blur');
    const source = await greyPart(await makeFixture('horizontal-mp4'), 1, 'scale=108:61');
    for (const [y, height] of [[0, 600], [1320, 600]] as const) {
      const backdrop = await greyPart(out, 1, `crop=1080:${height}:0:${y},scale=108:60`);
      expect(mean(backdrop)).toBeGreaterThan(20);
      expect(mean(backdrop)).toBeLessThan(0.8 * mean(source));
      expect(sharpness(backdrop, 108)).toBeLessThan(sharpness(source, 108) / 3);
    }
  });

  it('crop fills the whole frame with the centre of the picture', async () => {
    const out = await reframedAs('crop');
    const frame = await greyFrame(out, 1);
    for (const row of [0, 2, 96, 189, 191]) expect(rowMean(frame, row)).toBeGreaterThan(20);
    // The centre 404x720 of the source (438 px in from each side), shrunk as the frame is.
    const centre = await rgbPart(await makeFixture('horizontal-mp4'), 1, 'crop=404:720:438:0,scale=108:192');
    expect(meanDifference(await rgbPart(out, 1, 'scale=108:192'), centre)).toBeLessThan(4);
  });
});

describe('joining canonical files', () => {
  it('two normalised files join by stream copy', async () => {
    const first = await normalisedFrom('vertical-mp4');
    const second = await normalisedFrom('vertical-avi');
    const [a, b] = await Promise.all([probe(first), probe(second)]);
    const list = path.join(dir, "join list (it's).txt");
    await fsp.writeFile(
      list,
      canonicalConcatList([
        { path: first, durationS: a.durationS ?? 0 },
        { path: second, durationS: b.durationS ?? 0 },
      ]),
    );
    const joined = path.join(dir, 'joined.mp4');
    await runFfmpeg(canonicalJoinArgs(list, joined));

    const media = await probe(joined);
    const expected = (a.durationS ?? 0) + (b.durationS ?? 0);
    expect(media.durationS).toBeGreaterThan(expected - 0.05);
    expect(media.durationS).toBeLessThan(expected + 0.05);
    expect(media.video?.frameCount).toBe(60 + 61);
    expect(canonicalMismatches(media)).toEqual([]);
    // Every frame of the joined file decodes: the second file's data reads under the first's headers.
    await expect(runFfmpeg(['-v', 'error', '-xerror', '-i', fileArg(joined), '-f', 'null', '-'])).resolves.toMatchObject({ stderrTail: '' });
  });
});
