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
  const raw = path.join(dir, `frame-${path.basename(file)}-${atS}.gray`);
  await runFfmpeg(['-v', 'error', '-ss', String(atS), '-i', fileArg(file), '-frames:v', '1', '-vf', 'scale=108:192', '-pix_fmt', 'gray', '-f', 'rawvideo', '-y', fileArg(raw)]);
  return fsp.readFile(raw);
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
