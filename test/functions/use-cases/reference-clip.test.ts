/**
 * A motion reference is taken only when it shows a face, looked for on real clips (ffprobe, then
 * human on sampled frames), before a job is written or a unit reserved.
 */
import { FfprobeMediaInspector } from '#adapters/media/ffprobe-media-inspector';
import { humanClipFaces } from '#adapters/media/human-clip-faces';
import { humanImageFaces } from '#adapters/media/human-image-faces';
import { createVideoJob } from '#use-cases/create-video-job';
import { checkReferenceClip } from '#use-cases/reference-clip';
import { FaceCheckUnavailable } from '#ports/face-finder';
import { faceReferenceClip } from '#test-support/jobs';
import { makeFixture } from '#test-support/media-fixtures';
import { PERIOD, promptRequest, videoJobFixture } from '#test-support/video-jobs';

const real = { media: new FfprobeMediaInspector(), faces: { ...humanImageFaces, ...humanClipFaces } };

describe('checkReferenceClip', () => {
  test('a clip of a face reacting is taken, with its type and length', async () => {
    const clip = await checkReferenceClip(real, await faceReferenceClip({ durationS: 3.5 }));
    expect(clip).toMatchObject({ contentType: 'video/mp4', durationS: expect.closeTo(3.5, 1) });
  }, 60_000);

  test('a clip without a face is 422 no_face naming the field', async () => {
    await expect(checkReferenceClip(real, await makeFixture('vertical-mp4'))).rejects.toMatchObject({
      status: 422,
      code: 'no_face',
      message: expect.stringMatching(/^reference_video: we could not find a face in this clip/),
    });
  }, 60_000);
});

describe('POST /videos with a faceless reference clip', () => {
  test('is refused before any job, object or unit', async () => {
    const { deps, accountId, productId, avatarId, ledger, blobs, jobs } = await videoJobFixture(real);
    const request = promptRequest(productId, { method: 'motion', prompt: null, avatarId, videoSource: 'upload' });
    await expect(createVideoJob(deps, { accountId, request, referenceVideo: { path: await makeFixture('vertical-mp4') } })).rejects.toMatchObject({ code: 'no_face' });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    expect(blobs.objects.size).toBe(0);
    expect((await jobs.listRecent(accountId, 10)).items).toEqual([]);
  }, 60_000);
});

describe('where the look happens in another function (the face-check function on AWS)', () => {
  test('a look that could not be had in time is 503 upstream_unavailable with Retry-After, never a pass', async () => {
    const busy = { ...real, faces: { ...real.faces, clipShowsFace: async () => Promise.reject(new FaceCheckUnavailable('throttled')) } };
    await expect(checkReferenceClip(busy, await makeFixture('vertical-mp4'))).rejects.toMatchObject({
      status: 503,
      code: 'upstream_unavailable',
      headers: { 'retry-after': '5' },
      message: expect.stringMatching(/^reference_video: the face check did not answer in time/),
    });
  }, 60_000);

  test('any other failure of the look is an error of ours, passed on as it is', async () => {
    const broken = new Error('the face-check function failed');
    const failing = { ...real, faces: { ...real.faces, clipShowsFace: async () => Promise.reject(broken) } };
    await expect(checkReferenceClip(failing, await makeFixture('vertical-mp4'))).rejects.toBe(broken);
  }, 60_000);
});
