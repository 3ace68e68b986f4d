/**
 * How big each Lambda function is and how it ships: memory, timeout, /tmp and zip or image, in one
 * table. What a function's code needs (its table and bucket access, ffmpeg, native modules, engines)
 * is declared beside the code under functions/; its size is the cloud's business, decided here, and
 * a function left out of the table is a compile error where its construct looks it up.
 */
import type { HandlerGroup } from '#functions/routes';
import { PIPELINE_FUNCTIONS, type PipelineFunction } from '#pipeline/steps';

export interface FunctionSize {
  memoryMb: number;
  timeoutS: number;
  /** /tmp; Lambda gives 512 MB unless asked. */
  ephemeralStorageMb?: number;
  /** An image holds what would pass ZIP_BUDGET_BYTES for a zip with its layers (render-image.ts). */
  packaging: 'zip' | 'image';
  /** Concurrent executions reserved for it, and its cap (concurrency.ts); unset: the account's shared pool. */
  reservedConcurrency?: number;
}

/** API Gateway ends an integration at 30 s: an API function stops before it. */
const API_TIMEOUT_S = 29;
const api = (memoryMb: number): FunctionSize => ({ memoryMb, timeoutS: API_TIMEOUT_S, packaging: 'zip' });
/**
 * A function that runs ffmpeg is an image: Debian's ffmpeg with the shared libraries it loads is
 * ~247 MB, past the 200 MB we allow a zip function with its layers (Lambda's own limit, 250 MiB,
 * would leave 15 MB to grow). The image holds the same tree (render-image.ts).
 */
const apiImage = (memoryMb: number): FunctionSize => ({ memoryMb, timeoutS: API_TIMEOUT_S, packaging: 'image' });
/**
 * What a zip function may hold with its layers, unzipped: our budget, under Lambda's 250 MiB
 * (262,144,000 bytes), so a dependency's next release cannot break a deploy. Decimal megabytes: the
 * stricter reading of "200 MB".
 */
export const ZIP_BUDGET_BYTES = 200_000_000;
/** Functions that run ffmpeg or sharp get one vCPU's worth of memory (Lambda: 1 vCPU per 1,769 MB). */
const MEDIA_MB = 1769;

export const API_FUNCTION_SIZES = {
  meta: api(512),
  products: apiImage(MEDIA_MB),
  avatars: api(MEDIA_MB),
  music: apiImage(MEDIA_MB),
  // Draws caption previews with Skia (about 0.35 s of CPU each).
  hooks: api(1024),
  videos: apiImage(MEDIA_MB),
  reactions: api(512),
  social: api(512),
  analytics: api(512),
  uploads: api(512),
  // scrypt takes 32 MiB and a full core's worth of work per password checked.
  accounts: api(1024),
  webhooks: api(512),
  usage: api(512),
  // The Stripe SDK and, at most, two Stripe calls per request.
  billing: api(512),
} as const satisfies Record<HandlerGroup, FunctionSize>;

export const MCP_FUNCTION_SIZE: FunctionSize = api(512);

/**
 * A pipeline function's timeout is the pipeline's own budget for one call (the state machine's Task
 * timeouts are built on it), not a number of ours.
 */
export const PIPELINE_FUNCTION_SIZES = {
  steps: { memoryMb: 512, timeoutS: PIPELINE_FUNCTIONS.steps.callBudgetS, packaging: 'zip' },
  render: {
    // The most a new account may configure (about 1.7 vCPUs); more buys x264 and the frame renderer
    // more vCPUs: CDK context renderMemoryMb (render-memory.ts) overrides it.
    memoryMb: 3008,
    timeoutS: PIPELINE_FUNCTIONS.render.callBudgetS,
    // The generated reaction clip, the normalised demo (up to 50 MB in, larger once decoded frames are
    // spilled), the captioned segment and the joined output at once.
    ephemeralStorageMb: 4096,
    // It runs ffmpeg (an image's alone, ZIP_BUDGET_BYTES), with the native modules and the face runtime.
    packaging: 'image',
  },
} as const satisfies Record<PipelineFunction, FunctionSize>;

export const SWEEPER_FUNCTION_SIZE: FunctionSize = { memoryMb: 512, timeoutS: 300, packaging: 'zip' };
export const EXECUTION_ENDED_FUNCTION_SIZE: FunctionSize = { memoryMb: 512, timeoutS: 60, packaging: 'zip' };
export const JOB_STARTER_FUNCTION_SIZE: FunctionSize = { memoryMb: 256, timeoutS: 60, packaging: 'zip' };

export const WORKER_FUNCTION_SIZES = {
  // ffmpeg gets about 1.7 vCPUs; the source (up to 50 MB) and its normalised copy both sit in /tmp.
  'normalise-demo': { memoryMb: 3008, timeoutS: 15 * 60, ephemeralStorageMb: 2048, packaging: 'image' },
  // A hosted engine's queue may take minutes.
  'generate-avatar': { memoryMb: 1024, timeoutS: 5 * 60, packaging: 'zip' },
  // Draws 180 frames and encodes them twice (about 13 s of CPU on a developer's machine), once per stack:
  // 1.7 vCPUs. It runs ffmpeg, so it is an image (render-image.ts).
  'sample-demo': { memoryMb: 3008, timeoutS: 5 * 60, packaging: 'image' },
} as const satisfies Record<string, FunctionSize>;

/**
 * Called by the videos function within a request (face-check.ts): sharp and human on a reference's
 * ten sampled frames take under a second warm and a few seconds cold on one vCPU. Its timeout leaves
 * the request, which ffprobe and ffmpeg share, inside API Gateway's 29 s.
 */
export const FACE_CHECK_FUNCTION_SIZE: FunctionSize = { memoryMb: MEDIA_MB, timeoutS: 10, packaging: 'zip' };

export const WEBHOOK_FUNCTION_SIZES = {
  dispatch: { memoryMb: 512, timeoutS: 60, packaging: 'zip' },
  deliver: { memoryMb: 256, timeoutS: 60, packaging: 'zip' },
} as const satisfies Record<string, FunctionSize>;

export const LIVE_UPDATE_FUNCTION_SIZES = {
  // API Gateway gives a WebSocket route's integration 29 s too.
  socket: api(512),
  // A batch of changed records, each read once and posted to its sockets (5 s per post at most).
  pusher: { memoryMb: 512, timeoutS: 60, packaging: 'zip' },
} as const satisfies Record<string, FunctionSize>;
