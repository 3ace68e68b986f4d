/**
 * The saved-reaction library through the local HTTP server. Jobs are seeded straight into the table
 * (at preview_ready, with a real MP4 as their reaction clip), so these tests need no pipeline.
 */
import { readFile } from 'node:fs/promises';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#adapters/dynamodb/keys';
import { jobObjectKeys, type Job, type JobStatus } from '#domain/jobs';
import { makeFixture } from '#test-support/media-fixtures';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';

let t: TestStack;
let clipPath: string;
let clipBytes: Buffer;
beforeAll(async () => {
  [t, clipPath] = await Promise.all([startTestStack({ renders: 'real' }), makeFixture('vertical-mp4')]);
  clipBytes = await readFile(clipPath);
});
afterAll(() => t?.stop());

/** A job as the pipeline leaves it at preview_ready: its round's reaction clip in the bucket. */
async function seedJob(accountId: number, fields: Partial<Job> = {}): Promise<Job> {
  const id = await t.stack.dependencies.jobs.newJobId(accountId);
  const now = new Date().toISOString();
  const clipKey = jobObjectKeys(accountId, id, 0).reaction;
  await t.stack.dependencies.blobs.putFile(clipKey, clipPath, 'video/mp4');
  const job: Job = {
    id,
    account_id: accountId,
    status: 'preview_ready',
    stage: 'awaiting_approval',
    progress: 70,
    method: 'prompt',
    mode: 'preview',
    product_id: 1,
    avatar_id: null,
    reaction_id: null,
    prompt: 'shocked by how cheap it is',
    video_source: null,
    reference_url: null,
    reference_key: null,
    hook_text: 'wait for it',
    hook_position: 'top',
    hook_size: 'medium',
    seed: 7,
    regenerations: 0,
    charged_units: 1,
    reaction: { key: clipKey, duration_s: 2, emotion: 'shocked', engine: 'local', seed: 7 },
    preview: null,
    preview_expires_at: null,
    video_id: null,
    error: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
  await t.stack.table.client.send(new PutCommand({ TableName: t.stack.table.name, Item: { ...keys.job(accountId, id), type: 'job', ...job } }));
  return job;
}

async function moveJob(accountId: number, jobId: number, status: JobStatus) {
  await t.stack.table.client.send(
    new UpdateCommand({
      TableName: t.stack.table.name,
      Key: keys.job(accountId, jobId),
      UpdateExpression: 'SET #status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    }),
  );
}

const save = (api: ApiClient, jobId: unknown) => api.post('/reactions', { job_id: jobId });
const reactionObjects = (accountId: number) => t.stack.dependencies.blobs.listKeys(`accounts/${accountId}/reactions/`);
const libraryUsage = async (api: ApiClient) => (await api.get('/usage')).body.data.library;

async function download(url: string) {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

describe('saving a reaction from a preview job', () => {
  test('answers 201 with the reaction, whose clip_url downloads the MP4', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const res = await save(api, job.id);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      job_id: job.id,
      method: 'prompt',
      avatar_id: null,
      prompt: 'shocked by how cheap it is',
      clip_url: expect.stringMatching(/^http/),
      clip_url_expires_at: expect.stringMatching(/Z$/),
      duration_s: 2,
      emotion: 'shocked',
      test: false,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(res.body.data.clip_url_expires_at)).toBeGreaterThan(Date.now() + 3600_000);
    const clip = await download(res.body.data.clip_url);
    expect(clip.status).toBe(200);
    expect(clip.type).toBe('video/mp4');
    expect(clip.bytes.equals(clipBytes)).toBe(true);
  });

  test('the library keeps its own copy of the clip, not the job’s', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const res = await save(api, job.id);
    expect(await reactionObjects(accountId)).toEqual([`accounts/${accountId}/reactions/${res.body.data.id}/clip.mp4`]);
    expect(res.body.data.clip_url).not.toContain(`/jobs/${job.id}/`);
  });

  test('is idempotent per job: a repeat answers 200 with the same reaction, even after the job moved on', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const first = await save(api, job.id);
    expect(first.status).toBe(201);
    const again = await save(api, job.id);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    await moveJob(accountId, job.id, 'done');
    const afterDone = await save(api, job.id);
    expect(afterDone.status).toBe(200);
    expect(afterDone.body.data.id).toBe(first.body.data.id);
    expect((await api.get('/reactions')).body.data).toHaveLength(1);
    expect(await reactionObjects(accountId)).toHaveLength(1);
    expect((await libraryUsage(api)).used).toBe(1);
  });

  test('concurrent saves of one job make one reaction and one clip', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const results = await Promise.all(Array.from({ length: 5 }, () => save(api, job.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await reactionObjects(accountId)).toHaveLength(1);
    expect((await libraryUsage(api)).used).toBe(1);
  });

  test('accepts a form-encoded body', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const res = await api.send('POST', '/reactions', {
      body: `job_id=${job.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.job_id).toBe(job.id);
  });

  test.each<JobStatus>(['queued', 'processing', 'done', 'failed'])(
    'a job that is %s with no saved reaction is a 409 conflict, and nothing is stored',
    async (status) => {
      const { accountId, api } = await t.newAccount();
      const job = await seedJob(accountId, { status });
      const res = await save(api, job.id);
      expectError(res, 409, 'conflict');
      expect(res.body.error).toMatch(/preview_ready/);
      expect((await api.get('/reactions')).body.data).toEqual([]);
      expect(await reactionObjects(accountId)).toEqual([]);
      expect((await libraryUsage(api)).used).toBe(0);
    },
  );

  test('a preview job whose clip is not there yet is a 409 conflict', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId, { reaction: null });
    expectError(await save(api, job.id), 409, 'conflict');
  });

  test('a preview job whose clip has vanished from the bucket is a 409 conflict, and nothing is stored', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    await t.stack.dependencies.blobs.deleteKeys([job.reaction!.key]);
    expectError(await save(api, job.id), 409, 'conflict');
    expect((await api.get('/reactions')).body.data).toEqual([]);
    expect((await libraryUsage(api)).used).toBe(0);
  });

  test('an unknown job_id is a 404 naming the field', async () => {
    const { api } = await t.newAccount();
    const res = await save(api, 987_654_321);
    expectError(res, 404, 'not_found');
    expect(res.body.error).toMatch(/job_id/);
  });

  test('another account’s job is a 404, and its library is untouched', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const job = await seedJob(owner.accountId);
    const res = await save(stranger.api, job.id);
    expectError(res, 404, 'not_found');
    expect(res.body.error).toMatch(/job_id/);
    // The owner can still save it: the stranger's attempt left no marker.
    expect((await save(owner.api, job.id)).status).toBe(201);
    expect(await reactionObjects(stranger.accountId)).toEqual([]);
  });

  test.each([
    ['missing job_id', {}],
    ['a string job_id', { job_id: 'abc' }],
    ['a negative job_id', { job_id: -1 }],
    ['a fractional job_id', { job_id: 1.5 }],
    ['a null job_id', { job_id: null }],
    ['an unknown field', { job_id: 1, extra: true }],
  ])('%s is a 400 bad_request', async (_label, body) => {
    const { api } = await t.newAccount();
    const res = await api.post('/reactions', body);
    expectError(res, 400, 'bad_request');
  });

  test('a body that is not JSON is a 400', async () => {
    const { api } = await t.newAccount();
    expectError(await api.send('POST', '/reactions', { body: '{"job_id":', headers: { 'content-type': 'application/json' } }), 400, 'bad_request');
  });
});

describe('the library cap', () => {
  test('the free plan holds 3: the fourth save is 402 library_full and leaves nothing; a delete frees a slot', async () => {
    const { accountId, api } = await t.newAccount({ plan: 'free' });
    const jobs = await Promise.all(Array.from({ length: 4 }, () => seedJob(accountId)));
    const saved = [];
    for (const job of jobs.slice(0, 3)) {
      const res = await save(api, job.id);
      expect(res.status).toBe(201);
      saved.push(res.body.data);
    }
    expect(await libraryUsage(api)).toEqual({ used: 3, cap: 3, remaining: 0 });

    const refused = await save(api, jobs[3]!.id);
    expectError(refused, 402, 'library_full');
    expect(refused.body.error).toMatch(/3/);
    expect(refused.body.error).toMatch(/delete/i);
    expect(await reactionObjects(accountId)).toHaveLength(3);

    // A saved job still answers with its reaction at the cap.
    expect((await save(api, jobs[0]!.id)).status).toBe(200);

    const removed = await api.delete(`/reactions/${saved[1].id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: saved[1].id, deleted: true });
    expect(await libraryUsage(api)).toEqual({ used: 2, cap: 3, remaining: 1 });

    expect((await save(api, jobs[3]!.id)).status).toBe(201);
    expect(await libraryUsage(api)).toEqual({ used: 3, cap: 3, remaining: 0 });
  });

  test('parallel saves from different jobs never pass the cap', async () => {
    const { accountId, api } = await t.newAccount({ plan: 'free' });
    const jobs = await Promise.all(Array.from({ length: 6 }, () => seedJob(accountId)));
    const results = await Promise.all(jobs.map((job) => save(api, job.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 402, 'library_full');
    expect(await reactionObjects(accountId)).toHaveLength(3);
    expect((await api.get('/reactions')).body.data).toHaveLength(3);
    expect((await libraryUsage(api)).used).toBe(3);
  });
});

describe('reading and deleting saved reactions', () => {
  test('the list is the full library, newest first, with no meta', async () => {
    const { accountId, api } = await t.newAccount();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await save(api, (await seedJob(accountId)).id)).body.data.id);
    const res = await api.get('/reactions');
    expect(res.status).toBe(200);
    expect(res.body.meta).toBeUndefined();
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual(ids.reverse());
  });

  test('GET /reactions/{id} answers the reaction with a playable clip', async () => {
    const { accountId, api } = await t.newAccount();
    const saved = (await save(api, (await seedJob(accountId)).id)).body.data;
    const res = await api.get(`/reactions/${saved.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...saved, clip_url: expect.any(String), clip_url_expires_at: expect.any(String) });
    expect((await download(res.body.data.clip_url)).bytes.equals(clipBytes)).toBe(true);
  });

  test('DELETE removes the record and the clip, and the job can be saved again', async () => {
    const { accountId, api } = await t.newAccount();
    const job = await seedJob(accountId);
    const saved = (await save(api, job.id)).body.data;
    const res = await api.delete(`/reactions/${saved.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: saved.id, deleted: true });
    expectError(await api.get(`/reactions/${saved.id}`), 404, 'not_found');
    expectError(await api.delete(`/reactions/${saved.id}`), 404, 'not_found');
    expect((await download(saved.clip_url)).status).toBe(404);
    expect(await reactionObjects(accountId)).toEqual([]);
    expect((await libraryUsage(api)).used).toBe(0);
    const again = await save(api, job.id);
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(saved.id);
  });

  test('another account’s reaction is a 404 to read and to delete, and survives', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const saved = (await save(owner.api, (await seedJob(owner.accountId)).id)).body.data;
    expectError(await stranger.api.get(`/reactions/${saved.id}`), 404, 'not_found');
    expectError(await stranger.api.delete(`/reactions/${saved.id}`), 404, 'not_found');
    expect((await stranger.api.get('/reactions')).body.data).toEqual([]);
    expect((await owner.api.get(`/reactions/${saved.id}`)).status).toBe(200);
    expect((await download(saved.clip_url)).status).toBe(200);
  });

  test('a non-integer id is a 400', async () => {
    const { api } = await t.newAccount();
    expectError(await api.get('/reactions/abc'), 400, 'bad_request');
    expectError(await api.delete('/reactions/1.5'), 400, 'bad_request');
  });
});
