/**
 * The rules around video jobs, end to end (docs/decisions.md, Video jobs): state conflicts, the
 * allowance, unknown and foreign ids, invalid input, Idempotency-Key, inputs deleted while a job
 * runs, and a preview nobody decides on. Jobs run the whole pipeline through the local HTTP server
 * and the in-process Step Functions runner; their reactions are the run's canonical clip (how a
 * reaction is drawn and encoded is video-jobs.test.ts's subject).
 */
import { randomUUID } from 'node:crypto';
import { createLocalJobRunner } from '#local/job-runner';
import { localPipeline } from '#local/pipeline-steps';
import { makeFixture } from '#test-support/media-fixtures';
import { expectError, startTestStack, type TestStack } from '#test-support/local-stack';
import { expectProgressNeverDecreases, postMultipart, waitForJob } from '#test-support/jobs';
import { CDN, JOB_TEST_MS, videoJobAccounts } from '#test-support/video-job-accounts';

let t: TestStack;
/** Any clip: a reference_video part on a prompt job is refused before it is read. */
let someClip: string;
const { freshAccount, readyAvatar, usage, listKeys } = videoJobAccounts(() => t);

beforeAll(async () => {
  [t, someClip] = await Promise.all([startTestStack(), makeFixture('vertical-mp4')]);
}, 120_000);

afterEach(async () => {
  // A test that failed half-way must not leave jobs running into the next one.
  await t?.stack.jobs.idle();
});

afterAll(async () => {
  await t?.stop();
});

describe('state conflicts (409)', () => {
  test(
    'approve or regenerate an auto job is 409; approve/regenerate a done job is 409; concurrent approves: exactly one 202 and one video',
    async () => {
      const { api, product } = await freshAccount();
      const [auto, preview] = await Promise.all([
        api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'surprised' }),
        api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'crying with joy' }),
      ]);
      expect([auto.status, preview.status]).toEqual([202, 202]);
      const autoId = auto.body.data.id;
      const previewId = preview.body.data.id;

      expectError(await api.post(`/videos/jobs/${autoId}/approve`, {}), 409, 'conflict');
      expectError(await api.post(`/videos/jobs/${autoId}/regenerate`, {}), 409, 'conflict');

      await waitForJob(api, previewId, ['preview_ready']);
      const approvals = await Promise.all([api.post(`/videos/jobs/${previewId}/approve`, {}), api.post(`/videos/jobs/${previewId}/approve`, { hook_text: 'Late' })]);
      expect(approvals.map((r) => r.status).sort()).toEqual([202, 409]);
      expectError(approvals.find((r) => r.status === 409)!, 409, 'conflict');

      const [autoDone, previewDone] = await Promise.all([waitForJob(api, autoId, ['done']), waitForJob(api, previewId, ['done'])]);
      for (const id of [autoId, previewId]) {
        expectError(await api.post(`/videos/jobs/${id}/approve`, {}), 409, 'conflict');
        expectError(await api.post(`/videos/jobs/${id}/regenerate`, {}), 409, 'conflict');
      }
      expect(autoDone.job.status).toBe('done');
      expect(previewDone.job.status).toBe('done');

      const videos = (await api.get('/videos?per_page=100')).body;
      expect(videos.meta.total).toBe(2);
      expect(videos.data.filter((v: { job_id: number }) => v.job_id === previewId)).toHaveLength(1);
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });
    },
    JOB_TEST_MS,
  );
});

