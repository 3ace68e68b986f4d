
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '#ports/engine';
import { rigFromPrompt } from '#render';
import { renderPromptReactionToFile } from '#adapters/engines/local/engine';
import { reactionFrames, reactionTiming } from '#functions/render/reaction/expression-curve';
import { encodeFrames } from '#functions/render/reaction/frame-encoder';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { renderClipToFile } from '#functions/render/reaction/reaction-clip';
import { fileArg, runFfmpeg, runFfprobe } from '#functions/render/ffmpeg/binaries';
import { canonicalEncodeArgs, canonicalMismatches } from '#functions/render/encoding/canonical-encoding';
import { probeMedia } from '#functions/render/ffmpeg/probe';
const { abs, round } = Math;

let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-reaction-clip-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** One frame of a video as RGB bytes at 270×480 (a quarter of the size: plenty to compare). */
async function frameAt(file: string, index: number): Promise<Buffer> {
  const out = path.join(dir, `frame-${path.basename(file)}-${index}.rgb`);
  await runFfmpeg(['-v', 'error', '-i', fileArg(file), '-vf', `select=eq(n\\,${index}),scale=270:480`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', fileArg(out)]);
  return fsp.readFile(out);
}

function meanAbsDiff(a: Buffer, b: Buffer, region?: { x: number; y: number; w: number; h: number }): number {
  const width = 270;
  const r = region ?? { x: 0, y: 0, w: 270, h: 480 };
  let sum = 0;
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      for (let c = 0; c < 3; c++) sum += abs(a[(y * width + x) * 3 + c]! - b[(y * width + x) * 3 + c]!);
    }
  }
  return sum / (r.w * r.h * 3);
}

/** The SPS and PPS of a file's H.264 stream, as hex: what a stream-copy join needs to be equal. */
async function parameterSets(file: string): Promise<string[]> {
  const out = path.join(dir, `${path.basename(file)}.h264`);
  await runFfmpeg(['-v', 'error', '-i', fileArg(file), '-map', '0:v', '-c', 'copy', '-bsf:v', 'h264_mp4toannexb', '-frames:v', '1', '-f', 'h264', '-y', fileArg(out)]);
  const b = await fsp.readFile(out);
  const starts: number[] = [];
  for (let i = 0; i + 3 < b.length; i++) if (b[i] === 0 && b[i + 1] === 0 && b[i + 2] === 1) starts.push(i + 3);
  return starts
    .map((s, k) => b.subarray(s, k + 1 < starts.length ? starts[k + 1]! - 3 : b.length))
    .filter((nal) => (nal[0]! & 31) === 7 || (nal[0]! & 31) === 8)
    .map((nal) => nal.toString('hex').replace(/(00)+$/, ''));
}

describe('a reaction clip rendered to a file', () => {
  const seed = 8;
  const rig = rigFromPrompt('bald man with glasses and a beard', seed);
  let clip: string;
  let emotion: string;

  beforeAll(async () => {
    clip = path.join(dir, 'shocked.mp4');
    ({ emotion } = await renderPromptReactionToFile(rig, 'OMG no way', clip, { seed }));
  }, 60_000);

  test('is the canonical encoding: 1080x1920, 30 fps, H.264 High yuv420p, AAC 48 kHz stereo, 4 s = 120 frames', async () => {
    expect(emotion).toBe('shocked');
    const probed = await probeMedia(clip);
    if (!probed.ok) throw new Error(probed.detail);
    const { media } = probed;
    expect(canonicalMismatches(media)).toEqual([]);
    expect(media.video).toMatchObject({ codec: 'h264', profile: 'High', pixFmt: 'yuv420p', width: 1080, height: 1920, frameCount: 120 });
    expect(media.video!.fps).toBeCloseTo(30, 3);
    expect(media.video!.durationS).toBeCloseTo(4, 2);
    expect(media.audio).toMatchObject({ codec: 'aac', sampleRate: 48000, channels: 2 });
    expect(media.audio!.durationS).toBeCloseTo(4, 1);
    // +faststart: the index (moov) comes before the media data (mdat).
    const head = (await fsp.readFile(clip)).subarray(0, 64 * 1024).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(-1);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat'));
  });

  test('the face changes: the peak frame differs from the calm first frame, most of all around the face', async () => {
    const { peakS } = reactionTiming({ emotion: 'shocked', seed });
    const calm = await frameAt(clip, 0);
    const peak = await frameAt(clip, round(peakS * 30) + 3);
    const again = await frameAt(clip, 1);
    const face = { x: 80, y: 120, w: 110, h: 120 };
    expect(meanAbsDiff(calm, peak, face)).toBeGreaterThan(15);
    expect(meanAbsDiff(calm, peak)).toBeGreaterThan(meanAbsDiff(calm, again));
  });

  test('joins the demo by stream copy: its SPS/PPS are those of the canonical demo encoding', async () => {
    const demo = path.join(dir, 'demo.mp4');
    await runFfmpeg([
      '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=1080x1920:r=30:d=1', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo',
      '-t', '1', '-map', '0:v', '-map', '1:a', ...canonicalEncodeArgs(), '-y', fileArg(demo),
    ]);
    expect(await parameterSets(clip)).toEqual(await parameterSets(demo));
  });
});

