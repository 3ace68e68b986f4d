/**
 * `createClient`: the typed openapi-fetch client for the Reaction Studio API with what every caller
 * would otherwise rebuild: the API key on each request, an Idempotency-Key on POST /videos (and its batch), 429 and
 * 503 retries that honour Retry-After, and helpers for uploads and for waiting on background work.
 */
import createFetchClient from 'openapi-fetch';
import { jsonAnswers } from './answers.js';
import { idempotencyKeys } from './idempotency.js';
import { csrfTokens } from './session.js';
import { waitForJob, type WaitForJobOptions } from './jobs.js';
import { globalWebSocket, type LiveUpdates, type WebSocketConstructor } from './live-updates.js';
import type { WaitOptions } from './poll.js';
import { unwrap } from './result.js';
import { retryingFetch, type FetchLike, type RetryOptions } from './retry.js';
import type { Avatar, Job, PlanChange, PlanName, Plans, Product, Take, TypedClient, Video, VideoBatch, VideoQuote, paths } from './types.js';
import {
  createAvatar,
  createProduct,
  createVideoJob,
  quoteRegeneration,
  quoteVideoJob,
  regenerateJob,
  waitForAvatar,
  waitForDemo,
  type CreateAvatarInput,
  type CreateProductInput,
  type RegenerateJobInput,
} from './uploads.js';
import { uploadFile, type Upload, type UploadFileOptions, type UploadPurpose } from './direct-uploads.js';
import type { FileInput } from './files.js';
import type { CreateVideoJobInput } from './video-job-input.js';

type ApproveJobInput = NonNullable<paths['/videos/jobs/{id}/approve']['post']['requestBody']>['content']['application/json'];
type CreateVideoBatchInput = NonNullable<paths['/videos/batch']['post']['requestBody']>['content']['application/json'];

export interface ClientOptions {
  /** The API root, prefix included: `https://api.example.com/api/v1`, locally `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  /** An API key, `rsk_...`, sent as `Authorization: Bearer`. */
  apiKey?: string;
  /**
   * For the studio's own pages instead of a key: the browser sends the session cookie, and each change
   * carries this CSRF token (from GET /auth/session) in `X-CSRF-Token`.
   */
  session?: { csrfToken: () => string | undefined };
  /** A fetch to send requests with (tests, proxies, instrumentation); default the global one. */
  fetch?: FetchLike;
  /** Retries of 429 / 503 and of replay-safe requests that failed on the network. */
  retry?: RetryOptions;
  /** Extra headers on every request (a User-Agent, tracing). */
  headers?: Record<string, string>;
  /**
   * The WebSocket the waits follow live updates with (docs/live-updates.md): by default the runtime's
   * own (Node 22, browsers; Node 20 has none, so its waits poll unless given one, `ws`'s say); `false`
   * always polls.
   */
  webSocket?: WebSocketConstructor | false;
}