describe('allowance (402 allowance_exhausted)', () => {
  test(
    'a free account (3 videos): three jobs are accepted, the fourth is 402; a regenerate past the allowance is 402 and the preview stays',
    async () => {
      const { api, product } = await freshAccount('free');
      expect(await usage(api)).toMatchObject({ limit: 3, used: 0, reserved: 0, remaining: 3 });
      // One generation; the other two jobs replay its saved reaction, so no more rendering is needed.
      const first = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked' });
      expect(first.status).toBe(202);
      await waitForJob(api, first.body.data.id, ['preview_ready']);
      const saved = await api.post('/reactions', { job_id: first.body.data.id });
      expect(saved.status).toBe(201);
      const reuse = { product_id: product.id, method: 'reuse', mode: 'preview', reaction_id: saved.body.data.id };
      const second = await api.post('/videos', reuse);
      const third = await api.post('/videos', reuse);
      expect([second.status, third.status]).toEqual([202, 202]);
      // The reuse jobs have nothing to generate: either may already be charged, so count both kinds.
      const full = await usage(api);
      expect({ units: full.used + full.reserved, remaining: full.remaining }).toEqual({ units: 3, remaining: 0 });

      const fourth = await api.post('/videos', reuse);
      expectError(fourth, 402, 'allowance_exhausted');
      const after402 = await usage(api);
      expect({ units: after402.used + after402.reserved, remaining: after402.remaining }).toEqual({ units: 3, remaining: 0 });

      await Promise.all([waitForJob(api, second.body.data.id, ['preview_ready']), waitForJob(api, third.body.data.id, ['preview_ready'])]);
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0, remaining: 0 });

      expectError(await api.post(`/videos/jobs/${first.body.data.id}/regenerate`, { prompt: 'laughing' }), 402, 'allowance_exhausted');
      const after = (await api.get(`/videos/jobs/${first.body.data.id}`)).body.data;
      expect(after).toMatchObject({ status: 'preview_ready', regenerations: 0, charged_units: 1, prompt: 'shocked', preview_url: expect.stringMatching(/^https?:\/\//) });
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0 });
      // The preview still approves (it was charged when it became ready).
      expect((await api.post(`/videos/jobs/${first.body.data.id}/approve`, {})).status).toBe(202);
      expect((await waitForJob(api, first.body.data.id, ['done'])).job.charged_units).toBe(1);
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0 });
    },
    JOB_TEST_MS,
  );
});

