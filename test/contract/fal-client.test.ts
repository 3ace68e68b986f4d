/**
 * Contract: fal's own client (`@fal-ai/client`) against our fal queue double. The client builds
 * https://queue.fal.run/... itself, so only the host is swapped (its `fetch` option sends the same
 * request to the double); paths, methods, headers, bodies and status handling stay the client's.
 * What the fal adapter relies on (submit, status polling to COMPLETED, result, cancel, errors) must
 * come through the client as it would from fal.
 */
import { ApiError, ValidationError, createFalClient, type FalClient } from '@fal-ai/client';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';

const MOTION = 'fal-ai/kling-video/v2.6/standard/motion-control';
const FLUX = 'fal-ai/flux/schnell';

let double: FalDouble;
let fal: FalClient;

beforeAll(async () => {
  double = await startFalDouble();
  const swapHost: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.hostname !== 'queue.fal.run') throw new Error(`the client called ${url.hostname}`);
    return fetch(`${double.baseUrl}${url.pathname}${url.search}`, init);
  };
  fal = createFalClient({ credentials: double.key, fetch: swapHost });
});
afterAll(() => double.close());
beforeEach(() => double.reset());

const motionInput = (videoUrl = 'https://example.com/reference.mp4') => ({
  image_url: 'https://example.com/avatar.png',
  video_url: videoUrl,
  character_orientation: 'image' as const,
  keep_original_sound: false,
});

/** An input the client's types would not let through: what a buggy caller sends. */
const hostile = (input: Record<string, unknown>) => input as never;

/** The client's error for a call that must fail. */
async function clientError(call: Promise<unknown>): Promise<ApiError<any>> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected a fal ApiError, got ${String(error)}`);
  return error;
}

describe('the calls the fal adapter makes', () => {
  test('subscribe: submit, polls of 202 IN_QUEUE / IN_PROGRESS then 200 COMPLETED under the app root, the result with its request id', async () => {
    const updates: string[] = [];
    const result = await fal.subscribe(MOTION, { input: motionInput(), pollInterval: 5, onQueueUpdate: (u) => updates.push(u.status) });
    expect(result.data).toEqual({ video: expect.objectContaining({ url: expect.stringContaining(`/media/${result.requestId}.mp4`) }) });
    expect(result.requestId).toEqual(expect.any(String));
    expect(updates).toEqual(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']);
    const root = `/fal-ai/kling-video/requests/${result.requestId}`;
    expect(double.calls('submit').map((r) => r.path)).toEqual([`/${MOTION}`]);
    expect(double.calls('status').map((r) => r.path)).toEqual([`${root}/status`, `${root}/status`, `${root}/status`]);
    expect(double.calls('result').map((r) => r.path)).toEqual([root]);
    for (const r of double.requests) expect(r.headers.authorization).toBe(`Key ${double.key}`);
  });

  test('FLUX schnell: the image result', async () => {
    const result = await fal.subscribe(FLUX, { input: { prompt: 'a chef', image_size: { width: 768, height: 1344 }, seed: 7, enable_safety_checker: true }, pollInterval: 5 });
    expect(result.data).toEqual(expect.objectContaining({ images: [expect.objectContaining({ width: 768, height: 1344 })], has_nsfw_concepts: [false] }));
  });

  test('cancel: the request ends COMPLETED (fal has no other end state) and its result is an error, so a poller stops', async () => {
    double.script({ statuses: ['IN_QUEUE'] });
    const { request_id: requestId } = await fal.queue.submit(MOTION, { input: motionInput() });
    expect((await fal.queue.status(MOTION, { requestId })).status).toBe('IN_QUEUE');
    await fal.queue.cancel(MOTION, { requestId });
    expect((await fal.queue.status(MOTION, { requestId })).status).toBe('COMPLETED');
    expect((await clientError(fal.queue.result(MOTION, { requestId }))).status).toBe(400);
  });
});

describe('the errors fal answers', () => {
  test('a misnamed field is a 422 ValidationError naming the missing one', async () => {
    const { video_url: _dropped, ...rest } = motionInput();
    const error = await clientError(fal.queue.submit(MOTION, { input: hostile({ ...rest, reference_url: 'https://example.com/r.mp4' }) }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).getFieldErrors('video_url')).toEqual([{ loc: ['body', 'video_url'], msg: 'Field required', type: 'missing' }]);
  });

  test('a value outside the enum is a 422', async () => {
    const error = await clientError(fal.queue.submit(MOTION, { input: hostile({ ...motionInput(), character_orientation: 'sideways' }) }));
    expect((error as ValidationError).getFieldErrors('character_orientation')[0]).toMatchObject({ type: 'literal_error' });
  });

  test('an unknown model is a 404', async () => {
    expect((await clientError(fal.queue.submit('fal-ai/kling-video/v9/imaginary', { input: motionInput() }))).status).toBe(404);
  });

  test('a wrong key is a 401', async () => {
    const stranger = createFalClient({ credentials: 'not-our-key', fetch: (input, init) => fetch(String(input).replace('https://queue.fal.run', double.baseUrl), init) });
    expect((await clientError(stranger.queue.submit(MOTION, { input: motionInput() }))).status).toBe(401);
  });

  test('a motion reference outside 3-10 s (character_orientation "image") fails when it runs: 422 at the result', async () => {
    // A 2 s clip the double itself serves (the output of an image-to-video request) as the reference.
    double.script({ media: 'video-2s' });
    const short = await fal.subscribe('fal-ai/kling-video/v2.6/pro/image-to-video', {
      input: { prompt: 'laughing', start_image_url: 'https://example.com/a.png' },
      pollInterval: 5,
    });
    const shortClip = (short.data as { video: { url: string } }).video.url;
    double.script({ media: 'video-6s' });
    double.fetchInputs(true);
    const error = await clientError(fal.subscribe(MOTION, { input: motionInput(shortClip), pollInterval: 5 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).getFieldErrors('video_url')[0]!.msg).toMatch(/between 3 and 10 seconds.*got 2\.0 s/);
  });
});
