import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AppError } from '#domain/errors';
import { fileArg, runFfmpeg } from '#functions/render/ffmpeg/binaries';
import { inspectDemoVideo } from '#functions/render/uploads/demo-video';
import { inspectReferenceVideo } from '#functions/render/uploads/reference-video';
import { makeTempDir } from '#test-support/media-fixtures';

let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('reference-video-test-');
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const PICTURE = ['-f', 'lavfi', '-i', 'testsrc2=s=360x640:r=30:d=1'];
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** A one-second clip made here with ffmpeg; a failure to make it fails the test. */
async function clip(name: string, encodeAndMux: string[]): Promise<string> {
  const file = path.join(dir, name);
  await runFfmpeg(['-v', 'error', ...PICTURE, ...encodeAndMux, '-y', fileArg(file)], { timeoutMs: 60_000 });
  return file;
}

async function refusal(inspect: Promise<unknown>): Promise<AppError> {
  const error = await inspect.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** A 24-byte `ftyp` box of brand isom: what makes a file's first bytes say MP4. */
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1')]);

describe('accepted reference videos: MP4, MOV, WebM and AVI by their bytes', () => {
  it.each([
    ['mp4', [...H264, '-f', 'mp4']],
    ['mov', [...H264, '-f', 'mov']],
    ['webm', ['-c:v', 'libvpx', '-b:v', '200k', '-f', 'webm']],
    ['avi', [...H264, '-f', 'avi']],
  ])('%s', async (container, args) => {
    const info = await inspectReferenceVideo(await clip(`ok.${container}`, args));
    expect(info.container).toBe(container);
    expect(info.durationS).toBeCloseTo(1, 1);
  });
});

describe('refused reference videos: containers the README does not promise (415)', () => {
  it.each([
    ['an FLV video', 'clip.flv', [...H264, '-f', 'flv']],
    ['an MPEG-TS stream', 'clip.ts', [...H264, '-f', 'mpegts']],
    ['an Ogg file', 'clip.ogv', ['-c:v', 'libtheora', '-f', 'ogg']],
    ['a 3GP video', 'clip.3gp', [...H264, '-f', '3gp']],
    ['an ISO media file of brand "f4v"', 'clip.f4v', [...H264, '-f', 'f4v']],
    ['a Matroska (MKV) video', 'clip.mkv', [...H264, '-f', 'matroska']],
  ])('%s is refused with 415 before ffprobe reads it', async (said, name, args) => {
    const error = await refusal(inspectReferenceVideo(await clip(name, args)));
    expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(error.message).toBe(`reference_video must be a video (MP4, MOV, WEBM or AVI); got ${said}`);
  });
});

describe('a file whose first bytes say MP4 but whose content is another container', () => {
  it.each([
    ['MPEG-TS', [...H264, '-f', 'mpegts']],
    ['AVI', [...H264, '-f', 'avi']],
  ])('%s behind an MP4 ftyp box is refused: only the MP4 demuxer ever reads it', async (_label, args) => {
    const inner = await fsp.readFile(await clip(`inner-${_label}`, args));
    const disguised = path.join(dir, `disguised-${_label}.mp4`);
    await fsp.writeFile(disguised, Buffer.concat([MP4_HEAD, inner]));

    const asReference = await refusal(inspectReferenceVideo(disguised));
    expect(asReference).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(asReference.message).toMatch(/^reference_video cannot be read/);

    const asDemo = await refusal(inspectDemoVideo(disguised));
    expect(asDemo).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(asDemo.message).toMatch(/^demo_video looks like MP4 but cannot be read/);
  });
});
