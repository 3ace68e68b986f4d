/**
 * Helpers for end-to-end tests that run video jobs through the local HTTP server: polling a job
 * (recording every stage and progress seen), downloading and inspecting the media it produced
 * (MP4 boxes, raw frames, caption pixels), products with a ready demo, and reference clips of a face
 * for method=motion.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { makeReferenceClip, realFacePng } from '#bench/reference-clip';
import { JOB_STAGES } from '#domain/jobs';
import { fileArg, runFfmpeg, probeMedia, type FaceBox, type MediaProbe, renderCaptionPng } from '#render';
import sharp from 'sharp';
import { FIXTURE_DIR, makeFixture, type FixtureKind } from './media-fixtures';
import { heldLogsAboutJob } from './held-logs';
export { topLevelBoxes } from './mp4-boxes';
import type { ApiClient, ApiResponse } from './local-stack';
const { abs, max, min } = Math;

const FRAME_W = 1080;
const FRAME_H = 1920;
/** Rows of each third of the 1080x1920 frame: where hook_position puts the caption. */
const THIRDS = { top: [0, 640], middle: [640, 1280], bottom: [1280, 1920] } as const;
export type Third = keyof typeof THIRDS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Observation {
  status: string;
  stage: string;
  progress: number;
}

export interface WaitResult {
  /** The job as GET /videos/jobs/{id} last answered it (status is one of the awaited ones). */
  job: any;
  /** Every (status, stage, progress) seen while polling, in order, the first and last included. */
  observed: Observation[];
}

/**
 * Polls GET /videos/jobs/{id} until its status is one of `statuses`. Every answer is recorded, so a
 * caller can check that progress never went back. The poll interval keeps one account well under
 * the API's 120 requests per minute; a 429 anyway waits out its Retry-After. A job that reaches a
 * final status it was not waiting for (failed while done was awaited) ends the wait at once with an
 * error that shows the job.
 */
