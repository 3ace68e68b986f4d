import { topLevelBoxes } from '#test-support/mp4-boxes';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { fileArg, runFfmpeg, runFfprobe } from '#functions/render/ffmpeg/binaries';
import { renderCaptionPng, type CaptionBox, type CaptionSpec } from '#functions/render/caption/caption';
import { CANONICAL, CANONICAL_ENCODING_ID, canonicalEncodeArgs, canonicalLength, canonicalMismatches, canonicalSilence } from '#functions/render/encoding/canonical-encoding';
import { captionSegment, joinWithDemo, posterJpeg, posterTimeS } from '#functions/render/compose/compose';
import { probeMedia, type MediaProbe } from '#functions/render/ffmpeg/probe';
import { makeFixture, makeTempDir } from '#test-support/media-fixtures';
const { abs, max, min } = Math;

const W = CANONICAL.width;
const H = CANONICAL.height;
const FRAME_S = 1 / CANONICAL.fps;
const REACTION_S = 3;
const DEMO_S = 2;
/** Flat mid-tone backgrounds: neither white nor near-black, so any such pixel is the caption's. */
const REACTION_COLOUR = '0x3a7bd5';
const DEMO_COLOUR = '0xc0683a';
const CAPTION: CaptionSpec = { text: 'Wait for it 😱', position: 'top', size: 'large' };
const THIRDS = { top: [0, 640], middle: [640, 1280], bottom: [1280, 1920] } as const;

let dir: string;
let reaction: string;
let demo: string;
/** The captioned segment and the finished video, shared by the tests that only look at them. */
let segment: Promise<{ path: string; durationS: number }>;
let finished: Promise<{ path: string; durationS: number; sizeBytes: number }>;

/** A canonical clip of a flat colour with silent stereo audio, as the engine and normaliseVideo write them. */
async function canonicalClip(file: string, seconds: number, colour: string): Promise<void> {
  const frames = seconds * CANONICAL.fps;
  const length = canonicalLength(frames);
  await runFfmpeg([
    '-v', 'error',
    '-f', 'lavfi', '-i', `color=c=${colour}:s=${W}x${H}:r=${CANONICAL.fps}`,
    '-f', 'lavfi', '-i', canonicalSilence(),
    // RGB to BT.709 limited range, as the canonical tags say: colour checks below can trust the pixels.
    '-filter_complex', `[0:v]format=rgb24,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p,${length.video}[v];[1:a]${length.audio}[a]`,
    '-map', '[v]', '-map', '[a]',
    ...canonicalEncodeArgs({ speed: 'rendered' }),
    '-y', fileArg(file),
  ]);
}

beforeAll(async () => {
  dir = await makeTempDir('compose-test-');
  reaction = path.join(dir, 'reaction.mp4');
  demo = path.join(dir, 'demo.mp4');
  await Promise.all([canonicalClip(reaction, REACTION_S, REACTION_COLOUR), canonicalClip(demo, DEMO_S, DEMO_COLOUR)]);
  segment = (async () => {
    const out = path.join(dir, 'segment.mp4');
    const { durationS } = await captionSegment({ reactionPath: reaction, caption: CAPTION, outputPath: out });
    return { path: out, durationS };
  })();
  finished = (async () => {
    const seg = await segment;
    const out = path.join(dir, 'finished.mp4');
    const result = await joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: { path: demo, durationS: DEMO_S }, sound: null, outputPath: out });
    return { path: out, ...result };
  })();
  // Unobserved rejections would crash the run before the test that awaits them reports the cause.
  segment.catch(() => undefined);
  finished.catch(() => undefined);
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

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


/** One decoded frame as rgb24 (full size), the way a player would show it. */
async function frameAt(file: string, atS: number): Promise<Buffer> {
  const raw = path.join(dir, `frame-${path.basename(file)}-${atS}.rgb`);
  await runFfmpeg(['-v', 'error', '-ss', String(atS), '-i', fileArg(file), '-frames:v', '1', '-pix_fmt', 'rgb24', '-f', 'rawvideo', '-y', fileArg(raw)]);
  const bytes = await fsp.readFile(raw);
  expect(bytes.length).toBe(W * H * 3);
  return bytes;
}

