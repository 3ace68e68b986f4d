/**
 * Video jobs end to end, as specifications (docs/decisions.md, Video jobs): POST /videos through
 * the local HTTP server, the in-process Step Functions runner executing the ASL with the real
 * pipeline steps (local engine, ffmpeg, DynamoDB Local, s3rver), and the
 * results checked as a client would: the job polled until it settles, the MP4 downloaded and probed,
 * the caption found by its pixels, the allowance read back from GET /usage.
 *
 * Each test uses its own account (exact usage numbers, and the 120 requests/min rate limit), with
 * the slow fixtures (products with a normalised demo, avatars, face reference clips) made once in
 * beforeAll.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import sharp from 'sharp';
import { createDirectMediaResolver, type HostLookup, type HttpsTransport } from '#adapters/reference/direct-media-resolver';
import type { ReferenceResolver } from '#ports/reference-resolver';
import { makeFixture, makeTempDir } from '#test-support/media-fixtures';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { createLocalJobRunner } from '#local/job-runner';
import { localPipeline } from '#local/pipeline-steps';
import {
  download,
  expectCanonical,
  expectCaptionIn,
  expectDifferenceOnlyIn,
  expectProgressNeverDecreases,
  faceReferenceClip,
  frameAt,
  getWithRetry,
  postMultipart,
  probe,
  productWithDemo,
  sha256,
  topLevelBoxes,
  waitForJob,
  type Observation,
} from '#test-support/jobs';

/** A job renders a 3-5 s reaction (and maybe a preview and a composition) on 2 shared cores. */
const JOB_TEST_MS = 300_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const REACTION_MIN_S = 3;
const REACTION_MAX_S = 5;
const DURATION_SLACK_S = 0.1;

/** The reference-clip CDN host the link tests name (on the allow-list), served by a loopback server. */
const CDN = 'v16m.tiktokcdn.com';
const PUBLIC_IP = '93.184.216.34';

let t: TestStack;

/** The stack's stored objects under `prefix`. */
const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);
let dir: string;
let refServer: http.Server;
let refPort: number;
const refRoutes = new Map<string, Buffer>();
const refRequests: string[] = [];
let referenceDouble: ReferenceResolver | undefined;
/** Face clips for method=motion: 3.5 s (the first reference) and 4.5 s (the swapped-in one). */
let faceShort: string;
let faceLong: string;

/** Accounts whose product has a demo, normalised once here (the slow part of their setup). */
let demoAuto: { api: ApiClient; accountId: number; product: any };
let demoReuse: { api: ApiClient; accountId: number; product: any };

beforeAll(async () => {
  // The stack's resolver is made below, once the loopback server it reaches is listening.
  const references: ReferenceResolver = { name: 'loopback', resolve: (url, options) => referenceDouble!.resolve(url, options) };
  [t, dir] = await Promise.all([startTestStack({ renders: 'real', adjustDependencies: (built) => ({ ...built, references }) }), makeTempDir('video-jobs-e2e-')]);

  // A reference link is fetched by the real direct-media resolver: the allowed host "resolves" to a
  // public address, and what production would send over https goes to this loopback server instead.
  refServer = http.createServer((req, res) => {
    refRequests.push(`${req.headers.host}${req.url}`);
    const body = refRoutes.get(`${req.headers.host}${req.url}`);
    if (!body) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => refServer.listen(0, '127.0.0.1', resolve));
  refPort = (refServer.address() as AddressInfo).port;
  const lookup: HostLookup = async (host) => {
    if (host !== CDN) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: PUBLIC_IP, family: 4 }];
  };
  const transport: HttpsTransport = (options) =>
    http.request({ host: '127.0.0.1', port: refPort, method: options.method, path: options.path, headers: options.headers, signal: options.signal, timeout: options.timeout, agent: false });
  referenceDouble = createDirectMediaResolver({ lookup, transport });

  const [a, b] = await Promise.all([t.newAccount(), t.newAccount()]);
  const idle = () => t.stack.tasks.idle();
  const [productA, productB, short, long] = await Promise.all([
    productWithDemo(a.api, idle, { name: 'Glow Serum' }),
    productWithDemo(b.api, idle, { name: 'Desk Lamp' }),
    faceReferenceClip({ durationS: 3.5 }),
    faceReferenceClip({ durationS: 4.5 }),
  ]);
  demoAuto = { ...a, product: productA };
  demoReuse = { ...b, product: productB };
  faceShort = short;
  faceLong = long;
  refRoutes.set(`${CDN}/video/tos/face.mp4`, await fsp.readFile(faceShort));
}, 240_000);

