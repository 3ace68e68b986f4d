import { AppError } from '#domain/errors';
import { inspectDemoVideo, sniffDemoContainer } from '#functions/render/uploads/demo-video';
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
});

describe('refused: not an MP4, MOV or AVI (415 unsupported_media_type)', () => {
  it.each<[FixtureKind, string]>([
    ['png-as-mp4', 'got a PNG image'],
    ['random-bytes', 'got a file of unrecognised type'],
    ['mp3', 'got MP3 audio'],
    ['vertical-webm', 'got a WebM/Matroska video'],
    ['vertical-3gp', 'got a 3GP video'],
  ])('%s is refused with 415 (%s), whatever its name says', async (kind, said) => {
    const error = await refusal(kind);
    expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(error.message).toBe(`demo_video must be an MP4, MOV or AVI video; ${said}`);
  });
});

describe('refused: right container, unusable video (422 invalid_media)', () => {
  it('a horizontal MP4 is refused with 422 invalid_media', async () => {
    const error = await refusal('horizontal-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toBe('demo_video must be vertical (portrait, taller than wide); got 1280x720');
  });

  it('a square video is not vertical', async () => {
    expect((await refusal('square-mp4')).message).toMatch(/must be vertical .*got 720x720/);
  });

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

  it('a video longer than 180 s is 422 and says how long it is', async () => {
    const error = await refusal('long-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toMatch(/must be at most 180 s long; got 181 s/);
  });

  it('a video under 240 px on a side is 422', async () => {
    const error = await refusal('tiny-mp4');
    expect(error).toMatchObject({ status: 422, code: 'invalid_media' });
    expect(error.message).toBe('demo_video must be at least 240 px on each side; got 180x320');
  });

  it('names the field it was given', async () => {
    await expect(inspectDemoVideo(await makeFixture('horizontal-mp4'), { field: 'reference_video' })).rejects.toThrow(
      /^reference_video must be vertical/,
    );
  });
});

describe('sniffDemoContainer: the shared sniffer, narrowed to MP4, MOV and AVI', () => {
  const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(12)]);
  const riff = (form: string) => Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 1, 0, 0]), Buffer.from(form, 'latin1'), Buffer.alloc(8)]);
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]), Buffer.from('webm', 'latin1')]);

  it('MP4, MOV and AVI come with the demuxer ffprobe and ffmpeg are pinned to', async () => {
    expect(await sniffDemoContainer(ftyp('isom'))).toEqual({ container: 'mp4', demuxer: 'mov' });
    expect(await sniffDemoContainer(ftyp('qt  '))).toEqual({ container: 'mov', demuxer: 'mov' });
    expect(await sniffDemoContainer(riff('AVI '))).toEqual({ container: 'avi', demuxer: 'avi' });
  });

  it('a WebM, a reference-only container, is refused by name', async () => {
    expect(await sniffDemoContainer(webm)).toEqual({ refused: 'a WebM/Matroska video' });
  });

  it('what the shared sniffer refuses stays refused', async () => {
    expect(await sniffDemoContainer(ftyp('3gp4'))).toEqual({ refused: 'a 3GP video' });
    expect(await sniffDemoContainer(riff('WAVE'))).toEqual({ refused: 'WAV audio' });
  });
});