/** Caption-like pixels in rows [from, to): white-ish fill, and near-black outline. */
function captionPixels(rgb: Buffer, rows: readonly [number, number], within?: CaptionBox): { white: number; dark: number } {
  let white = 0;
  let dark = 0;
  for (let y = rows[0]; y < rows[1]; y++) {
    for (let x = 0; x < W; x++) {
      if (within && (x < within.x || x >= within.x + within.width || y < within.y || y >= within.y + within.height)) continue;
      const i = (y * W + x) * 3;
      const lo = min(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
      const hi = max(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
      if (lo > 215) white++;
      else if (hi < 45) dark++;
    }
  }
  return { white, dark };
}

describe('captionSegment', () => {
  it('encodes the reaction once in the canonical encoding, frame-exact, audio as long as the picture', async () => {
    const seg = await segment;
    expect(seg.durationS).toBe(REACTION_S);
    const [video, audio] = await ffprobeStreams(seg.path);
    expect(video).toMatchObject({
      codec_name: 'h264',
      profile: 'High',
      pix_fmt: 'yuv420p',
      width: W,
      height: H,
      avg_frame_rate: '30/1',
      nb_read_frames: String(REACTION_S * CANONICAL.fps),
    });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const media = await probe(seg.path);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.audio?.durationS).toBeCloseTo(REACTION_S, 3);
  });

  it('is +faststart (moov before mdat), so it plays as the preview while downloading', async () => {
    const boxes = await topLevelBoxes((await segment).path);
    expect(boxes).toContain('mdat');
    expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('burns the caption into the chosen third: white text with a dark outline where the caption box is', async () => {
    const { box } = await renderCaptionPng(CAPTION);
    const frame = await frameAt((await segment).path, 1);
    const inBox = captionPixels(frame, THIRDS.top, box);
    expect(inBox.white).toBeGreaterThan(3000);
    expect(inBox.dark).toBeGreaterThan(1500);
    // Nothing caption-like anywhere else.
    const everywhere = captionPixels(frame, [0, H]);
    expect(everywhere.white - inBox.white).toBeLessThan(50);
    expect(everywhere.dark - inBox.dark).toBeLessThan(50);
  });

  it('keeps the caption on every frame, first to last', async () => {
    const { box } = await renderCaptionPng(CAPTION);
    const seg = await segment;
    for (const atS of [0, REACTION_S - FRAME_S]) {
      expect(captionPixels(await frameAt(seg.path, atS), THIRDS.top, box).white).toBeGreaterThan(3000);
    }
  });

  it('a bottom caption is drawn in the bottom third only', async () => {
    const out = path.join(dir, 'segment-bottom.mp4');
    await captionSegment({ reactionPath: reaction, caption: { text: 'Link in bio', position: 'bottom', size: 'medium' }, outputPath: out });
    const frame = await frameAt(out, 1);
    expect(captionPixels(frame, THIRDS.bottom).white).toBeGreaterThan(1500);
    expect(captionPixels(frame, [0, THIRDS.bottom[0]]).white).toBe(0);
  });

  it('without a caption still writes a canonical, faststart segment of the same length, with no text', async () => {
    const out = path.join(dir, 'segment-plain.mp4');
    const result = await captionSegment({ reactionPath: reaction, caption: null, outputPath: out });
    expect(result.durationS).toBe(REACTION_S);
    const media = await probe(out);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video?.frameCount).toBe(REACTION_S * CANONICAL.fps);
    const boxes = await topLevelBoxes(out);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect(captionPixels(await frameAt(out, 1), [0, H]).white).toBe(0);
  });

  it('brings a reaction clip that is not canonical (another engine, 720x1280, 44.1 kHz mono) to the canonical encoding', async () => {
    const out = path.join(dir, 'segment-foreign.mp4');
    const result = await captionSegment({ reactionPath: await makeFixture('vertical-mp4'), caption: { text: 'Hook', position: 'middle', size: 'small' }, outputPath: out });
    expect(result.durationS).toBe(2);
    const media = await probe(out);
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video?.frameCount).toBe(2 * CANONICAL.fps);
    expect(captionPixels(await frameAt(out, 1), THIRDS.middle).white).toBeGreaterThan(500);
  });

  it('leaves nothing but its output in the folder', async () => {
    await segment;
    const names = await fsp.readdir(dir);
    expect(names.filter((n) => n.startsWith('segment.mp4'))).toEqual(['segment.mp4']);
  });
});

describe('joinWithDemo', () => {
  it('is reaction + demo long (within one frame), canonical, and every frame decodes', async () => {
    const out = await finished;
    const media = await probe(out.path);
    expect(abs(out.durationS - (REACTION_S + DEMO_S))).toBeLessThanOrEqual(FRAME_S);
    expect(abs((media.durationS ?? 0) - (REACTION_S + DEMO_S))).toBeLessThanOrEqual(FRAME_S);
    expect(media.video?.frameCount).toBe((REACTION_S + DEMO_S) * CANONICAL.fps);
    expect(out.sizeBytes).toBe((await fsp.stat(out.path)).size);
    expect(canonicalMismatches(media)).toEqual([]);
    const [video, audio] = await ffprobeStreams(out.path);
    expect(video).toMatchObject({ codec_name: 'h264', profile: 'High', pix_fmt: 'yuv420p', width: W, height: H, avg_frame_rate: '30/1' });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    await expect(runFfmpeg(['-v', 'error', '-xerror', '-i', fileArg(out.path), '-f', 'null', '-'])).resolves.toMatchObject({ stderrTail: '' });
  });

  it('is +faststart (moov before mdat)', async () => {
    const boxes = await topLevelBoxes((await finished).path);
    expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('shows the caption over the reaction part and not over the demo part', async () => {
    const { path: file } = await finished;
    const reactionFrame = await frameAt(file, 1.5);
    expect(captionPixels(reactionFrame, THIRDS.top).white).toBeGreaterThan(3000);
    const demoFrame = await frameAt(file, REACTION_S + 1);
    expect(captionPixels(demoFrame, [0, H])).toEqual({ white: 0, dark: 0 });
    // And the demo part is the demo (its colour), not a frozen reaction frame.
    const i = (H / 2) * W * 3;
    expect(demoFrame[i]!).toBeGreaterThan(demoFrame[i + 2]! + 60);
  });

  it('with demoCaption (hook_duration full) the same caption layer stays over the demo part, at the same place', async () => {
    const seg = await segment;
    const out = path.join(dir, 'full.mp4');
    const result = await joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: { path: demo, durationS: DEMO_S }, sound: null, demoCaption: CAPTION, outputPath: out });
    const media = await probe(out);
    expect(media.video?.frameCount).toBe((REACTION_S + DEMO_S) * CANONICAL.fps);
    expect(abs(result.durationS - (REACTION_S + DEMO_S))).toBeLessThanOrEqual(FRAME_S);
    expect(canonicalMismatches(media)).toEqual([]);
    const { box } = await renderCaptionPng(CAPTION);
    const grown = { x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8 };
    for (const atS of [1.5, REACTION_S + 0.2, REACTION_S + DEMO_S - 0.1]) {
      const frame = await frameAt(out, atS);
      const inBox = captionPixels(frame, [0, H], grown);
      expect(inBox.white).toBeGreaterThan(3000);
      expect(inBox.dark).toBeGreaterThan(1000);
      // Nowhere else: every caption-like pixel of the frame is inside the layer's box.
      expect(captionPixels(frame, [0, H])).toEqual(inBox);
    }
    // Still the demo under it.
    const demoFrame = await frameAt(out, REACTION_S + 1);
    const i = (H / 2) * W * 3;
    expect(demoFrame[i]!).toBeGreaterThan(demoFrame[i + 2]! + 60);
    // The captioned demo was a working file: nothing of it is left beside the video.
    expect((await fsp.readdir(dir)).filter((f) => f.startsWith('full.mp4.'))).toEqual([]);
  });

  it('without a demo the video is the segment alone: same length, canonical, faststart', async () => {
    const seg = await segment;
    const out = path.join(dir, 'reaction-only.mp4');
    const result = await joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: null, sound: null, outputPath: out });
    expect(abs(result.durationS - REACTION_S)).toBeLessThanOrEqual(FRAME_S);
    expect(result.sizeBytes).toBe((await fsp.stat(out)).size);
    const media = await probe(out);
    expect(media.video?.frameCount).toBe(REACTION_S * CANONICAL.fps);
    expect(canonicalMismatches(media)).toEqual([]);
    const boxes = await topLevelBoxes(out);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('refuses a demo that is not in the canonical encoding, and writes nothing', async () => {
    const seg = await segment;
    const out = path.join(dir, 'never.mp4');
    const raw = await makeFixture('vertical-mp4');
    await expect(joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: { path: raw, durationS: 2 }, sound: null, outputPath: out })).rejects.toThrow(/canonical/);
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('never.mp4'))).toEqual([]);
  });

  it('trusts a demo stored with the current encoding id without probing it; any other id is probed first', async () => {
    const seg = await segment;
    // Canonical but for its 44.1 kHz sound: only a probe of the demo itself can tell.
    const odd = path.join(dir, 'odd-audio.mp4');
    await runFfmpeg(['-v', 'error', '-i', fileArg(seg.path), '-map', '0', '-c:v', 'copy', '-c:a', 'aac', '-ar', '44100', '-video_track_timescale', String(CANONICAL.video.timescale), '-y', fileArg(odd)]);
    const demo = { path: odd, durationS: seg.durationS };
    await expect(joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: { ...demo, encoding: 'an-older-id' }, sound: null, outputPath: path.join(dir, 'probed.mp4') })).rejects.toThrow(/audio sample rate is 44100/);
    const trusted = path.join(dir, 'trusted.mp4');
    await joinWithDemo({ segmentPath: seg.path, segmentDurationS: seg.durationS, demo: { ...demo, encoding: CANONICAL_ENCODING_ID }, sound: null, outputPath: trusted });
    expect((await fsp.stat(trusted)).size).toBeGreaterThan(0);
  });
});