afterEach(async () => {
  // A test that failed half-way must not leave renders running into the next one.
  await t?.stack.jobs.idle();
});

afterAll(async () => {
  await t?.stop();
  if (refServer) {
    refServer.closeAllConnections();
    await new Promise((resolve) => refServer.close(resolve));
  }
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

/** A fresh account (its own allowance and rate window) with a product without demo. */
async function freshAccount(plan: 'free' | 'starter' | 'pro' | 'business' = 'pro') {
  const account = await t.newAccount({ plan });
  const res = await account.api.post('/products', { name: 'Plain product', description: 'no demo' });
  expect(res.status).toBe(201);
  return { ...account, product: res.body.data };
}

async function readyAvatar(api: ApiClient, prompt = 'a woman with curly hair and glasses'): Promise<any> {
  const res = await api.post('/avatars', { prompt });
  expect([201, 202]).toContain(res.status);
  for (let i = 0; i < 120; i++) {
    await t.stack.tasks.idle();
    const avatar = (await api.get(`/avatars/${res.body.data.id}`)).body.data;
    if (avatar.status === 'ready') return avatar;
    if (avatar.status === 'failed') throw new Error(`avatar failed: ${JSON.stringify(avatar)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('avatar not ready');
}

const usage = async (api: ApiClient) => {
  const res = await getWithRetry(api, '/usage');
  expect(res.status).toBe(200);
  return res.body.data.allowance as { limit: number; used: number; reserved: number; remaining: number };
};

/** Downloads a URL under the test dir and answers the file path. */
async function fetchTo(url: string, name: string): Promise<{ file: string; bytes: Buffer; contentType: string | null }> {
  const file = path.join(dir, `${randomUUID()}-${name}`);
  const got = await download(url, file);
  expect(got.status).toBe(200);
  return { file, bytes: got.bytes, contentType: got.contentType };
}

async function getVideo(api: ApiClient, id: number) {
  const res = await getWithRetry(api, `/videos/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const futureIso = (value: string) => ISO.test(value) && Date.parse(value) > Date.now();

describe('POST /videos, method prompt, mode auto', () => {
  test(
    'with a demo: 202 queued job, then done with video_id; the MP4 is canonical, faststart, reaction + demo long, captioned in the chosen third; one unit used',
    async () => {
      const { api, product } = demoAuto;
      const res = await api.post('/videos', {
        product_id: product.id,
        method: 'prompt',
        prompt: 'shocked by how good this serum is',
        hook_text: 'Wait for it... you will need this one',
        hook_position: 'top',
      });
      expect(res.status).toBe(202);
      const created = res.body.data;
      // The job record, as created.
      expect(created).toMatchObject({
        id: expect.any(Number),
        status: 'queued',
        stage: 'queued',
        progress: 0,
        method: 'prompt',
        mode: 'auto',
        product_id: product.id,
        avatar_id: null,
        reaction_id: null,
        prompt: 'shocked by how good this serum is',
        hook_text: 'Wait for it... you will need this one',
        hook_position: 'top',
        hook_size: 'medium',
        preview_url: null,
        video_id: null,
        charged_units: 0,
        regenerations: 0,
        error: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect(await usage(api)).toMatchObject({ used: 0, reserved: 1 });

      const { job, observed } = await waitForJob(api, created.id, ['done']);
      expectProgressNeverDecreases(observed);
      expect(job).toMatchObject({ id: created.id, status: 'done', stage: 'done', progress: 100, video_id: expect.any(Number), charged_units: 1, error: null, preview_url: null });

      const video = await getVideo(api, job.video_id);
      expect(video).toMatchObject({
        id: job.video_id,
        job_id: job.id,
        product_id: product.id,
        url: expect.stringMatching(/^https?:\/\//),
        thumbnail_url: expect.stringMatching(/^https?:\/\//),
        width: 1080,
        height: 1920,
        duration_s: expect.any(Number),
        size_bytes: expect.any(Number),
        created_at: expect.stringMatching(ISO),
      });
      expect(futureIso(video.url_expires_at)).toBe(true);

      const mp4 = await fetchTo(video.url, 'video.mp4');
      expect(mp4.contentType).toBe('video/mp4');
      expect(mp4.bytes.length).toBe(video.size_bytes);
      const media = await probe(mp4.file);
      expectCanonical(media);
      const demoS = product.demo_video.duration_s as number;
      expect(Math.abs(media.durationS! - video.duration_s)).toBeLessThanOrEqual(DURATION_SLACK_S);
      const reactionS = video.duration_s - demoS;
      expect(reactionS).toBeGreaterThanOrEqual(REACTION_MIN_S - DURATION_SLACK_S);
      expect(reactionS).toBeLessThanOrEqual(REACTION_MAX_S + DURATION_SLACK_S);
      const boxes = await topLevelBoxes(mp4.file);
      expect(boxes).toContain('moov');
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

      const poster = await fetchTo(video.thumbnail_url, 'poster.jpg');
      expect(await sharp(poster.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1920 });

      await expectCaptionIn(await frameAt(mp4.file, 1), 'Wait for it... you will need this one', 'top');

      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
      expect((await api.get(`/videos/jobs/${job.id}`)).body.data.charged_units).toBe(1);
      // The job's working files (reaction clip, generated avatar) are gone once the video exists.
      expect(await listKeys(`accounts/${demoAuto.accountId}/jobs/${job.id}/`)).toEqual([]);
    },
    JOB_TEST_MS,
  );

  test(
    'without a demo: the video is the reaction alone (3-5 s), canonical',
    async () => {
      const { api, product } = await freshAccount();
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'laughing so hard', hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(res.status).toBe(202);
      const { job, observed } = await waitForJob(api, res.body.data.id, ['done']);
      expectProgressNeverDecreases(observed);
      const video = await getVideo(api, job.video_id);
      expect(video.duration_s).toBeGreaterThanOrEqual(REACTION_MIN_S - DURATION_SLACK_S);
      expect(video.duration_s).toBeLessThanOrEqual(REACTION_MAX_S + DURATION_SLACK_S);
      const mp4 = await fetchTo(video.url, 'video.mp4');
      const media = await probe(mp4.file);
      expectCanonical(media);
      expect(Math.abs(media.durationS! - video.duration_s)).toBeLessThanOrEqual(DURATION_SLACK_S);
      await expectCaptionIn(await frameAt(mp4.file, 1), 'Now look at this one, seriously', 'bottom');
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
    },
    JOB_TEST_MS,
  );
});

describe('mode preview, approve and regenerate', () => {
  test(
    'stops at preview_ready with a playable captioned preview, charged once; approve with hook overrides moves the caption and charges nothing',
    async () => {
      const { api, product } = await freshAccount();
      const res = await api.post('/videos', {
        product_id: product.id,
        method: 'prompt',
        mode: 'preview',
        prompt: 'mind blown by this gadget',
        hook_text: 'Wait for it... you will need this one',
        hook_position: 'top',
      });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ status: 'queued', mode: 'preview', preview_url: null });
      const observed: Observation[] = [];
      const { job } = await waitForJob(api, res.body.data.id, ['preview_ready'], { observed });
      expect(job).toMatchObject({ status: 'preview_ready', preview_url: expect.stringMatching(/^https?:\/\//), video_id: null, charged_units: 1, regenerations: 0, error: null });
      // A preview waits for a decision until a deadline in the future (then it expires).
      expect(futureIso(job.preview_expires_at)).toBe(true);
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });

      const preview = await fetchTo(job.preview_url, 'preview.mp4');
      const previewMedia = await probe(preview.file);
      expectCanonical(previewMedia);
      expect(previewMedia.durationS!).toBeGreaterThanOrEqual(REACTION_MIN_S - DURATION_SLACK_S);
      expect(previewMedia.durationS!).toBeLessThanOrEqual(REACTION_MAX_S + DURATION_SLACK_S);
      const previewFrame = await frameAt(preview.file, 1);
      await expectCaptionIn(previewFrame, 'Wait for it... you will need this one', 'top');

      const approved = await api.post(`/videos/jobs/${job.id}/approve`, { hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(approved.status).toBe(202);
      expect(approved.body.data).toMatchObject({ id: job.id, hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(['queued', 'processing', 'done']).toContain(approved.body.data.status);
      // Once approved it is no longer waiting: a second decision is a conflict.
      expectError(await api.post(`/videos/jobs/${job.id}/approve`, {}), 409, 'conflict');
      expectError(await api.post(`/videos/jobs/${job.id}/regenerate`, { prompt: 'laughing' }), 409, 'conflict');

      const { job: done } = await waitForJob(api, job.id, ['done'], { observed });
      expectProgressNeverDecreases(observed);
      expect(done).toMatchObject({ status: 'done', video_id: expect.any(Number), charged_units: 1, hook_text: 'Now look at this one, seriously', hook_position: 'bottom', preview_url: null });

      const video = await getVideo(api, done.video_id);
      const mp4 = await fetchTo(video.url, 'video.mp4');
      const media = await probe(mp4.file);
      expectCanonical(media);
      // No demo: the finished video is the (re-captioned) reaction, as long as the preview.
      expect(Math.abs(media.durationS! - previewMedia.durationS!)).toBeLessThanOrEqual(DURATION_SLACK_S);
      const finalFrame = await frameAt(mp4.file, 1);
      await expectCaptionIn(finalFrame, 'Now look at this one, seriously', 'bottom');
      // Same reaction under both: the pictures differ where the caption left and where it went, not in between.
      expectDifferenceOnlyIn(previewFrame, finalFrame, ['top', 'bottom']);

      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
    },
    JOB_TEST_MS,
  );

  test(
    'regenerate re-rolls the preview with a new prompt for one more unit; approve then finishes it with no further charge',
    async () => {
      const { api, product } = await freshAccount();
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked by the price', hook_text: 'Wait for it' });
      expect(res.status).toBe(202);
      const id = res.body.data.id;
      const observed: Observation[] = [];
      const first = (await waitForJob(api, id, ['preview_ready'], { observed })).job;
      const firstPreview = await fetchTo(first.preview_url, 'preview-1.mp4');

      const regenerated = await api.post(`/videos/jobs/${id}/regenerate`, { prompt: 'laughing so hard at this' });
      expect(regenerated.status).toBe(202);
      expect(regenerated.body.data).toMatchObject({ id, status: 'queued', regenerations: 1, prompt: 'laughing so hard at this', preview_url: null });
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 1 });

      const second = (await waitForJob(api, id, ['preview_ready'], { observed })).job;
      expect(second).toMatchObject({ status: 'preview_ready', regenerations: 1, charged_units: 2, prompt: 'laughing so hard at this', preview_url: expect.stringMatching(/^https?:\/\//) });
      const secondPreview = await fetchTo(second.preview_url, 'preview-2.mp4');
      expect(new URL(second.preview_url).pathname).not.toBe(new URL(first.preview_url).pathname);
      expect(sha256(secondPreview.bytes)).not.toBe(sha256(firstPreview.bytes));
      expectCanonical(await probe(secondPreview.file));
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });

      expect((await api.post(`/videos/jobs/${id}/approve`, {})).status).toBe(202);
      const done = (await waitForJob(api, id, ['done'], { observed })).job;
      expectProgressNeverDecreases(observed);
      expect(done).toMatchObject({ status: 'done', video_id: expect.any(Number), charged_units: 2, regenerations: 1 });
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });
    },
    JOB_TEST_MS,
  );
});

describe('method motion', () => {
  let linkAccount: { api: ApiClient; product: any; avatar: any };
  let uploadAccount: { api: ApiClient; product: any; avatar: any };

  beforeAll(async () => {
    const [a, b] = await Promise.all([freshAccount(), freshAccount()]);
    const [avatarA, avatarB] = await Promise.all([readyAvatar(a.api), readyAvatar(b.api, 'a man with a beard and a blue hoodie')]);
    linkAccount = { ...a, avatar: avatarA };
    uploadAccount = { ...b, avatar: avatarB };
  }, 120_000);

  test(
    'video_source=link (auto): the allowed link is fetched, the reaction follows its length, the job ends done',
    async () => {
      const { api, product, avatar } = linkAccount;
      const referenceUrl = `https://${CDN}/video/tos/face.mp4`;
      const res = await api.post('/videos', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: referenceUrl, hook_text: 'Copy me' });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: referenceUrl, prompt: null });
      const { job, observed } = await waitForJob(api, res.body.data.id, ['done']);
      expectProgressNeverDecreases(observed);
      expect(refRequests).toContain(`${CDN}/video/tos/face.mp4`);
      const video = await getVideo(api, job.video_id);
      // The reference is 3.5 s: within 3-5 s, so the reaction keeps its length.
      expect(video.duration_s).toBeCloseTo(3.5, 1);
      expectCanonical(await probe((await fetchTo(video.url, 'video.mp4')).file));
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
    },
    JOB_TEST_MS,
  );

  test(
    'video_source=upload (multipart, preview): preview_ready; regenerate with a new uploaded reference_video re-rolls it; approve ends done',
    async () => {
      const { api, product, avatar } = uploadAccount;
      const res = await postMultipart(
        api,
        '/videos',
        { product_id: String(product.id), method: 'motion', mode: 'preview', avatar_id: String(avatar.id), video_source: 'upload', hook_text: 'Do it like this' },
        { reference_video: faceShort },
      );
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ method: 'motion', mode: 'preview', video_source: 'upload', reference_url: null });
      const id = res.body.data.id;
      const observed: Observation[] = [];
      const first = (await waitForJob(api, id, ['preview_ready'], { observed })).job;
      const firstMedia = await probe((await fetchTo(first.preview_url, 'preview-1.mp4')).file);
      expectCanonical(firstMedia);
      expect(firstMedia.durationS!).toBeCloseTo(3.5, 1);

      // Changes a motion job cannot take are 400 and reserve nothing.
      expectError(await api.post(`/videos/jobs/${id}/regenerate`, { prompt: 'laughing' }), 400, 'bad_request');
      expectError(await api.post(`/videos/jobs/${id}/regenerate`, { video_source: 'link', reference_url: 'https://evil.example.com/v.mp4' }), 400, 'bad_request');
      expectError(await api.post(`/videos/jobs/${id}/regenerate`, { video_source: 'upload' }), 400, 'bad_request');
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });

      const regenerated = await postMultipart(api, `/videos/jobs/${id}/regenerate`, {}, { reference_video: faceLong });
      expect(regenerated.status).toBe(202);
      expect(regenerated.body.data).toMatchObject({ id, status: 'queued', regenerations: 1, video_source: 'upload' });
      const second = (await waitForJob(api, id, ['preview_ready'], { observed })).job;
      expect(second).toMatchObject({ regenerations: 1, charged_units: 2 });
      // The new reference is 4.5 s long: the re-rolled reaction follows it.
      const secondMedia = await probe((await fetchTo(second.preview_url, 'preview-2.mp4')).file);
      expect(secondMedia.durationS!).toBeCloseTo(4.5, 1);

      expect((await api.post(`/videos/jobs/${id}/approve`, {})).status).toBe(202);
      const done = (await waitForJob(api, id, ['done'], { observed })).job;
      expectProgressNeverDecreases(observed);
      const video = await getVideo(api, done.video_id);
      expect(video.duration_s).toBeCloseTo(4.5, 1);
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });
    },
    JOB_TEST_MS,
  );
});