describe('unknown or foreign ids (404) and invalid input (400)', () => {
  test('ids in the body that do not exist or belong to another account are 404 naming the field; unknown job ids are 404', async () => {
    const { api, product } = await freshAccount();
    const other = await freshAccount();
    const otherAvatar = await other.api.post('/avatars', { prompt: 'a man with a moustache' });
    expect([201, 202]).toContain(otherAvatar.status);

    const cases: [string, Record<string, unknown>][] = [
      ['product_id', { product_id: 987654, method: 'prompt', prompt: 'wow' }],
      ['product_id', { product_id: other.product.id, method: 'prompt', prompt: 'wow' }],
      ['avatar_id', { product_id: product.id, method: 'prompt', prompt: 'wow', avatar_id: 987654 }],
      ['avatar_id', { product_id: product.id, method: 'prompt', prompt: 'wow', avatar_id: otherAvatar.body.data.id }],
      ['avatar_id', { product_id: product.id, method: 'motion', avatar_id: 987654, video_source: 'link', reference_url: `https://${CDN}/video/tos/face.mp4` }],
      ['reaction_id', { product_id: product.id, method: 'reuse', reaction_id: 987654 }],
    ];
    for (const [field, body] of cases) {
      const res = await api.post('/videos', body);
      expectError(res, 404, 'not_found');
      expect({ field, message: res.body.error }).toEqual({ field, message: expect.stringContaining(field) });
    }
    expectError(await api.get('/videos/jobs/987654'), 404, 'not_found');
    expectError(await api.post('/videos/jobs/987654/approve', {}), 404, 'not_found');
    expectError(await api.post('/videos/jobs/987654/regenerate', {}), 404, 'not_found');
    expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
  });

  test('a job of another account is 404 on GET, approve and regenerate', async () => {
    const { api, product } = await freshAccount();
    const other = await freshAccount();
    const res = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'wow' });
    expect(res.status).toBe(202);
    const id = res.body.data.id;
    expectError(await other.api.get(`/videos/jobs/${id}`), 404, 'not_found');
    expectError(await other.api.post(`/videos/jobs/${id}/approve`, {}), 404, 'not_found');
    expectError(await other.api.post(`/videos/jobs/${id}/regenerate`, {}), 404, 'not_found');
    // Let it settle so it does not render into the next test.
    await waitForJob(api, id, ['preview_ready']);
  }, JOB_TEST_MS);

  test("GET /videos/jobs lists the account's own jobs newest first, in slices continued by meta.next_before; bad limits are 400", async () => {
    const { api, product } = await freshAccount();
    const other = await freshAccount();
    const ids: number[] = [];
    for (const prompt of ['first', 'second']) {
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt });
      expect(res.status).toBe(202);
      ids.push(res.body.data.id);
    }
    const first = await api.get('/videos/jobs?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.data.map((job: { id: number; prompt: string }) => [job.id, job.prompt])).toEqual([[ids[1], 'second']]);
    expect(first.body.meta).toEqual({ limit: 1, next_before: ids[1] });
    const second = await api.get(`/videos/jobs?limit=1&before=${first.body.meta.next_before}`);
    expect(second.body.data.map((job: { id: number }) => job.id)).toEqual([ids[0]]);
    expect(second.body.meta).toEqual({ limit: 1, next_before: null });
    expect((await other.api.get('/videos/jobs')).body).toEqual({ data: [], meta: { limit: 20, next_before: null } });
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'before=0', 'before=-3', 'before=1e3']) expectError(await api.get(`/videos/jobs?${query}`), 400, 'bad_request');
    for (const id of ids) await waitForJob(api, id, ['preview_ready']);
  }, JOB_TEST_MS);

  test('missing or invalid parameters are 400 bad_request and reserve nothing', async () => {
    const { api, accountId, product } = await freshAccount();
    const avatar = await readyAvatar(api);
    const link = `https://${CDN}/video/tos/face.mp4`;
    const cases: [string, Record<string, unknown>][] = [
      ['no method', { product_id: product.id, prompt: 'wow' }],
      ['an unknown method', { product_id: product.id, method: 'dance', prompt: 'wow' }],
      ['no product_id', { method: 'prompt', prompt: 'wow' }],
      ['a product_id that is not an integer', { product_id: 'abc', method: 'prompt', prompt: 'wow' }],
      ['prompt without its prompt', { product_id: product.id, method: 'prompt' }],
      ['hook_text of 101 characters', { product_id: product.id, method: 'prompt', prompt: 'wow', hook_text: 'x'.repeat(101) }],
      ['an unknown hook_position', { product_id: product.id, method: 'prompt', prompt: 'wow', hook_position: 'left' }],
      ['an unknown hook_size', { product_id: product.id, method: 'prompt', prompt: 'wow', hook_size: 'huge' }],
      ['an unknown mode', { product_id: product.id, method: 'prompt', prompt: 'wow', mode: 'later' }],
      ['reaction_id on a prompt job', { product_id: product.id, method: 'prompt', prompt: 'wow', reaction_id: 1 }],
      ['prompt on a reuse job', { product_id: product.id, method: 'reuse', reaction_id: 1, prompt: 'wow' }],
      ['reference_url on a prompt job', { product_id: product.id, method: 'prompt', prompt: 'wow', reference_url: link }],
      ['motion without video_source', { product_id: product.id, method: 'motion', avatar_id: avatar.id }],
      ['video_source=upload without a file', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'upload' }],
      ['video_source=link without reference_url', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link' }],
      ['a reference_url off the allow-list', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: 'https://evil.example.com/clip.mp4' }],
      ['a reference_url over http', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: `http://${CDN}/video/tos/face.mp4` }],
      ['a reference_url on a look-alike host', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: 'https://tiktok.com.evil.com/v.mp4' }],
      ['an unknown field', { product_id: product.id, method: 'prompt', prompt: 'wow', colour: 'red' }],
    ];
    for (const [label, body] of cases) {
      const res = await api.post('/videos', body);
      expect({ label, status: res.status, code: res.body?.code }).toEqual({ label, status: 400, code: 'bad_request' });
      expectError(res, 400, 'bad_request');
    }
    // A field of another method sent as a file part: reference_video on a prompt job.
    const fileOnPrompt = await postMultipart(api, '/videos', { product_id: String(product.id), method: 'prompt', prompt: 'wow' }, { reference_video: someClip });
    expectError(fileOnPrompt, 400, 'bad_request');
    // An Idempotency-Key that is not 1-255 visible ASCII characters.
    for (const key of ['has space', 'x'.repeat(256)]) {
      expectError(await api.send('POST', '/videos', { json: { product_id: product.id, method: 'prompt', prompt: 'wow' }, headers: { 'idempotency-key': key } }), 400, 'bad_request');
    }
    for (const bad of ['abc', '1.5', '0', '-3']) {
      expectError(await api.get(`/videos/jobs/${bad}`), 400, 'bad_request');
      expectError(await api.post(`/videos/jobs/${bad}/approve`, {}), 400, 'bad_request');
      expectError(await api.post(`/videos/jobs/${bad}/regenerate`, {}), 400, 'bad_request');
    }
    expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
    // A refused request leaves no object behind (an uploaded reference clip included).
    expect(await listKeys(`accounts/${accountId}/jobs/`)).toEqual([]);
  }, 120_000);
});