describe('posterJpeg', () => {
  it('writes a 1080x1920 JPEG of a reaction frame, caption included', async () => {
    const out = await finished;
    const poster = path.join(dir, 'poster.jpg');
    const atS = posterTimeS(REACTION_S);
    expect(atS).toBeGreaterThan(0);
    expect(atS).toBeLessThan(REACTION_S);
    const result = await posterJpeg({ videoPath: out.path, atS, outputPath: poster });
    expect(result.sizeBytes).toBe((await fsp.stat(poster)).size);
    const meta = await sharp(poster).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: W, height: H });
    const rgb = (await sharp(poster).removeAlpha().raw().toBuffer({ resolveWithObject: true })).data;
    expect(captionPixels(rgb, THIRDS.top).white).toBeGreaterThan(3000);
    // The reaction's colour, converted with its own matrix (BT.709): reading it as JPEG's BT.601
    // instead would be ~7 levels off in red and blue for this blue.
    const { data } = await sharp(poster).extract({ left: 40, top: H / 2, width: 8, height: 8 }).raw().toBuffer({ resolveWithObject: true });
    const [r, g, b] = [data[0]!, data[1]!, data[2]!];
    expect(abs(r - 0x3a)).toBeLessThanOrEqual(3);
    expect(abs(g - 0x7b)).toBeLessThanOrEqual(3);
    expect(abs(b - 0xd5)).toBeLessThanOrEqual(3);
  });

  it('fails when there is no frame at that time, and writes nothing', async () => {
    const out = path.join(dir, 'late.jpg');
    await expect(posterJpeg({ videoPath: (await segment).path, atS: 60, outputPath: out })).rejects.toThrow();
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('late.jpg'))).toEqual([]);
  });
});