describe('stopping a render', () => {
  const seed = 3;
  const rig = rigFromPrompt('woman with a bun', seed);
  const frames = reactionFrames({ emotion: 'laughing', intensity: 1, durationS: 4, seed });

  test('an abort mid-way stops ffmpeg and rejects as cancelled, within a few frames', async () => {
    const scene = await prepareIllustratedScene(rig, frames, { seed });
    const controller = new AbortController();
    const out = path.join(dir, 'aborted.mp4');
    let drawn = 0;
    const counting = { ...scene, drawFrame: (...args: Parameters<typeof scene.drawFrame>) => {
      drawn++;
      if (drawn === 20) controller.abort();
      scene.drawFrame(...args);
    } };
    const error = await renderClipToFile(counting, frames, out, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('cancelled');
    expect(drawn).toBeLessThan(25);
  });

  test('an already aborted signal renders nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    let called = 0;
    const error = await encodeFrames({ outputPath: path.join(dir, 'never.mp4'), frameCount: 10, frame: () => (called++, new Uint8Array(0)), signal: controller.signal }).catch((e: unknown) => e);
    expect((error as EngineError).code).toBe('cancelled');
    expect(called).toBe(0);
  });

  test('a frame of the wrong size fails with an engine error, not a hang', async () => {
    const error = await encodeFrames({ outputPath: path.join(dir, 'bad.mp4'), frameCount: 3, frame: () => new Uint8Array(16) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('engine_failure');
  });
});

describe('a caption burnt in while encoding', () => {
  const near = (got: number[], want: number[]) => got.every((v, i) => abs(v - want[i]!) <= 10);

  /** A caption picture: a red block at (200, 300), 400×200, on a transparent 1080×1920 frame. */
  const redCaption = async (name: string) => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const caption = createCanvas(1080, 1920);
    const ctx = caption.getContext('2d');
    ctx.fillStyle = '#e02020';
    ctx.fillRect(200, 300, 400, 200);
    const png = path.join(dir, name);
    await fsp.writeFile(png, await caption.encode('png'));
    return png;
  };

  /** Solid frames smaller than the output (a photo's render size), scaled up by the encoder. */
  const solid = (rgb: [number, number, number]) => {
    const frame = new Uint8Array(720 * 1280 * 4);
    for (let i = 0; i < frame.length; i += 4) frame.set([...rgb, 255], i);
    return frame;
  };

  test('lands where its box says, over frames drawn smaller, in the colours it was drawn in', async () => {
    const png = await redCaption('caption.png');
    const out = path.join(dir, 'captioned.mp4');
    await encodeFrames({
      outputPath: out,
      frameCount: 10,
      width: 720,
      height: 1280,
      frame: () => solid([32, 64, 160]),
      overlay: { path: png, box: { x: 200, y: 300, width: 400, height: 200 } },
    });
    const frame = await frameAt(out, 5);
    const pixel = (x: number, y: number) => [...frame.subarray((y * 270 + x) * 3, (y * 270 + x) * 3 + 3)];
    // Inside the box (quarter-size coordinates), the caption's red; outside it, the frame's blue.
    expect(near(pixel(100, 100), [224, 32, 32])).toBe(true);
    expect(near(pixel(20, 20), [32, 64, 160])).toBe(true);
    expect(near(pixel(100, 200), [32, 64, 160])).toBe(true);
  });

  test('the poster asked for is the chosen frame, caption on, as a 1080x1920 JPEG', async () => {
    const png = await redCaption('caption-poster.png');
    const poster = path.join(dir, 'poster.jpg');
    const colours: [number, number, number][] = [[32, 64, 160], [40, 160, 60]];
    await encodeFrames({
      outputPath: path.join(dir, 'with-poster.mp4'),
      frameCount: 10,
      width: 720,
      height: 1280,
      frame: (index) => solid(colours[index === 6 ? 1 : 0]!),
      overlay: { path: png, box: { x: 200, y: 300, width: 400, height: 200 } },
      poster: { path: poster, frame: 6 },
    });
    const { stdout } = await runFfprobe(['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', fileArg(poster)]);
    expect(stdout.trim()).toBe('mjpeg,1080,1920');
    const picture = await frameAt(poster, 0);
    const pixel = (x: number, y: number) => [...picture.subarray((y * 270 + x) * 3, (y * 270 + x) * 3 + 3)];
    expect(near(pixel(20, 20), [40, 160, 60])).toBe(true);
    expect(near(pixel(100, 100), [224, 32, 32])).toBe(true);
  });
});