describe('Idempotency-Key', () => {
  test(
    'the same POST twice with one key is one job and one reservation; the key with another body is 409',
    async () => {
      const { api, product } = await freshAccount();
      const key = randomUUID();
      const body = { product_id: product.id, method: 'prompt', prompt: 'shocked by the size', hook_text: 'Same' };
      const first = await api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': key } });
      const second = await api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': key } });
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(second.body.data.id).toBe(first.body.data.id);
      expect([first.headers.get('idempotent-replayed'), second.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
      const during = await usage(api);
      expect(during.used + during.reserved).toBe(1);

      const changed = await api.send('POST', '/videos', { json: { ...body, hook_text: 'Different' }, headers: { 'idempotency-key': key } });
      expectError(changed, 409, 'conflict');

      const { job } = await waitForJob(api, first.body.data.id, ['done']);
      const replay = await api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': key } });
      expect(replay.status).toBe(202);
      expect(replay.body.data).toMatchObject({ id: job.id, status: 'done', video_id: job.video_id });
      // The same request form-encoded, with the defaults spelled out, is still the same request.
      const asForm = new URLSearchParams({ product_id: String(product.id), method: 'prompt', mode: 'auto', prompt: body.prompt, hook_text: body.hook_text, hook_size: 'medium' });
      const formReplay = await api.send('POST', '/videos', {
        body: asForm.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
      });
      expect(formReplay.status).toBe(202);
      expect(formReplay.body.data.id).toBe(job.id);
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
      expect((await api.get('/videos')).body.meta.total).toBe(1);

      // Two identical requests racing with a new key: still one job and one unit.
      const racedKey = randomUUID();
      const raced = await Promise.all([0, 1].map(() => api.send('POST', '/videos', { json: body, headers: { 'idempotency-key': racedKey } })));
      expect(raced.map((r) => r.status)).toEqual([202, 202]);
      expect(raced[1]!.body.data.id).toBe(raced[0]!.body.data.id);
      expect(raced[0]!.body.data.id).not.toBe(job.id);
      const racing = await usage(api);
      expect(racing.used + racing.reserved).toBe(2);
      await waitForJob(api, raced[0]!.body.data.id, ['done']);
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });
      expect((await api.get('/videos')).body.meta.total).toBe(2);
    },
    JOB_TEST_MS,
  );
});

