/**
 * A motion reference's face check in two halves (the frames sampled as JPEGs where ffmpeg is, looked at
 * where the face runtime is), on real clips: it answers as the check in one process does.
 */
import sharp from 'sharp';
import { EngineError } from '#ports/engine';
import { framesShowFace } from '#functions/render/face/frame-faces';
import { REFERENCE_FACE_CHECK, REFERENCE_FACE_CHECK_MAX_FRAMES, referenceShowsFace, sampleReferenceFramesJpeg } from '#functions/render/face/reference-face';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';
import { noFacePng, realFacePng } from './synthetic-face';

const grey = (width = 360, height = 640) => sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg().toBuffer();

async function failureOf(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('sampleReferenceFramesJpeg', () => {
  test('a 4 s clip gives the check\'s frames: two a second, JPEGs with a 360 px short side, about 11 KB each', async () => {
    const frames = await sampleReferenceFramesJpeg(await faceReferenceClip({ durationS: 4 }));
    expect(frames).toHaveLength(4 * REFERENCE_FACE_CHECK.sampleFps);
    for (const frame of frames) {
      expect(await sharp(frame).metadata()).toMatchObject({ format: 'jpeg', width: REFERENCE_FACE_CHECK.shortSide, height: 640 });
      expect(frame.length).toBeLessThan(30 * 1024);
    }
  }, 60_000);

  test('reads only the part a reaction follows: at most REFERENCE_FACE_CHECK_MAX_FRAMES of a longer clip, maxFrames when asked', async () => {
    const clip = await faceReferenceClip({ durationS: 6 });
    expect(await sampleReferenceFramesJpeg(clip)).toHaveLength(REFERENCE_FACE_CHECK_MAX_FRAMES);
    expect(await sampleReferenceFramesJpeg(clip, { maxFrames: 3 })).toHaveLength(3);
  }, 60_000);

  test('a file that is no readable video is invalid_input', async () => {
    for (const kind of ['png-as-mp4', 'random-bytes', 'truncated-mp4'] as const) {
      expect([kind, (await failureOf(sampleReferenceFramesJpeg(await makeFixture(kind)))).code]).toEqual([kind, 'invalid_input']);
    }
  }, 60_000);
});

describe('framesShowFace', () => {
  test('the frames of a clip of a real face show a face; those of a clip without one (a test pattern) do not, as the check in one process says', async () => {
    const face = await faceReferenceClip({ durationS: 4 });
    const faceless = await makeFixture('vertical-mp4');
    expect(await framesShowFace(await sampleReferenceFramesJpeg(face))).toBe(true);
    expect(await framesShowFace(await sampleReferenceFramesJpeg(faceless))).toBe(false);
    expect([await referenceShowsFace(face), await referenceShowsFace(faceless)]).toEqual([true, false]);
  }, 60_000);

  test('plain grey frames and a picture without a face show none; a face among them is found wherever it is', async () => {
    const greys = [await grey(), await grey(), await sharp(noFacePng()).jpeg().toBuffer()];
    expect(await framesShowFace(greys)).toBe(false);
    const face = await sharp(await realFacePng()).resize(360, 360).jpeg({ quality: 80 }).toBuffer();
    expect(await framesShowFace([...greys, face])).toBe(true);
  }, 60_000);

  test('stops at the first face: a frame after it is not even decoded', async () => {
    const face = await sharp(await realFacePng()).resize(360, 360).jpeg().toBuffer();
    expect(await framesShowFace([face, Buffer.from('not a jpeg at all')])).toBe(true);
  }, 60_000);

  test('bytes that are no JPEG (a PNG, text, a cut-off JPEG) and a JPEG past the frame size are invalid_input naming the frame', async () => {
    const cut = (await grey()).subarray(0, 200);
    const huge = await sharp({ create: { width: 4200, height: 1200, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    for (const [name, bytes] of [['png', noFacePng()], ['text', Buffer.from('hello')], ['cut', cut], ['huge', huge]] as const) {
      const failure = await failureOf(framesShowFace([await grey(), bytes]));
      expect([name, failure.code, failure.message]).toEqual([name, 'invalid_input', expect.stringMatching(/^frame 1 /)]);
    }
  }, 60_000);
});
