/**
 * Video jobs end to end, the rendering half (the rules around jobs are in video-job-rules.test.ts),
 * as specifications (docs/decisions.md, Video jobs): POST /videos through
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
import { jobObjectKeys } from '#domain/jobs';
import { audioLevels } from '#test-support/audio-levels';
import { makeFixture, makeTempDir } from '#test-support/media-fixtures';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { CDN, JOB_TEST_MS, videoJobAccounts } from '#test-support/video-job-accounts';
import {
  changedPerThird,
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
const { abs, max } = Math;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const REACTION_MIN_S = 3;
const REACTION_MAX_S = 5;
const DURATION_SLACK_S = 0.1;

// The reference-clip CDN host the link tests name (CDN) is served by a loopback server.
const PUBLIC_IP = '93.184.216.34';

let t: TestStack;

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

/** The face box a job's caption was kept clear of, as the job keeps it with its reaction. */
const faceBoxOf = async (accountId: number, jobId: number) => (await t.stack.dependencies.jobs.get(accountId, jobId))?.reaction?.face_box ?? null;
const peakOf = async (accountId: number, jobId: number) => (await t.stack.dependencies.jobs.get(accountId, jobId))?.reaction?.peak_s ?? null;

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

const { freshAccount, readyAvatar, usage, listKeys } = videoJobAccounts(() => t);

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
      expect(abs(media.durationS! - video.duration_s)).toBeLessThanOrEqual(DURATION_SLACK_S);
      const reactionS = video.duration_s - demoS;
      expect(reactionS).toBeGreaterThanOrEqual(REACTION_MIN_S - DURATION_SLACK_S);
      expect(reactionS).toBeLessThanOrEqual(REACTION_MAX_S + DURATION_SLACK_S);
      const boxes = await topLevelBoxes(mp4.file);
      expect(boxes).toContain('moov');
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

      const poster = await fetchTo(video.thumbnail_url, 'poster.jpg');
      expect(await sharp(poster.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1920 });

      await expectCaptionIn(await frameAt(mp4.file, 1), 'Wait for it... you will need this one', 'top', undefined, await faceBoxOf(demoAuto.accountId, job.id));

      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
      expect((await api.get(`/videos/jobs/${job.id}`)).body.data.charged_units).toBe(1);
      // An auto job shows no preview, so it has no takes.
      expect((await api.get(`/videos/jobs/${job.id}/takes`)).body).toEqual({ data: [] });
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
      expect(abs(media.durationS! - video.duration_s)).toBeLessThanOrEqual(DURATION_SLACK_S);
      await expectCaptionIn(await frameAt(mp4.file, 1), 'Now look at this one, seriously', 'bottom');
      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
    },
    JOB_TEST_MS,
  );

  test(
    'with a voice line: the finished video speaks it in its first seconds (the local engine\'s espeak-ng voice)',
    async () => {
      const { api, product } = await freshAccount();
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', prompt: 'shocked', voice_line: 'No way, this actually works!' });
      expect(res.status).toBe(202);
      expect(res.body.data.voice_line).toBe('No way, this actually works!');
      const { job } = await waitForJob(api, res.body.data.id, ['done']);
      const video = await getVideo(api, job.video_id);
      const mp4 = await fetchTo(video.url, 'video.mp4');
      expectCanonical(await probe(mp4.file));
      // The line starts about 0.3 s in and lasts well over a second.
      expect((await audioLevels(mp4.file, { fromS: 0.4, lengthS: 1.2 })).mean).toBeGreaterThan(-35);
    },
    JOB_TEST_MS,
  );
});