describe('an input deleted while the job runs', () => {
  test(
    'deleting the product right after POST fails the job with input_deleted, releases the unit and leaves no job objects',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'shocked', hook_text: 'Gone' });
      expect(res.status).toBe(202);
      const id = res.body.data.id;
      expect((await api.delete(`/products/${product.id}`)).status).toBe(200);

      const { job, observed } = await waitForJob(api, id, ['failed']);
      expectProgressNeverDecreases(observed);
      expect(job).toMatchObject({ status: 'failed', stage: 'failed', video_id: null, charged_units: 0, error: { code: 'input_deleted', message: expect.any(String) } });
      expect(job.error.message.length).toBeGreaterThan(10);
      expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
      expect(await listKeys(`accounts/${accountId}/jobs/${id}/`)).toEqual([]);
      expect((await api.get('/videos')).body.meta.total).toBe(0);
    },
    JOB_TEST_MS,
  );

  test(
    'deleting the avatar while its job waits, or the saved reaction of a reuse job, fails each job with input_deleted and releases its unit',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const avatar = await readyAvatar(api, 'a man with a beard and a red hoodie');
      const withAvatar = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', avatar_id: avatar.id, prompt: 'amazed' });
      expect(withAvatar.status).toBe(202);
      const preview = (await waitForJob(api, withAvatar.body.data.id, ['preview_ready'])).job;
      const saved = await api.post('/reactions', { job_id: preview.id });
      expect(saved.status).toBe(201);

      // The avatar goes while the preview waits; it is needed again to generate, so the regenerate fails.
      expect((await api.delete(`/avatars/${avatar.id}`)).status).toBe(200);
      const regenerated = await api.post(`/videos/jobs/${preview.id}/regenerate`, {});
      expect(regenerated.status).toBe(202);
      const gone = (await waitForJob(api, preview.id, ['failed'])).job;
      expect(gone).toMatchObject({ status: 'failed', error: { code: 'input_deleted', message: expect.stringContaining(`Avatar ${avatar.id}`) } });
      // The first preview was delivered and stays charged; the regeneration's unit is given back.
      expect(gone.charged_units).toBe(1);
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });

      // A reuse preview waits for approval; its saved reaction goes meanwhile, and approving fails it.
      const reuse = await api.post('/videos', { product_id: product.id, method: 'reuse', mode: 'preview', reaction_id: saved.body.data.id, hook_text: 'Again' });
      expect(reuse.status).toBe(202);
      await waitForJob(api, reuse.body.data.id, ['preview_ready']);
      expect((await api.delete(`/reactions/${saved.body.data.id}`)).status).toBe(200);
      expect((await api.post(`/videos/jobs/${reuse.body.data.id}/approve`, {})).status).toBe(202);
      const reuseJob = (await waitForJob(api, reuse.body.data.id, ['failed', 'done'])).job;
      expect(reuseJob).toMatchObject({ status: 'failed', video_id: null, error: { code: 'input_deleted', message: expect.stringContaining('Saved reaction') } });
      // Its preview was delivered (charged); nothing more is taken or left reserved.
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });
      for (const id of [preview.id, reuseJob.id]) expect(await listKeys(`accounts/${accountId}/jobs/${id}/`)).toEqual([]);
    },
    JOB_TEST_MS,
  );
});

describe('a preview nobody decides on', () => {
  test(
    'expires: the job fails with preview_expired, its preview charge stays, and approve is then a 409',
    async () => {
      const { api, accountId, product } = await freshAccount();
      // The ASL waits 30 days; the local runner honours a shorter wait (what PREVIEW_EXPIRY_SECONDS gives
      // `npm start`): here a runner whose steps see 3 s.
      const runner = createLocalJobRunner({ ...localPipeline(() => ({ ...t.stack.dependencies, previewWaitS: 3 })) });
      t.runner.use(runner);
      try {
        const res = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked' });
        expect(res.status).toBe(202);
        const ready = (await waitForJob(api, res.body.data.id, ['preview_ready'])).job;
        expect(Date.parse(ready.preview_expires_at) - Date.parse(ready.updated_at)).toBeLessThanOrEqual(4000);
        const expired = (await waitForJob(api, ready.id, ['failed'])).job;
        expect(expired).toMatchObject({ status: 'failed', charged_units: 1, error: { code: 'preview_expired', message: expect.any(String) } });
        expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
        expectError(await api.post(`/videos/jobs/${ready.id}/approve`, {}), 409, 'conflict');
        expect(await listKeys(`accounts/${accountId}/jobs/${ready.id}/`)).toEqual([]);
      } finally {
        t.runner.reset();
        await runner.stop();
      }
    },
    JOB_TEST_MS,
  );
});
