import { AppError } from '#domain/errors';
import { inspectDemoVideo } from '#functions/render/uploads/demo-video';
import { makeFixture, type FixtureKind } from '#test-support/media-fixtures';

async function refusal(kind: FixtureKind): Promise<AppError> {
  const error = await inspectDemoVideo(await makeFixture(kind)).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError for ${kind}, got ${String(error)}`);
  return error;
}

describe('accepted demo videos', () => {
  it('a vertical MP4 is accepted with its display size', async () => {
    await expect(inspectDemoVideo(await makeFixture('vertical-mp4'))).resolves.toEqual({
      container: 'mp4',
      width: 720,
      height: 1280,
      durationS: 2,
      hasAudio: true,
    });
  });

  it('a vertical MP4 without sound is accepted and says so', async () => {
    await expect(inspectDemoVideo(await makeFixture('vertical-mp4-silent'))).resolves.toMatchObject({ hasAudio: false });
  });

  it('rotation metadata that makes a landscape-pixel clip portrait counts as vertical', async () => {
    await expect(inspectDemoVideo(await makeFixture('rotated-mp4'))).resolves.toMatchObject({
      container: 'mp4',
      width: 720,
      height: 1280,
    });
  });

  it('a vertical MOV is accepted as mov', async () => {
    await expect(inspectDemoVideo(await makeFixture('vertical-mov'))).resolves.toMatchObject({ container: 'mov', width: 720, height: 1280 });
  });

  it('an old QuickTime file without an ftyp box is accepted as mov', async () => {
    await expect(inspectDemoVideo(await makeFixture('legacy-mov'))).resolves.toMatchObject({ container: 'mov' });
  });

  it('a vertical AVI is accepted as avi', async () => {
    const info = await inspectDemoVideo(await makeFixture('vertical-avi'));
    expect(info).toMatchObject({ container: 'avi', width: 360, height: 640, hasAudio: true });
    expect(info.durationS).toBeCloseTo(2, 1);
  });

  it('a WebM of VP9 and Opus is accepted as webm', async () => {
    const info = await inspectDemoVideo(await makeFixture('vp9-opus-webm'));
    expect(info).toMatchObject({ container: 'webm', width: 360, height: 640, hasAudio: true });
    expect(info.durationS).toBeCloseTo(2, 1);
  });

  it('a WebM of AV1 and Vorbis is accepted', async () => {
    await expect(inspectDemoVideo(await makeFixture('av1-vorbis-webm'))).resolves.toMatchObject({ container: 'webm', width: 360, height: 640, hasAudio: true });
  });

  it('a WebM of VP8 without sound is accepted', async () => {
    await expect(inspectDemoVideo(await makeFixture('vertical-webm'))).resolves.toMatchObject({ container: 'webm', hasAudio: false });
  });

  it('a WebM recorded as a live stream (no duration in its header, no index) is measured packet by packet', async () => {
    const info = await inspectDemoVideo(await makeFixture('live-webm'));
    expect(info).toMatchObject({ container: 'webm', width: 360, height: 640 });
    expect(info.durationS).toBeCloseTo(2, 1);
  });

  it('measures, and leaves to the rules of intake, what a request may change: the shape and the length', async () => {
    await expect(inspectDemoVideo(await makeFixture('horizontal-mp4'))).resolves.toMatchObject({ width: 1280, height: 720, durationS: 2 });
    await expect(inspectDemoVideo(await makeFixture('square-mp4'))).resolves.toMatchObject({ width: 720, height: 720 });
    await expect(inspectDemoVideo(await makeFixture('landscape-webm'))).resolves.toMatchObject({ container: 'webm', width: 1280, height: 720 });
    const long = await inspectDemoVideo(await makeFixture('long-mp4'));
    expect(long.durationS).toBeCloseTo(181, 0);
  });
});

describe('refused: not an MP4, MOV, AVI or WebM (415 unsupported_media_type)', () => {
  it.each<[FixtureKind, string]>([
    ['png-as-mp4', 'got a PNG image'],
    ['random-bytes', 'got a file of unrecognised type'],
    ['mp3', 'got MP3 audio'],
    ['vertical-mkv', 'got a Matroska (MKV) video'],
    ['vertical-3gp', 'got a 3GP video'],
  ])('%s is refused with 415 (%s), whatever its name says', async (kind, said) => {
    const error = await refusal(kind);
    expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(error.message).toBe(`demo_video must be an MP4, MOV, AVI or WebM video; ${said}`);
  });

  it('a file that calls itself WebM but holds H.264 is refused by its codec', async () => {
    const error = await refusal('h264-as-webm');
    expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(error.message).toBe('demo_video is a WebM holding h264 video; a WebM demo must hold VP8, VP9 or AV1 video and Opus or Vorbis sound (or none)');
  });
});

describe('refused: right container, unusable video (422 invalid_media)', () => {
  it('an audio-only MP4 is 422', async () => {
    const error = await refusal('audio-only-m4a');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toMatch(/has no video stream \(it is audio only\)/);
  });

  it('a truncated MP4 is 422', async () => {
    const error = await refusal('truncated-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toMatch(/looks like MP4 but cannot be read/);
  });

  it('an MP4 whose index survived but whose picture data was cut off is 422', async () => {
    const error = await refusal('truncated-mid-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toMatch(/cannot be decoded to its end/);
  });

  it('a video under 240 px on a side is 422', async () => {
    const error = await refusal('tiny-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toBe('demo_video must be at least 240 px on each side; got 180x320');
  });

  it('names the field it was given', async () => {
    await expect(inspectDemoVideo(await makeFixture('tiny-mp4'), { field: 'reference_video' })).rejects.toThrow(/^reference_video must be at least 240 px/);
  });
});
