/**
 * Creates that carry a file, as the multipart bodies the API expects (a file part under the name
 * the API reads, text fields beside it), and the waits for what an upload starts in the
 * background: a product's demo is normalised after the 201, and a hosted engine draws an avatar
 * after the 202. Without a file each create sends JSON.
 */
import { formDataOf, type FileInput } from './files.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import { waitUntil, type WaitOptions } from './poll.js';
import type { LiveUpdates } from './live-updates.js';
import { unwrap } from './result.js';
import type { Avatar, Job, Product, TypedClient, VideoQuote, paths } from './types.js';
import type { CreateVideoJobInput } from './video-job-input.js';

type JsonBody<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type CreateProductInput = JsonBody<'/products', 'post'> & {
  /** The demo clip (MP4, MOV, AVI or WebM; vertical unless `reframe` is sent; at most 180 s kept and 50 MB). */
  demoVideo?: FileInput;
};

export type CreateAvatarInput = JsonBody<'/avatars', 'post'> | {
  /** A portrait (JPG, PNG or WEBP; at least 340x340; at most 10 MB). */
  image: FileInput;
};

export type RegenerateJobInput = JsonBody<'/videos/jobs/{id}/regenerate', 'post'> & { referenceVideo?: FileInput };

/**
 * The typed body slot takes the JSON shape; a FormData goes through openapi-fetch untouched (its
 * default serializer passes FormData on and lets fetch set the multipart boundary).
 */
const multipart = <T>(form: FormData) => form as unknown as T;

export async function createProduct(api: TypedClient, input: CreateProductInput): Promise<Product> {
  const { demoVideo, ...fields } = input;
  const body = demoVideo === undefined ? fields : multipart<typeof fields>(formDataOf(fields, { demo_video: { input: demoVideo, defaultName: 'demo.mp4' } }));
  return (await unwrap(api.POST('/products', { body }))).data;
}

export async function createAvatar(api: TypedClient, input: CreateAvatarInput): Promise<Avatar> {
  const body = 'image' in input ? multipart<JsonBody<'/avatars', 'post'>>(formDataOf({}, { image: { input: input.image, defaultName: 'avatar.png' } })) : input;
  return (await unwrap(api.POST('/avatars', { body }))).data;
}

export async function createVideoJob(api: TypedClient, input: CreateVideoJobInput): Promise<Job> {
  return jobOf(await postVideo(api, input, false));
}

/** POST /videos?dry_run=true: every check, nothing made; the quote, or the error the create would get. */
export async function quoteVideoJob(api: TypedClient, input: CreateVideoJobInput): Promise<VideoQuote> {
  return quoteOf(await postVideo(api, input, true));
}

async function postVideo(api: TypedClient, input: CreateVideoJobInput, dryRun: boolean): Promise<Job | VideoQuote> {
  const { referenceVideo, idempotencyKey, ...fields } = input;
  // Fields that leave out video_source come with a file: multipart, where withReference fills it in.
  const body = withReference(fields as JsonBody<'/videos', 'post'>, referenceVideo);
  const headers = idempotencyKey === undefined ? {} : { [IDEMPOTENCY_HEADER]: idempotencyKey };
  return (await unwrap(api.POST('/videos', { body, headers, params: dryRun ? { query: { dry_run: true } } : {} }))).data;
}

export async function regenerateJob(api: TypedClient, id: number, input: RegenerateJobInput = {}): Promise<Job> {
  return jobOf(await postRegenerate(api, id, input, false));
}

/** POST /videos/jobs/{id}/regenerate?dry_run=true: every check, nothing changed; the quote or the error. */
export async function quoteRegeneration(api: TypedClient, id: number, input: RegenerateJobInput = {}): Promise<VideoQuote> {
  return quoteOf(await postRegenerate(api, id, input, true));
}

async function postRegenerate(api: TypedClient, id: number, input: RegenerateJobInput, dryRun: boolean): Promise<Job | VideoQuote> {
  const { referenceVideo, ...fields } = input;
  const body = withReference(fields, referenceVideo);
  return (await unwrap(api.POST('/videos/jobs/{id}/regenerate', { params: { path: { id }, ...(dryRun ? { query: { dry_run: true } } : {}) }, body }))).data;
}

/** The two answers of these routes: a job (202) without dry_run, a quote (200) with it. */
function jobOf(answer: Job | VideoQuote): Job {
  if ('valid' in answer) throw new TypeError('Expected a job, got a dry-run quote');
  return answer;
}

function quoteOf(answer: Job | VideoQuote): VideoQuote {
  if (!('valid' in answer)) throw new TypeError('Expected a dry-run quote, got a job');
  return answer;
}

/** Job fields as JSON, or with a reference clip as multipart (an uploaded clip means video_source=upload). */
function withReference<F extends object>(fields: F, referenceVideo: FileInput | undefined): F {
  if (referenceVideo === undefined) return fields;
  return multipart<F>(formDataOf({ video_source: 'upload', ...fields }, { reference_video: { input: referenceVideo, defaultName: 'reference.mp4' } }));
}

/** Polls the product until its demo is no longer `processing`; answers it `ready` or `failed` (with `error`). */
export function waitForDemo(api: TypedClient, productId: number, options: WaitOptions = {}, live?: LiveUpdates): Promise<Product> {
  return waitUntil(
    { live, resource: 'product', id: productId },
    async (signal) => (await unwrap(api.GET('/products/{id}', { params: { path: { id: productId } }, signal }))).data,
    (product) => product.demo_video?.status !== 'processing',
    { ...options, what: `demo video of product ${productId}` },
  );
}

/** Polls the avatar until it is no longer `processing` (hosted engines draw it after the 202). */
export function waitForAvatar(api: TypedClient, avatarId: number, options: WaitOptions = {}, live?: LiveUpdates): Promise<Avatar> {
  return waitUntil(
    { live, resource: 'avatar', id: avatarId },
    async (signal) => (await unwrap(api.GET('/avatars/{id}', { params: { path: { id: avatarId } }, signal }))).data,
    (avatar) => avatar.status !== 'processing',
    { ...options, what: `avatar ${avatarId}` },
  );
}