export interface ReactionStudioClient extends TypedClient {
  /** A product, with its demo video uploaded as multipart when `demoVideo` is given. */
  createProduct(input: CreateProductInput): Promise<Product>;
  /** Waits until the demo is normalised (`ready`) or `failed`; a job needs it `ready`. */
  waitForDemo(productId: number, options?: WaitOptions): Promise<Product>;
  /** An avatar from a prompt (`{ prompt }`) or an uploaded portrait (`{ image }`). */
  createAvatar(input: CreateAvatarInput): Promise<Avatar>;
  waitForAvatar(avatarId: number, options?: WaitOptions): Promise<Avatar>;
  /** POST /videos (202, `queued`), multipart when a `referenceVideo` is given; always idempotent. */
  createVideoJob(input: CreateVideoJobInput): Promise<Job>;
  /** The same request as a dry run (`?dry_run=true`): every check, nothing made or reserved; the units, the allowance and an estimate. */
  quoteVideoJob(input: CreateVideoJobInput): Promise<VideoQuote>;
  /** POST /videos/batch (202): 1-20 variants of one product, reserved together (402 for all if they do not fit); always idempotent. */
  createVideoBatch(input: CreateVideoBatchInput): Promise<VideoBatch>;
  getVideoBatch(id: number): Promise<VideoBatch>;
  getJob(id: number): Promise<Job>;
  waitForJob(id: number, options?: WaitForJobOptions): Promise<Job>;
  /** A preview job's takes, oldest first (take 1 is the first preview, one more per regenerate); an auto job has none. */
  listTakes(id: number): Promise<Take[]>;
  /** Approves a preview at preview_ready: the newest take, or the one named by `take`. */
  approveJob(id: number, input?: ApproveJobInput): Promise<Job>;
  regenerateJob(id: number, input?: RegenerateJobInput): Promise<Job>;
  /** A regenerate as a dry run: every check (409 off preview_ready, 402 without a unit left), nothing changed. */
  quoteRegeneration(id: number, input?: RegenerateJobInput): Promise<VideoQuote>;
  getVideo(id: number): Promise<Video>;
  /**
   * A file sent straight to storage (any size the API takes; past about 4 MB on AWS the only way):
   * answers the upload, whose `id` goes in `demo_video_upload_id`, `image_upload_id` or `reference_video_upload_id`.
   */
  uploadFile(purpose: UploadPurpose, file: FileInput, options?: UploadFileOptions): Promise<Upload>;
  /** GET /plans (public): every plan's price and limits, and whether paid plans go through Stripe here. */
  listPlans(): Promise<Plans>;
  /**
   * PUT /account/plan, for the studio's own pages (`session`): an API key is refused (403). An upgrade
   * holds at once, a downgrade at `account.plan_changes_at`; with `change: 'checkout'`, send the owner to
   * `checkout_url` and the plan changes once Stripe confirms the payment.
   */
  changePlan(plan: PlanName): Promise<PlanChange>;
}

export function createClient(options: ClientOptions): ReactionStudioClient {
  const send: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  if (!options.apiKey && !options.session) throw new TypeError('createClient needs an apiKey, or session for first-party browser pages');
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: { ...options.headers, ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}) },
    fetch: retryingFetch(send, options.retry),
  });
  api.use(idempotencyKeys(), jsonAnswers(options.baseUrl));
  if (!options.apiKey && options.session) api.use(csrfTokens(options.session.csrfToken));
  const live: LiveUpdates = { api, WebSocket: options.webSocket === false ? undefined : (options.webSocket ?? globalWebSocket()) };
  return {
    ...api,
    createProduct: (input) => createProduct(api, input),
    waitForDemo: (productId, waitOptions) => waitForDemo(api, productId, waitOptions, live),
    createAvatar: (input) => createAvatar(api, input),
    waitForAvatar: (avatarId, waitOptions) => waitForAvatar(api, avatarId, waitOptions, live),
    createVideoJob: (input) => createVideoJob(api, input),
    quoteVideoJob: (input) => quoteVideoJob(api, input),
    createVideoBatch: async (input) => batchOf((await unwrap(api.POST('/videos/batch', { body: input }))).data),
    getVideoBatch: async (id) => (await unwrap(api.GET('/videos/batches/{id}', { params: { path: { id } } }))).data,
    getJob: async (id) => (await unwrap(api.GET('/videos/jobs/{id}', { params: { path: { id } } }))).data,
    waitForJob: (id, waitOptions) => waitForJob(api, id, waitOptions, live),
    listTakes: async (id) => (await unwrap(api.GET('/videos/jobs/{id}/takes', { params: { path: { id } } }))).data,
    approveJob: async (id, input = {}) => (await unwrap(api.POST('/videos/jobs/{id}/approve', { params: { path: { id } }, body: input }))).data,
    regenerateJob: (id, input) => regenerateJob(api, id, input),
    quoteRegeneration: (id, input) => quoteRegeneration(api, id, input),
    getVideo: async (id) => (await unwrap(api.GET('/videos/{id}', { params: { path: { id } } }))).data,
    uploadFile: (purpose, file, uploadOptions) => uploadFile(api, send, purpose, file, uploadOptions),
    listPlans: async () => (await unwrap(api.GET('/plans'))).data,
    changePlan: async (plan) => (await unwrap(api.PUT('/account/plan', { body: { plan } }))).data,
  };
}

/** Without `?dry_run=true` the batch's POST answers the batch (202), never a quote. */
function batchOf(answer: VideoBatch | VideoQuote): VideoBatch {
  if ('valid' in answer) throw new TypeError('Expected a batch, got a dry-run quote');
  return answer;
}
