/**
 * Helpers for end-to-end tests that run video jobs through the local HTTP server: polling a job
 * (recording every stage and progress seen), downloading and inspecting the media it produced
 * (MP4 boxes, raw frames, caption pixels), products with a ready demo, and reference clips of a face
 * for method=motion.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { makeReferenceClip, realFacePng, HUMAN_SAMPLE } from '../../bench/reference-clip';
import { JOB_STAGES } from '../../functions/domain/jobs';
import { fileArg, runFfmpeg } from '../../functions/media/binaries';
import { probeMedia, type MediaProbe } from '../../functions/media/probe';
import { FIXTURE_DIR, makeFixture, type FixtureKind } from './media-fixtures';
import type { ApiClient, ApiResponse } from './local-stack';

export const FRAME_W = 1080;
export const FRAME_H = 1920;
/** Rows of each third of the 1080x1920 frame: where hook_position puts the caption. */
export const THIRDS = { top: [0, 640], middle: [640, 1280], bottom: [1280, 1920] } as const;
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
      await sleep(1000 * Math.max(1, Number(last.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (last.status !== 200) throw new Error(`GET /videos/jobs/${id} answered ${last.status}: ${JSON.stringify(last.body)}`);
    const job = last.body.data;
    observed.push({ status: job.status, stage: job.stage, progress: job.progress });
    if (statuses.includes(job.status)) return { job, observed };
    if ((job.status === 'done' || job.status === 'failed') && !statuses.includes(job.status)) {
      throw new Error(`job ${id} ended ${job.status} while ${statuses.join('/')} was awaited: ${JSON.stringify(job)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`job ${id} did not reach ${statuses.join('/')} within ${timeoutMs} ms; last seen ${JSON.stringify(job)}`);
    }
    await sleep(intervalMs);
  }
}

/**
 * A GET retried on a connection reset: the client can reuse a keep-alive socket in the very moment
 * the server closes it for idleness (both live in this process, under a loaded CPU). GETs are safe
 * to repeat.
 */
export async function getWithRetry(api: ApiClient, urlPath: string, attempts = 3): Promise<ApiResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.get(urlPath);
    } catch (error) {
      if (attempt >= attempts || !(error instanceof TypeError)) throw error;
      await sleep(200);
    }
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
export async function waitForDemo(api: ApiClient, productId: number, idle: () => Promise<void>, timeoutMs = 120_000): Promise<any> {
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

/** The delivery encoding of DESIGN §3, as ffprobe reports it. */
export function expectCanonical(media: MediaProbe): void {
  expect(media.video).toMatchObject({ codec: 'h264', width: FRAME_W, height: FRAME_H, pixFmt: 'yuv420p' });
  expect(media.video!.profile).toMatch(/^High$/);
  expect(media.video!.fps).toBeCloseTo(30, 3);
  expect(media.audio).toMatchObject({ codec: 'aac', sampleRate: 48000, channels: 2 });
}

/** Top-level MP4 boxes in file order, walked from the head by their size fields. */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const types: string[] = [];
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= size; ) {
      await handle.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - offset;
      types.push(header.toString('latin1', 4, 8));
      if (boxSize < 8) break;
      offset += boxSize;
    }
    return types;
  } finally {
    await handle.close();
  }
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

const WHITE_MIN = 216;
const DARK_MAX = 49;
const OUTLINE_REACH_PX = 14;

/**
 * Caption ink in rows [from, to): near-white pixels with a near-black pixel within a few pixels
 * (left, right, up or down), i.e. white text inside its dark outline. The illustrated reactions have
 * some of this too (white eye whites next to dark pupils, a white rim next to dark hair), so callers
 * compare thirds, or against a frame without the caption, rather than expect zero.
 */
export async function captionInk(rgb: Buffer, rows: readonly [number, number]): Promise<number> {
  const isDark = (x: number, y: number) => {
    if (x < 0 || x >= FRAME_W || y < 0 || y >= FRAME_H) return false;
    const j = (y * FRAME_W + x) * 3;
    return Math.max(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!) <= DARK_MAX;
  };
  let count = 0;
  for (let y = rows[0]; y < rows[1]; y++) {
    // The stack's HTTP server and its keep-alive timers share this event loop: never hold it for long.
    if ((y - rows[0]) % 32 === 0) await yieldToEventLoop();
    for (let x = 0; x < FRAME_W; x++) {
      const i = (y * FRAME_W + x) * 3;
      if (Math.min(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!) < WHITE_MIN) continue;
      for (let d = 2; d <= OUTLINE_REACH_PX; d++) {
        if (isDark(x + d, y) || isDark(x - d, y) || isDark(x, y + d) || isDark(x, y - d)) {
          count++;
          break;
        }
      }
    }
  }
  return count;
}

export async function captionInkByThird(rgb: Buffer): Promise<Record<Third, number>> {
  return { top: await captionInk(rgb, THIRDS.top), middle: await captionInk(rgb, THIRDS.middle), bottom: await captionInk(rgb, THIRDS.bottom) };
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The caption is in `third` and nowhere else, by counting outlined white per third. A caption of
 * three medium lines has 25 000-40 000 such pixels. The illustrated reactions have some too (eye
 * whites next to dark skin or pupils, a white rim next to dark hair, a T-shirt print drawn as white
 * outlined letters): up to ~4 800 in one third over some 200 avatars sampled. So the chosen third
 * must hold at least 15 000 and each other third less than a third of it. Use a hook of three lines
 * (about 30 characters) for this check.
 */
export async function expectCaptionIn(rgb: Buffer, third: Third): Promise<Record<Third, number>> {
  const ink = await captionInkByThird(rgb);
  const others = (Object.keys(THIRDS) as Third[]).filter((t) => t !== third);
  // The counts are in the keys, so a failure shows them.
  const verdict: Record<string, boolean> = { [`${third}=${ink[third]} >= 15000`]: ink[third] >= 15000 };
  for (const other of others) verdict[`${other}=${ink[other]} < ${third}/3`] = ink[other] < ink[third] / 3;
  expect(verdict).toEqual(Object.fromEntries(Object.keys(verdict).map((k) => [k, true])));
  return ink;
}

/**
 * The caption was drawn in `third` only: two frames of the same reaction at the same instant, one
 * with the caption and one without (the saved clip, or the same reaction captioned elsewhere),
 * differ strongly there and hardly anywhere else.
 */
export function expectDifferenceOnlyIn(a: Buffer, b: Buffer, thirds: readonly Third[]): Record<Third, number> {
  const changed = {
    top: changedPixels(a, b, THIRDS.top),
    middle: changedPixels(a, b, THIRDS.middle),
    bottom: changedPixels(a, b, THIRDS.bottom),
  };
  const least = Math.min(...thirds.map((t) => changed[t]));
  const verdict: Record<string, boolean> = {};
  for (const t of Object.keys(THIRDS) as Third[]) {
    verdict[thirds.includes(t) ? `${t}=${changed[t]} > 3000` : `${t}=${changed[t]} < ${least}/20`] = thirds.includes(t) ? changed[t] > 3000 : changed[t] < least / 20;
  }
  expect(verdict).toEqual(Object.fromEntries(Object.keys(verdict).map((k) => [k, true])));
  return changed;
}

/**
 * Pixels in rows [from, to) that differ strongly between two frames of the same reaction: where a
 * caption was drawn over one and not the other (encoding noise stays far below the threshold).
 */
export function changedPixels(a: Buffer, b: Buffer, rows: readonly [number, number], threshold = 90): number {
  let count = 0;
  for (let i = rows[0] * FRAME_W * 3; i < rows[1] * FRAME_W * 3; i += 3) {
    const d = Math.max(Math.abs(a[i]! - b[i]!), Math.abs(a[i + 1]! - b[i + 1]!), Math.abs(a[i + 2]! - b[i + 2]!));
    if (d > threshold) count++;
  }
  return count;
}

/** A vertical clip of a real face reacting (H.264, no audio), cached like the media fixtures. */
export async function faceReferenceClip(options: { durationS: number; width?: number; height?: number }): Promise<string> {
  if (!existsSync(HUMAN_SAMPLE)) throw new Error(`the face sample ${HUMAN_SAMPLE} is missing from @vladmandic/human`);
  const width = options.width ?? 360;
  const height = options.height ?? 640;
  const file = path.join(FIXTURE_DIR, `face-reference-${width}x${height}-${options.durationS}s.mp4`);
  if (await fsp.stat(file).then((s) => s.size > 0, () => false)) return file;
  await fsp.mkdir(FIXTURE_DIR, { recursive: true });
  const face = await realFacePng();
  if (!face) throw new Error('no face sample');
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
