/**
 * The face-check function's handler, with the events its callers send (frames a clip was sampled
 * into, as base64 JPEGs): the videos function's (does a face show?) and the render function's
 * `face_box` request (where is the eyes-to-mouth box?). It answers anything malformed with an error
 * naming what is wrong, never a throw.
 */
import sharp from 'sharp';
import { handler } from '#handlers/face-check';
import { FACE_BOX_KIND, FACE_BOX_VERSION, FACE_CHECK_LIMITS, faceBoxAnswer } from '#adapters/lambda/face-check-protocol';
import { findFaceBox, sampleFaceBoxFramesJpeg, sampleReferenceFramesJpeg } from '#render';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';

const { abs } = Math;

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

describe(`the face-box request ({kind: "${FACE_BOX_KIND}", version: ${FACE_BOX_VERSION}})`, () => {
  const boxRequest = (frames: readonly Buffer[]) => ({ kind: FACE_BOX_KIND, version: FACE_BOX_VERSION, frames: base64(frames) });

  test("a real face clip's frames: the eyes-to-mouth box in the frames' pixels, as findFaceBox finds it on the clip; a faceless clip: null", async () => {
    const clip = await faceReferenceClip({ durationS: 4 });
    const sampled = await sampleFaceBoxFramesJpeg(clip);
    const answer = await handler(boxRequest(sampled.frames));
    expect(faceBoxAnswer.safeParse(answer).success).toBe(true);
    const box = (answer as { box: { x: number; y: number; width: number; height: number } }).box;
    expect(box.x + box.width).toBeLessThanOrEqual(sampled.width);
    expect(box.y + box.height).toBeLessThanOrEqual(sampled.height);
    // The same frames decoded without JPEG in between: the same face, give or take a few of the clip's pixels.
    const k = sampled.clip.width / sampled.width;
    const local = (await findFaceBox(clip, { region: 'eyes-to-mouth' }))!;
    for (const edge of ['x', 'y', 'width', 'height'] as const) expect(abs(box[edge] * k - local[edge])).toBeLessThan(0.06 * sampled.clip.width);

    const faceless = await sampleFaceBoxFramesJpeg(await makeFixture('vertical-mp4'));
    expect(await handler(boxRequest(faceless.frames))).toEqual({ box: null });
  }, 60_000);

  test.each([
    [{ kind: 'face_boxes', version: 1, frames: ['/9j/'] }, 'kind: one of "face_box"'],
    [{ kind: 42, frames: ['/9j/'] }, 'kind: one of "face_box"'],
    [{ kind: FACE_BOX_KIND, frames: ['/9j/'] }, `version: the only version is ${FACE_BOX_VERSION}`],
    [{ kind: FACE_BOX_KIND, version: 2, frames: ['/9j/'] }, `version: the only version is ${FACE_BOX_VERSION}`],
    [{ kind: FACE_BOX_KIND, version: '1', frames: ['/9j/'] }, `version: the only version is ${FACE_BOX_VERSION}`],
    [{ kind: FACE_BOX_KIND, version: 1 }, 'frames: Invalid input: expected array, received undefined'],
    [{ kind: FACE_BOX_KIND, version: 1, frames: [] }, 'frames: at least one frame'],
    [{ kind: FACE_BOX_KIND, version: 1, frames: ['not base64!'] }, 'frames.0: a frame is base64'],
    [{ kind: FACE_BOX_KIND, version: 1, frames: ['/9j/'], clip: { width: 1080 } }, 'event: Unrecognized key: "clip"'],
    // What JSON.parse makes of a "__proto__" key in a payload: an own key, refused like any other.
    [JSON.parse('{"kind":"face_box","version":1,"frames":["/9j/"],"__proto__":{"polluted":true}}') as unknown, 'event: Unrecognized key: "__proto__"'],
  ])('a malformed face-box request (%j) is an invalid_event answer saying what is wrong', async (event, says) => {
    expect(await handler(event)).toEqual({ error: { code: 'invalid_event', message: says } });
  });

  test('hostile frames are error answers, never a crash: too many, too large, not JPEGs, or of different sizes', async () => {
    const grey = await greyJpeg();
    expect(await handler(boxRequest(Array.from({ length: FACE_CHECK_LIMITS.maxFrames + 1 }, () => grey)))).toEqual({
      error: { code: 'invalid_event', message: expect.stringContaining(`at most ${FACE_CHECK_LIMITS.maxFrames} frames`) },
    });
    const huge = { kind: FACE_BOX_KIND, version: 1, frames: [Buffer.alloc(4 * FACE_CHECK_LIMITS.maxFrameBytes, 0xff).toString('base64')] };
    expect(await handler(huge)).toEqual({ error: { code: 'invalid_event', message: `frames.0: a frame is at most ${FACE_CHECK_LIMITS.maxFrameBytes} bytes` } });
    for (const bad of [await sharp(grey).png().toBuffer(), Buffer.from('random bytes, not a picture'), grey.subarray(0, 300)]) {
      expect(await handler(boxRequest([grey, bad]))).toEqual({ error: { code: 'invalid_frame', message: expect.stringMatching(/^frame 1 /) } });
    }
    const smaller = await sharp({ create: { width: 180, height: 320, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg().toBuffer();
    expect(await handler(boxRequest([grey, smaller]))).toEqual({ error: { code: 'invalid_frame', message: 'frame 1 is 180x320, not 360x640 as frame 0' } });
  }, 60_000);

  test('the first request is still answered as it was: no kind, whether a face shows', async () => {
    expect(await handler({ frames: base64([await greyJpeg()]) })).toEqual({ face: false });
  });
});