describe('mode preview, approve and regenerate', () => {
  test(
    'stops at preview_ready with a playable captioned preview, charged once; approve with hook overrides moves the caption and charges nothing',
    async () => {
      const { api, accountId, product } = await freshAccount();
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
      await expectCaptionIn(previewFrame, 'Wait for it... you will need this one', 'top', undefined, await faceBoxOf(accountId, job.id));

      // The reaction's peak without its caption, to draw a changed caption over before approving: the
      // preview's frame at the same instant, but for the caption.
      expect(job.preview_still_url).toMatch(/^https?:\/\//);
      const still = await fetchTo(job.preview_still_url, 'still.jpg');
      expect(await sharp(still.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1080, height: 1920 });
      const peakS = await peakOf(accountId, job.id);
      expect(peakS).toEqual(expect.any(Number));
      const stillRgb = await sharp(still.bytes).removeAlpha().raw().toBuffer();
      // Seeking two encodes to one instant may land a frame apart, and the hand-held camera moves every
      // pixel from one frame to the next: the still must match the preview at the peak or a frame beside it.
      const nearPeak = await Promise.all([-1, 0, 1].map((frames) => frameAt(preview.file, max(0, peakS! + frames / 30))));
      const middleChange = (frame: Buffer) => changedPerThird(stillRgb, frame).middle;
      const closest = nearPeak.reduce((best, frame) => (middleChange(frame) < middleChange(best) ? frame : best));
      expectDifferenceOnlyIn(stillRgb, closest, ['top']);

      const approved = await api.post(`/videos/jobs/${job.id}/approve`, { hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(approved.status).toBe(202);
      expect(approved.body.data).toMatchObject({ id: job.id, hook_text: 'Now look at this one, seriously', hook_position: 'bottom' });
      expect(['queued', 'processing', 'done']).toContain(approved.body.data.status);
      // Once approved it is no longer waiting: a second decision is a conflict.
      expectError(await api.post(`/videos/jobs/${job.id}/approve`, {}), 409, 'conflict');
      expectError(await api.post(`/videos/jobs/${job.id}/regenerate`, { prompt: 'laughing' }), 409, 'conflict');

      const { job: done } = await waitForJob(api, job.id, ['done'], { observed });
      expectProgressNeverDecreases(observed);
      expect(done).toMatchObject({ status: 'done', video_id: expect.any(Number), charged_units: 1, hook_text: 'Now look at this one, seriously', hook_position: 'bottom', preview_url: null, preview_still_url: null });

      const video = await getVideo(api, done.video_id);
      const mp4 = await fetchTo(video.url, 'video.mp4');
      const media = await probe(mp4.file);
      expectCanonical(media);
      // No demo: the finished video is the (re-captioned) reaction, as long as the preview.
      expect(abs(media.durationS! - previewMedia.durationS!)).toBeLessThanOrEqual(DURATION_SLACK_S);
      const finalFrame = await frameAt(mp4.file, 1);
      await expectCaptionIn(finalFrame, 'Now look at this one, seriously', 'bottom');
      // Same reaction under both: the pictures differ where the caption left and where it went, not in between.
      expectDifferenceOnlyIn(previewFrame, finalFrame, ['top', 'bottom']);

      expect(await usage(api)).toMatchObject({ used: 1, reserved: 0 });
    },
    JOB_TEST_MS,
  );

  test(
    'regenerate re-rolls the preview with a new prompt for one more unit and keeps the first take; approving take 1 finishes the video from take 1 with no further charge',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const res = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked by the price', hook_text: 'Wait for it' });
      expect(res.status).toBe(202);
      const id = res.body.data.id;
      const observed: Observation[] = [];
      const first = (await waitForJob(api, id, ['preview_ready'], { observed })).job;
      const firstPreview = await fetchTo(first.preview_url, 'preview-1.mp4');
      expect((await api.get(`/videos/jobs/${id}/takes`)).body.data).toEqual([expect.objectContaining({ take: 1, current: true })]);

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

      // Both takes are kept, oldest first, each with the prompt that made it; both play, and they differ.
      const listed = await api.get(`/videos/jobs/${id}/takes`);
      expect(listed.status).toBe(200);
      const takes = listed.body.data;
      expect(takes.map((take: any) => [take.take, take.current, take.options.prompt, take.options.hook_text])).toEqual([
        [1, false, 'shocked by the price', 'Wait for it'],
        [2, true, 'laughing so hard at this', 'Wait for it'],
      ]);
      expect(Date.parse(takes[0].created_at)).toBeLessThan(Date.parse(takes[1].created_at));
      const [take1, take2] = await Promise.all([fetchTo(takes[0].preview_url, 'take-1.mp4'), fetchTo(takes[1].preview_url, 'take-2.mp4')]);
      expect(sha256(take1.bytes)).toBe(sha256(firstPreview.bytes));
      expect(sha256(take2.bytes)).toBe(sha256(secondPreview.bytes));
      expect(takes[0].preview_still_url).toMatch(/^https?:\/\//);
      expect((await fetchTo(takes[0].preview_still_url, 'take-1.jpg')).bytes.length).toBeGreaterThan(0);
      // Unknown and foreign jobs have no takes to list.
      expectError(await api.get('/videos/jobs/999999/takes'), 404, 'not_found');
      expectError(await demoAuto.api.get(`/videos/jobs/${id}/takes`), 404, 'not_found');

      // A take the job does not have is refused, naming the field, and the job still waits.
      const refused = await api.post(`/videos/jobs/${id}/approve`, { take: 3 });
      expectError(refused, 400, 'bad_request');
      expect(refused.body.param).toBe('take');
      expect((await api.get(`/videos/jobs/${id}`)).body.data.status).toBe('preview_ready');

      const approved = await api.post(`/videos/jobs/${id}/approve`, { take: 1 });
      expect(approved.status).toBe(202);
      // The job takes back the inputs of the take it finishes.
      expect(approved.body.data).toMatchObject({ prompt: 'shocked by the price' });
      const done = (await waitForJob(api, id, ['done'], { observed })).job;
      expectProgressNeverDecreases(observed);
      expect(done).toMatchObject({ status: 'done', video_id: expect.any(Number), charged_units: 2, regenerations: 1, prompt: 'shocked by the price' });
      expect(await usage(api)).toMatchObject({ used: 2, reserved: 0 });

      // The video is take 1's: composed from its reaction clip, and (caption unchanged, no demo) its
      // pictures are take 1's preview pictures, not take 2's.
      expect((await t.stack.dependencies.jobs.get(accountId, id))?.reaction?.key).toBe(jobObjectKeys(accountId, id, 0).reaction);
      const mp4 = await fetchTo((await getVideo(api, done.video_id)).url, 'video.mp4');
      expect(abs((await probe(mp4.file)).durationS! - (await probe(take1.file)).durationS!)).toBeLessThanOrEqual(DURATION_SLACK_S);
      const [finalFrame, take1Frame, take2Frame] = await Promise.all([frameAt(mp4.file, 1), frameAt(take1.file, 1), frameAt(take2.file, 1)]);
      const changed = (a: Buffer, b: Buffer) => Object.values(changedPerThird(a, b)).reduce((sum, n) => sum + n, 0);
      const fromTake2 = changed(finalFrame, take2Frame);
      expect(fromTake2).toBeGreaterThan(3000);
      expect(changed(finalFrame, take1Frame)).toBeLessThan(fromTake2 / 20);
      // The record of the takes outlives their files, which went with the job's working files.
      expect((await api.get(`/videos/jobs/${id}/takes`)).body.data.map((take: any) => [take.take, take.current, take.preview_url])).toEqual([
        [1, true, null],
        [2, false, null],
      ]);
      expect(await listKeys(`accounts/${accountId}/jobs/${id}/`)).toEqual([]);
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
    'video_source=link (auto): the allowed link is fetched once, at the door; the reaction follows its length, the job ends done',
    async () => {
      const { api, product, avatar } = linkAccount;
      const referenceUrl = `https://${CDN}/video/tos/face.mp4`;
      const res = await api.post('/videos', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: referenceUrl, hook_text: 'Copy me' });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: referenceUrl, prompt: null });
      // Fetched and judged at the door: the render used the stored clip and never fetched the link again.
      expect(refRequests.filter((request) => request === `${CDN}/video/tos/face.mp4`)).toHaveLength(1);
      const { job, observed } = await waitForJob(api, res.body.data.id, ['done']);
      expectProgressNeverDecreases(observed);
      expect(refRequests.filter((request) => request === `${CDN}/video/tos/face.mp4`)).toHaveLength(1);
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
    'an uploaded clip with no face is refused at the door (422 no_face): no job, no unit, no object',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const avatar = await readyAvatar(api);
      const res = await postMultipart(
        api,
        '/videos',
        { product_id: String(product.id), method: 'motion', avatar_id: String(avatar.id), video_source: 'upload' },
        { reference_video: await makeFixture('vertical-mp4') },
      );
      expectError(res, 422, 'no_face');
      expect(res.body.error).toMatch(/could not find a face in this clip/);
      expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
      expect((await api.get('/videos/jobs')).body.data).toEqual([]);
      expect(await listKeys(`accounts/${accountId}/jobs/`)).toEqual([]);
    },
    JOB_TEST_MS,
  );

  test(
    'a linked clip with no face is refused at the door too (422 no_face naming reference_url): fetched once; no job, no unit, no object',
    async () => {
      const { api, accountId, product } = await freshAccount();
      const avatar = await readyAvatar(api);
      const route = `${CDN}/video/tos/no-face.mp4`;
      refRoutes.set(route, await fsp.readFile(await makeFixture('vertical-mp4')));
      const res = await api.post('/videos', { product_id: product.id, method: 'motion', avatar_id: avatar.id, video_source: 'link', reference_url: `https://${route}` });
      expectError(res, 422, 'no_face');
      expect(res.body.error).toMatch(/^reference_url: we could not find a face in this clip/);
      expect(refRequests.filter((request) => request === route)).toHaveLength(1);
      expect(await usage(api)).toMatchObject({ used: 0, reserved: 0 });
      expect((await api.get('/videos/jobs')).body.data).toEqual([]);
      expect(await listKeys(`accounts/${accountId}/jobs/`)).toEqual([]);
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
      const { job: reused, observed } = await waitForJob(api, reuse.body.data.id, ['done']);
      expectProgressNeverDecreases(observed);
      expect(observed.map((o) => o.stage)).not.toContain('generating_reaction');
      expect(reused).toMatchObject({ status: 'done', charged_units: 1, video_id: expect.any(Number) });
      const video = await getVideo(api, reused.video_id);
      expect(abs(video.duration_s - (reaction.duration_s + product.demo_video.duration_s))).toBeLessThanOrEqual(DURATION_SLACK_S);
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
