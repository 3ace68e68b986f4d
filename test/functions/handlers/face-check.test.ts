/**
 * The face-check function's handler, with the event the videos function sends (frames a clip was
 * sampled into, as base64 JPEGs): it answers whether a face shows, and answers anything malformed
 * with an error naming what is wrong, never a throw.
 */
import sharp from 'sharp';
import { handler } from '#handlers/face-check';
import { FACE_CHECK_LIMITS } from '#adapters/lambda/face-check-protocol';
import { sampleReferenceFramesJpeg } from '#render';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';

const base64 = (frames: readonly Buffer[]) => frames.map((frame) => frame.toString('base64'));
const greyJpeg = () => sharp({ create: { width: 360, height: 640, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg().toBuffer();

describe('the face-check handler', () => {
  test('the frames of a real face clip: { face: true }; of a faceless clip and of plain grey frames: { face: false }', async () => {
    const face = await sampleReferenceFramesJpeg(await faceReferenceClip({ durationS: 4 }));
    const faceless = await sampleReferenceFramesJpeg(await makeFixture('vertical-mp4'));
    expect(await handler({ frames: base64(face) })).toEqual({ face: true });
    expect(await handler({ frames: base64(faceless) })).toEqual({ face: false });
    expect(await handler({ frames: base64([await greyJpeg(), await greyJpeg()]) })).toEqual({ face: false });
  }, 60_000);

  test.each([
    ['not an object', 'event: Invalid input: expected object, received string'],
    [null, 'event: Invalid input: expected object, received null'],
    [['a list, not an event'], 'event: Invalid input: expected object, received array'],
    [{}, 'frames: Invalid input: expected array, received undefined'],
    [{ frames: 'one frame, not a list' }, 'frames: Invalid input: expected array, received string'],
    [{ frames: [] }, 'frames: at least one frame'],
    [{ frames: [42] }, 'frames.0: Invalid input: expected string, received number'],
    [{ frames: ['/9j/', 'not base64!'] }, 'frames.1: a frame is base64'],
    [{ frames: [''] }, `frames.0: a frame is 1 to ${FACE_CHECK_LIMITS.maxFrameBytes} bytes`],
    [{ frames: ['/9j/'], extra: true }, 'event: Unrecognized key: "extra"'],
  ])('a malformed event (%j) is an invalid_event answer saying what is wrong', async (event, says) => {
    expect(await handler(event)).toEqual({ error: { code: 'invalid_event', message: says } });
  });

  test('more than 20 frames, or a frame over 200 KB decoded, is invalid_event before anything is decoded', async () => {
    const grey = (await greyJpeg()).toString('base64');
    expect(await handler({ frames: Array.from({ length: FACE_CHECK_LIMITS.maxFrames + 1 }, () => grey) })).toEqual({
      error: { code: 'invalid_event', message: expect.stringContaining(`at most ${FACE_CHECK_LIMITS.maxFrames} frames`) },
    });
    // One byte over (its base64 is as long as the limit's), and far over (refused by its length alone).
    const justOver = Buffer.alloc(FACE_CHECK_LIMITS.maxFrameBytes + 1, 0xff).toString('base64');
    expect(await handler({ frames: [grey, justOver] })).toEqual({ error: { code: 'invalid_event', message: `frames.1: a frame is 1 to ${FACE_CHECK_LIMITS.maxFrameBytes} bytes` } });
    const farOver = Buffer.alloc(4 * FACE_CHECK_LIMITS.maxFrameBytes, 0xff).toString('base64');
    expect(await handler({ frames: [grey, farOver] })).toEqual({ error: { code: 'invalid_event', message: `frames.1: a frame is at most ${FACE_CHECK_LIMITS.maxFrameBytes} bytes` } });
  });

  test('a frame that is not a JPEG (a PNG, random bytes, a cut-off JPEG) is an invalid_frame answer naming it', async () => {
    const grey = await greyJpeg();
    const png = await sharp(grey).png().toBuffer();
    for (const bad of [png, Buffer.from('random bytes, not a picture'), grey.subarray(0, 300)]) {
      expect(await handler({ frames: base64([grey, bad]) })).toEqual({ error: { code: 'invalid_frame', message: expect.stringMatching(/^frame 1 /) } });
    }
  }, 60_000);
});