describe('a motion reference that cannot drive a reaction', () => {
  test(
    'an uploaded clip with no face fails the job with invalid_input, releases the unit and leaves no job objects',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const avatar = await readyAvatar(api);
      const res = await postMultipart(
        api,
        '/videos',
        { product_id: String(product.id), method: 'motion', avatar_id: String(avatar.id), video_source: 'upload' },
        { reference_video: await makeFixture('vertical-mp4') },
      );
      expect(res.status).toBe(202);
      const { job, observed } = await waitForJob(api, res.body.data.id, ['failed']);
      expectProgressNeverDecreases(observed);
      expect(job).toMatchObject({ status: 'failed', video_id: null, charged_units: 0, error: { code: 'invalid_input', message: expect.stringMatching(/face/i) } });
      expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
      expect(await listKeys(`accounts/${accountId}/jobs/${job.id}/`)).toEqual([]);
    },
    JOB_TEST_MS,
  );
});

describe('save and reuse a reaction', () => {
  test(
    'a preview is saved with POST /reactions; a reuse job (auto) replays it with no generation, clip + demo long, and is charged; a reuse preview cannot be regenerated but approves',
    async () => {
      const { api, product } = demoReuse;
      const source = await api.post('/videos', {
        product_id: product.id,
        method: 'prompt',
        mode: 'preview',
        prompt: 'excited about this lamp',
        hook_text: 'Wait for it... you will need this one',
        hook_position: 'top',
      });
      expect(source.status).toBe(202);
      const sourceJob = (await waitForJob(api, source.body.data.id, ['preview_ready'])).job;

      const saved = await api.post('/reactions', { job_id: sourceJob.id });
      expect(saved.status).toBe(201);
      const reaction = saved.body.data;
      expect(reaction).toMatchObject({ id: expect.any(Number), job_id: sourceJob.id, method: 'prompt', clip_url: expect.stringMatching(/^https?:\/\//), duration_s: expect.any(Number) });
      expect(reaction.duration_s).toBeGreaterThanOrEqual(REACTION_MIN_S);
      expect(reaction.duration_s).toBeLessThanOrEqual(REACTION_MAX_S);
      // Another account cannot name this reaction: 404 naming the field.
      const stranger = await freshAccount();
      const foreign = await stranger.api.post('/videos', { product_id: stranger.product.id, method: 'reuse', reaction_id: reaction.id });
      expectError(foreign, 404, 'not_found');
      expect(foreign.body.error).toContain('reaction_id');
      // The source job is unchanged by the save.
      expect((await api.get(`/videos/jobs/${sourceJob.id}`)).body.data.status).toBe('preview_ready');
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });

      // Reuse, auto: no generation stage; the video is the saved clip, captioned, joined to the demo.
      const reuse = await api.post('/videos', { product_id: product.id, method: 'reuse', reaction_id: reaction.id, hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(reuse.status).toBe(202);
      expect(reuse.body.data).toMatchObject({ method: 'reuse', reaction_id: reaction.id, prompt: null, avatar_id: null });
      const { job: reused, observed } = await waitForJob(api, reuse.body.data.id, ['done'], { intervalMs: 300 });
      expectProgressNeverDecreases(observed);
      expect(observed.map((o) => o.stage)).not.toContain('generating_reaction');
      expect(reused).toMatchObject({ status: 'done', charged_units: 1, video_id: expect.any(Number) });
      const video = await getVideo(api, reused.video_id);
      expect(Math.abs(video.duration_s - (reaction.duration_s + product.demo_video.duration_s))).toBeLessThanOrEqual(DURATION_SLACK_S);
      const mp4 = await fetchTo(video.url, 'reuse.mp4');
      expectCanonical(await probe(mp4.file));
      // The saved clip is the uncaptioned reaction: the reuse shows its own hook only, not the source's.
      const reuseFrame = await frameAt(mp4.file, 1);
      await expectCaptionIn(reuseFrame, 'Now look at this one, seriously', 'bottom');
      const clip = await fetchTo(reaction.clip_url, 'saved-clip.mp4');
      expectDifferenceOnlyIn(await frameAt(clip.file, 1), reuseFrame, ['bottom']);
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });

      // Reuse, preview: a captioned preview of the saved clip; regenerate is 409; approve finishes it.
      const reusePreview = await api.post('/videos', { product_id: product.id, method: 'reuse', mode: 'preview', reaction_id: reaction.id, hook_text: 'Once more' });
      expect(reusePreview.status).toBe(202);
      const waiting = (await waitForJob(api, reusePreview.body.data.id, ['preview_ready'])).job;
      expect(waiting).toMatchObject({ status: 'preview_ready', preview_url: expect.stringMatching(/^https?:\/\//), charged_units: 1 });
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0 });
      expectError(await api.post(`/videos/jobs/${waiting.id}/regenerate`, {}), 409, 'conflict');
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0 });
      expect((await api.post(`/videos/jobs/${waiting.id}/approve`, {})).status).toBe(202);
      const finished = (await waitForJob(api, waiting.id, ['done'])).job;
      expect(finished).toMatchObject({ status: 'done', video_id: expect.any(Number), charged_units: 1, regenerations: 0 });
      expect(await usage(api)).toMatchObject({ used: 3, reserved: 0 });
    },
    JOB_TEST_MS,
  );
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
    const fileOnPrompt = await postMultipart(api, '/videos', { product_id: String(product.id), method: 'prompt', prompt: 'wow' }, { reference_video: faceShort });
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
