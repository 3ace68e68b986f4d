/**
 * The demo's media work tells the uploader's fault from ours (ports/demo-media.ts): ffmpeg giving up
 * on the file is invalid_media; a converter that was killed, timed out or never started is not.
 */
import { AppError } from '#domain/errors';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';
import { MediaToolError, normaliseVideo } from '#render';

jest.mock('#render', () => ({ ...jest.requireActual('#render'), normaliseVideo: jest.fn() }));
const converting = normaliseVideo as jest.MockedFunction<typeof normaliseVideo>;

const normalise = () => new FfmpegDemoMedia().normalise('/tmp/in', '/tmp/out.mp4', { timeoutMs: 1000 });

describe('FfmpegDemoMedia.normalise', () => {
  test('ffmpeg exiting with a code on the file is the file\'s fault: invalid_media, with ffmpeg\'s words kept as the cause', async () => {
    const gaveUp = new MediaToolError('ffmpeg', 'exit', { exitCode: 1, stderrTail: 'Invalid data found when processing input' });
    converting.mockRejectedValueOnce(gaveUp);
    const refused = await normalise().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'invalid_media', status: 422, cause: gaveUp });
    expect((refused as Error).message).not.toContain('/tmp/');
  });

  test.each([
    ['killed by a signal', new MediaToolError('ffmpeg', 'exit', { signal: 'SIGKILL' })],
    ['past its time limit', new MediaToolError('ffmpeg', 'timeout', {})],
    ['never started', new MediaToolError('ffmpeg', 'spawn', { message: 'spawn ffmpeg ENOENT' })],
  ])('a converter %s is a failure on our side, passed on as it is', async (_how, failure) => {
    converting.mockRejectedValueOnce(failure);
    await expect(normalise()).rejects.toBe(failure);
  });

  test('a file ffprobe cannot read stays the invalid_media the conversion raised', async () => {
    const unreadable = new AppError('invalid_media', 'demo_video could not be read');
    converting.mockRejectedValueOnce(unreadable);
    await expect(normalise()).rejects.toBe(unreadable);
  });
});

describe('FfmpegDemoMedia.normalise, as the product asked', () => {
  const done = { encoding: 'e', durationS: 1, width: 1080, height: 1920, sizeBytes: 1, loudnessLufs: null };

  test('a reframe picks the framing and a trim its points; nothing asked is the whole demo, fitted', async () => {
    converting.mockClear();
    converting.mockResolvedValue(done);
    const media = new FfmpegDemoMedia();
    await media.normalise('/tmp/in', '/tmp/out.mp4', { timeoutMs: 1000, intake: { reframe: 'blur', start_s: 2, end_s: 7.5 } });
    await media.normalise('/tmp/in', '/tmp/out.mp4', { timeoutMs: 1000, intake: { reframe: null, start_s: null, end_s: 3 } });
    await media.normalise('/tmp/in', '/tmp/out.mp4', { timeoutMs: 1000 });
    expect(converting.mock.calls.map(([, , options]) => options)).toEqual([
      { timeoutMs: 1000, framing: 'blur', startS: 2, endS: 7.5 },
      { timeoutMs: 1000, framing: 'fit', endS: 3 },
      { timeoutMs: 1000, framing: 'fit' },
    ]);
  });
});
