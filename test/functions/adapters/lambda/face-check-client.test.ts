/**
 * The Lambda adapter of FaceFinder's clip questions (the videos function on AWS: clipShowsFace; the
 * render function under a hosted engine: faceBoxInClip), against a mocked Lambda client: it sends the
 * frames it sampled from the clip, reads the answer, and never lets a failure pass as a face (or as none).
 */
import { mockClient } from 'aws-sdk-client-mock';
import { InvokeCommand, LambdaClient, ResourceNotFoundException, TooManyRequestsException, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { lambdaClipFaces } from '#adapters/lambda/face-check-client';
import { FACE_BOX_KIND, FACE_BOX_VERSION, FACE_CHECK_FUNCTION_ENV } from '#adapters/lambda/face-check-protocol';
import { handler } from '#handlers/face-check';
import { FaceCheckUnavailable } from '#ports/face-finder';
import { findFaceBox, sampleFaceBoxFramesJpeg, sampleReferenceFramesJpeg } from '#render';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';

const { abs } = Math;

const lambda = mockClient(LambdaClient);
const NAME = 'stack-FaceCheckFunction-abc';
const clipFaces = (options: Parameters<typeof lambdaClipFaces>[0] = {}) => lambdaClipFaces({ client: new LambdaClient({ region: 'us-east-1' }), functionName: () => NAME, ...options });
/** A payload as the client hands it over (the SDK adds string helpers to the bytes, which the adapter does not use). */
const payload = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)) as InvokeCommandOutput['Payload'];
const sentEvent = () => JSON.parse(Buffer.from(lambda.commandCalls(InvokeCommand)[0]!.args[0].input.Payload as Uint8Array).toString('utf8')) as { frames: string[]; kind?: string };

let faceClip: string;
let facelessClip: string;
/** For the failures: the Lambda answer is scripted, so what the clip shows cannot matter; it is only sampled and sent. */
let anyClip: string;
beforeAll(async () => {
  [faceClip, facelessClip, anyClip] = await Promise.all([faceReferenceClip({ durationS: 4 }), makeFixture('vertical-mp4'), makeFixture('blank-mp4')]);
}, 60_000);
beforeEach(() => lambda.reset());

describe('what it sends', () => {
  test('one synchronous invocation of the face-check function, its event the frames sampled from the clip, as base64 JPEGs', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ face: true }) });
    expect(await clipFaces().clipShowsFace(faceClip)).toBe(true);
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ FunctionName: NAME, InvocationType: 'RequestResponse' });
    const sampled = await sampleReferenceFramesJpeg(faceClip);
    expect(sentEvent()).toEqual({ frames: sampled.map((jpeg) => jpeg.toString('base64')) });
    // A 4 s reference: 8 frames, about 120 KB of event (a synchronous invocation takes 6 MB).
    expect(sentEvent().frames).toHaveLength(8);
    expect(JSON.stringify(sentEvent()).length).toBeLessThan(200 * 1024);
  }, 60_000);

  test(`by default the function named by ${FACE_CHECK_FUNCTION_ENV}, read when a clip is checked; unset, an error naming it and no call`, async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ face: false }) });
    const faces = lambdaClipFaces({ client: new LambdaClient({ region: 'us-east-1' }) });
    const before = process.env[FACE_CHECK_FUNCTION_ENV];
    try {
      delete process.env[FACE_CHECK_FUNCTION_ENV];
      await expect(faces.clipShowsFace(facelessClip)).rejects.toThrow(`environment variable ${FACE_CHECK_FUNCTION_ENV} is not set`);
      expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
      process.env[FACE_CHECK_FUNCTION_ENV] = 'from-the-environment';
      expect(await faces.clipShowsFace(facelessClip)).toBe(false);
      expect(lambda.commandCalls(InvokeCommand)[0]!.args[0].input.FunctionName).toBe('from-the-environment');
    } finally {
      if (before === undefined) delete process.env[FACE_CHECK_FUNCTION_ENV];
      else process.env[FACE_CHECK_FUNCTION_ENV] = before;
    }
  }, 60_000);

  test('a clip that is no readable video is invalid_input before anything is invoked', async () => {
    await expect(clipFaces().clipShowsFace(await makeFixture('random-bytes'))).rejects.toMatchObject({ code: 'invalid_input' });
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
  });
});