export async function waitForJob(
  api: ApiClient,
  id: number,
  statuses: readonly string[],
  options: { timeoutMs?: number; intervalMs?: number; observed?: Observation[] } = {},
): Promise<WaitResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const intervalMs = options.intervalMs ?? 900;
  const observed = options.observed ?? [];
  const deadline = Date.now() + timeoutMs;
  let last: ApiResponse | undefined;
  for (;;) {
    last = await getWithRetry(api, `/videos/jobs/${id}`);
    if (last.status === 429) {
      await sleep(1000 * max(1, Number(last.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (last.status !== 200) throw new Error(`GET /videos/jobs/${id} answered ${last.status}: ${JSON.stringify(last.body)}`);
    const job = last.body.data;
    observed.push({ status: job.status, stage: job.stage, progress: job.progress });
    if (statuses.includes(job.status)) return { job, observed };
    if ((job.status === 'done' || job.status === 'failed') && !statuses.includes(job.status)) {
      throw new Error(`job ${id} ended ${job.status} while ${statuses.join('/')} was awaited: ${JSON.stringify(job)}${serviceLogsAbout(job)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`job ${id} did not reach ${statuses.join('/')} within ${timeoutMs} ms; last seen ${JSON.stringify(job)}${serviceLogsAbout(job)}`);
    }
    await sleep(intervalMs);
  }
}

/** What the service warned about the job while it ran (held by quiet-logs), for the error that shows it. */
function serviceLogsAbout(job: { id: number; created_at: string; updated_at: string }): string {
  const lines = heldLogsAboutJob(job.id, { from: job.created_at, to: job.updated_at });
  return lines.length === 0 ? '' : `\nthe service logged about job ${job.id}:\n${lines.join('\n')}`;
}

/**
 * A GET retried on a connection reset: the client can reuse a keep-alive socket in the very moment
 * the server closes it for idleness (both live in this process, under a loaded CPU). GETs are safe
 * to repeat. A 429 waits out its Retry-After (within one rate window), since a test that polled a
 * slow job under a loaded CPU can reach the account's 120 requests per minute through no fault of
 * the code under test.
 */
export async function getWithRetry(api: ApiClient, urlPath: string, attempts = 3): Promise<ApiResponse> {
  const rateWindowEnds = Date.now() + 65_000;
  for (let attempt = 1; ; attempt++) {
    let res: ApiResponse;
    try {
      res = await api.get(urlPath);
    } catch (error) {
      if (attempt >= attempts || !(error instanceof TypeError)) throw error;
      await sleep(200);
      continue;
    }
    if (res.status !== 429 || Date.now() > rateWindowEnds) return res;
    await sleep(1000 * max(1, Number(res.headers.get('retry-after') ?? 1)));
  }
}

/** Progress as clients see it: a known stage, within 0..100, and never lower than an earlier answer. */
export function expectProgressNeverDecreases(observed: readonly Observation[]): void {
  expect(observed.length).toBeGreaterThan(0);
  for (const o of observed) {
    expect(Object.keys(JOB_STAGES)).toContain(o.stage);
    expect(o.progress).toBeGreaterThanOrEqual(0);
    expect(o.progress).toBeLessThanOrEqual(100);
  }
  const decreases = observed.flatMap((o, i) => (i > 0 && o.progress < observed[i - 1]!.progress ? [[observed[i - 1], o]] : []));
  expect(decreases).toEqual([]);
}

/** A multipart POST: text fields plus at most one file part per name. */
export async function postMultipart(
  api: ApiClient,
  urlPath: string,
  fields: Record<string, string>,
  files: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, file] of Object.entries(files)) form.append(name, new Blob([await fsp.readFile(file)]), path.basename(file));
  return api.send('POST', urlPath, { body: form, headers });
}

/** A product with a demo_video, once its demo is normalised (status ready). */
export async function productWithDemo(
  api: ApiClient,
  idle: () => Promise<void>,
  options: { name?: string; fixture?: FixtureKind } = {},
): Promise<any> {
  const res = await postMultipart(api, '/products', { name: options.name ?? 'Demo product' }, { demo_video: await makeFixture(options.fixture ?? 'vertical-mp4') });
  if (res.status !== 201) throw new Error(`POST /products answered ${res.status}: ${JSON.stringify(res.body)}`);
  return waitForDemo(api, res.body.data.id, idle);
}

/** Waits for the background normalisation of a product's demo, then answers the product. */
async function waitForDemo(api: ApiClient, productId: number, idle: () => Promise<void>, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await idle();
    const product = (await api.get(`/products/${productId}`)).body.data;
    if (product?.demo_video?.status === 'ready') return product;
    if (product?.demo_video?.status === 'failed') throw new Error(`demo of product ${productId} failed: ${JSON.stringify(product.demo_video)}`);
    if (Date.now() > deadline) throw new Error(`demo of product ${productId} not ready: ${JSON.stringify(product)}`);
    await sleep(500);
  }
}

/** Downloads a (presigned) URL to a file; answers the HTTP status and content type. */
export async function download(url: string, file: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  await fsp.writeFile(file, bytes);
  return { status: response.status, contentType: response.headers.get('content-type'), bytes };
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function probe(file: string): Promise<MediaProbe> {
  const result = await probeMedia(file);
  if (!result.ok) throw new Error(`ffprobe could not read ${file}: ${result.detail}`);
  return result.media;
}

/** The delivery encoding (docs/architecture.md, Media), as ffprobe reports it. */
export function expectCanonical(media: MediaProbe): void {
  expect(media.video).toMatchObject({ codec: 'h264', width: FRAME_W, height: FRAME_H, pixFmt: 'yuv420p' });
  expect(media.video!.profile).toMatch(/^High$/);
  expect(media.video!.fps).toBeCloseTo(30, 3);
  expect(media.audio).toMatchObject({ codec: 'aac', sampleRate: 48000, channels: 2 });
}


/** One decoded frame as rgb24 at full size, the way a player shows it. */
export async function frameAt(file: string, atS: number): Promise<Buffer> {
  const raw = `${file}.${atS}.rgb`;
  await runFfmpeg(['-v', 'error', '-ss', String(atS), '-i', fileArg(file), '-frames:v', '1', '-pix_fmt', 'rgb24', '-f', 'rawvideo', '-y', fileArg(raw)]);
  const bytes = await fsp.readFile(raw);
  await fsp.rm(raw, { force: true });
  if (bytes.length !== FRAME_W * FRAME_H * 3) throw new Error(`frame of ${file} at ${atS} s has ${bytes.length} bytes, not 1080x1920 rgb24`);
  return bytes;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How much of the caption as the renderer draws it a frame shows at `position`: of the template's
 * solid pixels (away from anti-aliased edges), the share of fill pixels that are bright in the frame
 * and the share of outline pixels that are dark, whichever is lower. The caption at the right place
 * scores near 1 even after H.264; a white shirt matches the fill but not the outline, a dark area the
 * outline but not the fill, so anything but the letters themselves scores low.
 */
async function captionMatch(rgb: Buffer, caption: { text: string; position: Third; size?: 'small' | 'medium' | 'large'; avoid?: FaceBox | null }): Promise<number> {
  const { png } = await renderCaptionPng({ text: caption.text, position: caption.position, size: caption.size ?? 'medium', avoid: caption.avoid ?? null });
  return layerMatch(rgb, png);
}

/**
 * How much of a caption layer (a 1080x1920 PNG as the renderer or POST /captions/preview draws it) a
 * frame shows, scored as captionMatch says: light pixels of the layer light in the frame, dark ones dark.
 */
export async function layerMatch(rgb: Buffer, png: Buffer): Promise<number> {
  const template = await sharp(png).ensureAlpha().raw().toBuffer();
  const kindAt = (x: number, y: number): 'fill' | 'outline' | null => {
    const i = (y * FRAME_W + x) * 4;
    // The outline is drawn at 92% opacity, the fill opaque.
    if (template[i + 3]! < 200) return null;
    const luma = (template[i]! + template[i + 1]! + template[i + 2]!) / 3;
    return luma > 200 ? 'fill' : luma < 60 ? 'outline' : null;
  };
  const tally = { fill: { solid: 0, matching: 0 }, outline: { solid: 0, matching: 0 } };
  for (let y = 2; y < FRAME_H - 2; y++) {
    if (y % 64 === 2) await yieldToEventLoop();
    for (let x = 2; x < FRAME_W - 2; x++) {
      const kind = kindAt(x, y);
      if (!kind || kindAt(x + 2, y) !== kind || kindAt(x - 2, y) !== kind || kindAt(x, y + 2) !== kind || kindAt(x, y - 2) !== kind) continue;
      const j = (y * FRAME_W + x) * 3;
      const luma = (rgb[j]! + rgb[j + 1]! + rgb[j + 2]!) / 3;
      tally[kind].solid++;
      if (kind === 'fill' ? luma > 170 : luma < 90) tally[kind].matching++;
    }
  }
  if (tally.fill.solid < 500 || tally.outline.solid < 500) throw new Error('the caption layer has too few solid pixels to judge');
  return min(tally.fill.matching / tally.fill.solid, tally.outline.matching / tally.outline.solid);
}

/**
 * The frame shows this caption at `position`, and not at the other two places. `avoid`: the face box
 * the job's caption was kept clear of (its reaction's `face_box`), so the caption is looked for where
 * it was placed, moved off the face within its third.
 */
export async function expectCaptionIn(rgb: Buffer, text: string, position: Third, size?: 'small' | 'medium' | 'large', avoid?: FaceBox | null): Promise<Record<Third, number>> {
  const scores = {} as Record<Third, number>;
  for (const third of Object.keys(THIRDS) as Third[]) scores[third] = await captionMatch(rgb, { text, position: third, size, avoid });
  // The scores are in the keys, so a failure shows them.
  const verdict: Record<string, boolean> = { [`${position}=${scores[position].toFixed(2)} >= 0.9`]: scores[position] >= 0.9 };
  for (const other of (Object.keys(THIRDS) as Third[]).filter((t) => t !== position)) {
    verdict[`${other}=${scores[other].toFixed(2)} < 0.7`] = scores[other] < 0.7;
  }
  expect(verdict).toEqual(Object.fromEntries(Object.keys(verdict).map((k) => [k, true])));
  return scores;
}

/**
 * The caption was drawn in `third` only: two frames of the same reaction at the same instant, one
 * with the caption and one without (the saved clip, or the same reaction captioned elsewhere),
 * differ strongly there and hardly anywhere else.
 */
export function expectDifferenceOnlyIn(a: Buffer, b: Buffer, thirds: readonly Third[]): Record<Third, number> {
  const changed = changedPerThird(a, b);
  const least = min(...thirds.map((t) => changed[t]));
  const verdict: Record<string, boolean> = {};
  for (const t of Object.keys(THIRDS) as Third[]) {
    verdict[thirds.includes(t) ? `${t}=${changed[t]} > 3000` : `${t}=${changed[t]} < ${least}/20`] = thirds.includes(t) ? changed[t] > 3000 : changed[t] < least / 20;
  }
  expect(verdict).toEqual(Object.fromEntries(Object.keys(verdict).map((k) => [k, true])));
  return changed;
}

/** The strongly changed pixels of two frames, per third. */
export const changedPerThird = (a: Buffer, b: Buffer): Record<Third, number> => ({
  top: changedPixels(a, b, THIRDS.top),
  middle: changedPixels(a, b, THIRDS.middle),
  bottom: changedPixels(a, b, THIRDS.bottom),
});

/**
 * Pixels in rows [from, to) that differ strongly between two frames of the same reaction: where a
 * caption was drawn over one and not the other (encoding noise stays far below the threshold).
 */
function changedPixels(a: Buffer, b: Buffer, rows: readonly [number, number], threshold = 90): number {
  let count = 0;
  for (let i = rows[0] * FRAME_W * 3; i < rows[1] * FRAME_W * 3; i += 3) {
    const d = max(abs(a[i]! - b[i]!), abs(a[i + 1]! - b[i + 1]!), abs(a[i + 2]! - b[i + 2]!));
    if (d > threshold) count++;
  }
  return count;
}

/** A vertical clip of a real face reacting (H.264, no audio), cached like the media fixtures. */
export async function faceReferenceClip(options: { durationS: number; width?: number; height?: number }): Promise<string> {
  const width = options.width ?? 360;
  const height = options.height ?? 640;
  const file = path.join(FIXTURE_DIR, `face-reference-${width}x${height}-${options.durationS}s.mp4`);
  if (await fsp.stat(file).then((s) => s.size > 0, () => false)) return file;
  await fsp.mkdir(FIXTURE_DIR, { recursive: true });
  const face = await realFacePng();
  const partial = `${file}.${process.pid}.partial.mp4`;
  try {
    await makeReferenceClip(face, partial, { durationS: options.durationS, width, height });
    await fsp.rename(partial, file);
  } finally {
    await fsp.rm(partial, { force: true });
    await fsp.rm(`${partial}.still.png`, { force: true });
  }
  return file;
}