describe('what it answers', () => {
  test('the handler\'s answer, through the real handler: a face clip true, a faceless one false', async () => {
    lambda.on(InvokeCommand).callsFake(async (input: { Payload: Uint8Array }) => ({
      StatusCode: 200,
      Payload: payload(await handler(JSON.parse(Buffer.from(input.Payload).toString('utf8')))),
    }));
    expect(await clipFaces().clipShowsFace(faceClip)).toBe(true);
    expect(await clipFaces().clipShowsFace(facelessClip)).toBe(false);
  }, 60_000);

  test.each([
    ['a throttle', () => lambda.on(InvokeCommand).rejects(new TooManyRequestsException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } }))],
    ['a fault of the Lambda service', () => lambda.on(InvokeCommand).rejects(Object.assign(new Error('internal'), { name: 'ServiceException', $metadata: { httpStatusCode: 500 } }))],
    ['its own deadline', () => lambda.on(InvokeCommand).rejects(Object.assign(new Error('Request aborted'), { name: 'AbortError' }))],
    ['the function timing out', () => lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: payload({ errorType: 'Sandbox.Timedout', errorMessage: 'RequestId: 1 Error: Task timed out after 10.00 seconds' }) })],
  ])('%s is FaceCheckUnavailable (the API answers 503, retry), never a pass', async (_what, arrange) => {
    arrange();
    const failure = await clipFaces().clipShowsFace(anyClip).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FaceCheckUnavailable);
    expect((failure as Error).message).toContain(NAME);
  }, 60_000);

  test.each([
    ['a FunctionError (the face runtime failed)', () => lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: payload({ errorType: 'EngineError', errorMessage: 'Face detection failed: no backend' }) }), /failed \(Unhandled: EngineError: Face detection failed: no backend\)/],
    ['an error answer (frames it refused)', () => lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ error: { code: 'invalid_frame', message: 'frame 2 is not a JPEG' } }) }), /refused the frames \(invalid_frame: frame 2 is not a JPEG\)/],
    ['an answer outside the contract', () => lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ face: 'yes' }) }), /answered outside its contract/],
    ['no answer at all', () => lambda.on(InvokeCommand).resolves({ StatusCode: 200 }), /answered outside its contract/],
    ['a function that does not exist', () => lambda.on(InvokeCommand).rejects(new ResourceNotFoundException({ message: 'Function not found', $metadata: { httpStatusCode: 404 } })), /could not be invoked \(ResourceNotFoundException: Function not found\)/],
  ])('%s is an error of ours saying so (a 500), neither a face nor none', async (_what, arrange, says) => {
    arrange();
    const failure = await clipFaces().clipShowsFace(anyClip).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(FaceCheckUnavailable);
    expect((failure as Error).message).toMatch(says);
  }, 60_000);
});

describe('faceBoxInClip: the face-box request', () => {
  const realHandler = () =>
    lambda.on(InvokeCommand).callsFake(async (input: { Payload: Uint8Array }) => ({
      StatusCode: 200,
      Payload: payload(await handler(JSON.parse(Buffer.from(input.Payload).toString('utf8')))),
    }));

  test(`one synchronous invocation, its event {kind: "${FACE_BOX_KIND}", version: ${FACE_BOX_VERSION}} and the frames sampled across the clip`, async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ box: null }) });
    expect(await clipFaces().faceBoxInClip(faceClip)).toBeNull();
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ FunctionName: NAME, InvocationType: 'RequestResponse' });
    const sampled = await sampleFaceBoxFramesJpeg(faceClip);
    expect(sentEvent()).toEqual({ kind: FACE_BOX_KIND, version: FACE_BOX_VERSION, frames: sampled.frames.map((jpeg) => jpeg.toString('base64')) });
    expect(sentEvent().frames).toHaveLength(8);
  }, 60_000);

  test("the answer's box, in the frames' pixels, comes back in the clip's: frames at half size, so twice as large", async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload({ box: { x: 50, y: 60, width: 70, height: 80 } }) });
    expect(await clipFaces().faceBoxInClip(faceClip)).toEqual({ x: 100, y: 120, width: 140, height: 160 });
  }, 60_000);

  test('through the real handler: a face clip has the box the in-process finder finds, a faceless clip none', async () => {
    realHandler();
    const box = await clipFaces().faceBoxInClip(faceClip);
    const local = await findFaceBox(faceClip, { region: 'eyes-to-mouth' });
    expect(box).not.toBeNull();
    // JPEG frames against raw ones: the same face within a few pixels of the 360-pixel-wide clip.
    for (const edge of ['x', 'y', 'width', 'height'] as const) expect(abs(box![edge] - local![edge])).toBeLessThan(20);
    expect(await clipFaces().faceBoxInClip(facelessClip)).toBeNull();
  }, 60_000);

  test('a throttle is FaceCheckUnavailable: the step is retried, the clip neither passes nor fails', async () => {
    lambda.on(InvokeCommand).rejects(new TooManyRequestsException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } }));
    await expect(clipFaces().faceBoxInClip(anyClip)).rejects.toBeInstanceOf(FaceCheckUnavailable);
  }, 60_000);

  test.each([
    ['an error answer', { error: { code: 'invalid_event', message: 'version: the only version is 1' } }, /refused the frames \(invalid_event: version: the only version is 1\)/],
    ["the other request's answer", { face: true }, /answered outside its contract/],
    ['a box of negative pixels', { box: { x: -5, y: 0, width: 10, height: 10 } }, /answered outside its contract/],
    ['a box with more in it', { box: { x: 0, y: 0, width: 10, height: 10, score: 1 } }, /answered outside its contract/],
  ])('%s is an error of ours saying so, neither a box nor none', async (_what, answer, says) => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: payload(answer) });
    const failure = await clipFaces().faceBoxInClip(anyClip).catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(FaceCheckUnavailable);
    expect((failure as Error).message).toMatch(says);
  }, 60_000);
});
