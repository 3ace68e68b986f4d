/**
 * The generation engine port: everything generative the service asks for (docs/engines.md). The job
 * pipeline and the avatar/hook endpoints only talk to this interface; configuration picks an adapter
 * per capability (`local` by default, offline and deterministic for a seed; hosted ones over HTTP).
 *
 * Results are files already in the blob store (the caller names the key), plus what the caller needs
 * to record. Failures are `EngineError`s: a code, a message a user can act on, and whether a retry
 * may succeed.
 */

/** A file the engine wrote to the blob store at the key the caller gave. */
export interface StoredFile {
  key: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * An avatar as the engines need it. `rig` is engine-private data kept with the avatar so that later
 * reactions can animate it (for the local engine: the illustrated avatar's parts, or a photo's face
 * landmarks); other engines ignore what they did not write.
 */
export interface AvatarRef {
  id: number;
  source: 'prompt' | 'upload';
  imageKey: string;
  width: number;
  height: number;
  prompt?: string | null;
  rig?: unknown;
}

export interface GeneratedAvatar {
  image: StoredFile;
  width: number;
  height: number;
  seed: number;
  /** Engine-private data to store with the avatar (see AvatarRef.rig). */
  rig?: unknown;
  engine: string;
}

export interface ReactionClip {
  /** Canonical encoding: 1080x1920, 30 fps, H.264 high, AAC 48 kHz stereo (silent). */
  video: StoredFile;
  durationS: number;
  width: number;
  height: number;
  fps: number;
  seed: number;
  /** What the engine understood the reaction to be, e.g. `shocked`, for display and debugging. */
  emotion: string | null;
  engine: string;
  /** Where the expression is strongest (seconds into the clip), for engines that know their curve: the poster's frame. */
  peakS?: number;
  /** The clip's audio is GenerationOptions.voiceLine spoken (and the mouth follows it); absent or false otherwise. */
  voice?: boolean;
  /**
   * The caption burnt into the clip (see GenerationOptions.caption), or null for a clean clip; `avoid`
   * is the face box it was kept clear of (faceBox).
   */
  captioned?: CaptionOverlay | null;
  /**
   * The face's eyes-to-mouth box on the 1080x1920 frame over the whole clip (the union of every
   * frame's), for engines that draw the face themselves; a caption drawn on the clip keeps clear of it.
   */
  faceBox?: FaceBox | null;
  /** The poster JPEG asked for with GenerationOptions.posterKey; absent when the engine makes none. */
  poster?: StoredFile | null;
}

/** A hook caption an engine may burn in while it encodes (docs/architecture.md, Media). */
interface CaptionOverlay {
  text: string;
  position: 'top' | 'middle' | 'bottom';
  size: 'small' | 'medium' | 'large';
  style?: 'outline' | 'box' | 'highlight' | 'glow' | 'bold_caps';
  avoid?: FaceBox | null;
}

interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type HookFormat = 'pov' | 'question' | 'curiosity_gap' | 'challenge' | 'confession' | 'listicle' | 'before_after' | 'warning' | 'social_proof' | 'story';

export interface HookIdea {
  text: string;
  format: HookFormat;
}

export interface ProductBrief {
  id: number;
  name: string;
  description: string | null;
}

export interface GenerationOptions {
  /** Same seed, same inputs → same output (for engines that can promise it). */
  seed: number;
  /** Where the result goes in the blob store. */
  outputKey: string;
  /** Aborts a long generation (a Task timeout, a deleted job). */
  signal?: AbortSignal;
  /**
   * Burn this caption in, if the engine encodes the clip itself: then the clip is the finished
   * segment and is encoded once. Engines that cannot ignore it and return `captioned: null`.
   */
  caption?: CaptionOverlay | null;
  /**
   * A line the person speaks during the reaction (text-to-speech, the mouth following it). Engines
   * that cannot speak ignore it and return `voice: false`.
   */
  voiceLine?: string | null;
  /**
   * Where to put the finished video's poster (functions/render/compose/poster.ts), for a clip that will open
   * it as it is: an engine that encodes the clip itself writes it on the way, and Compose then has
   * no frame to cut. Engines that cannot ignore it.
   */
  posterKey?: string;
  /**
   * Where a hosted engine keeps the provider requests it submits for this generation. A step retried
   * after its process died (a crash, a Lambda timeout) finds them there and waits for them again
   * instead of submitting, and paying for, the same work twice. Engines that submit nothing ignore it.
   */
  requests?: ProviderRequestLog;
  /**
   * Wait by callback instead of in this process (needs `requests`): a hosted engine submits with the
   * provider's completion webhook pointing at `webhookUrl`, keeps the request, and throws
   * ProviderPending instead of polling; the step is called again once the webhook (or the wait's
   * timeout) resumes the execution, and then reattaches to the kept request by its id.
   */
  callback?: { webhookUrl: string };
}

/**
 * A generation waiting on provider requests that run on (GenerationOptions.callback): not a failure.
 * Nothing is cancelled; the requests are kept and a later call of the same generation reattaches.
 */
export class ProviderPending extends Error {
  constructor(readonly requestIds: readonly string[]) {
    super(`Waiting for the provider's requests ${requestIds.join(', ')}`);
    this.name = 'ProviderPending';
  }
}

export const isProviderPending = (error: unknown): error is ProviderPending => error instanceof ProviderPending;

/** A request submitted to a hosted provider: what it takes to find it again from another process. */
export interface ProviderRequest {
  requestId: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
  /** When it was submitted (ISO 8601): a reattached request past its generation's limit is given up. */
  submittedAt?: string;
}

/**
 * The provider requests of one generation, by slot (the engine's name for the call: its model and
 * seed). `remember` is awaited before the engine waits for the request, so a process that dies while
 * waiting leaves it findable; `forget` drops one the engine gave up on (failed or cancelled).
 */
export interface ProviderRequestLog {
  recall(slot: string): Promise<ProviderRequest | null>;
  remember(slot: string, request: ProviderRequest): Promise<void>;
  forget(slot: string): Promise<void>;
}

export interface AvatarEngine {
  readonly name: string;
  avatarFromPrompt(prompt: string, options: GenerationOptions): Promise<GeneratedAvatar>;
  /** Prepares an uploaded (already validated and re-encoded) image for animation: computes its rig. */
  rigForUpload?(imageKey: string, options: { signal?: AbortSignal }): Promise<unknown>;
}

export interface ReactionEngine {
  readonly name: string;
  /** A hosted engine that can wait by callback (GenerationOptions.callback); others generate in the call. */
  readonly callsBack?: boolean;
  reactionFromPrompt(avatar: AvatarRef, prompt: string, options: GenerationOptions): Promise<ReactionClip>;
  /** `referenceKey` is a clip in the blob store (uploaded, or fetched from an allowed link). */
  reactionFromMotion(avatar: AvatarRef, referenceKey: string, options: GenerationOptions): Promise<ReactionClip>;
}

export interface HookEngine {
  readonly name: string;
  hookIdeas(product: ProductBrief, options: { seed: number; count: number; signal?: AbortSignal }): Promise<HookIdea[]>;
}

export type EngineErrorCode =
  /** The input cannot be used (no usable face where one is required, a corrupt reference clip...). */
  | 'invalid_input'
  /** The provider refused the content (safety filters). */
  | 'content_rejected'
  /** The provider is rate limiting or temporarily down. */
  | 'provider_unavailable'
  /** The provider took longer than we allow. */
  | 'provider_timeout'
  /** The provider answered something that breaks its documented contract. */
  | 'provider_error'
  /** Our credentials for the provider are missing or refused. */
  | 'provider_auth'
  /** Cancelled by the caller. */
  | 'cancelled'
  /** A bug or an unexpected failure inside the engine. */
  | 'engine_failure';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly retryable: boolean;

  constructor(code: EngineErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'EngineError';
    this.code = code;
    this.retryable = options.retryable ?? (code === 'provider_unavailable' || code === 'provider_timeout');
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}

/** Output rules of a reaction clip (issue: 3-5 s, 1080x1920, 30 fps). */
export const REACTION_CLIP = { minS: 3, maxS: 5, defaultS: 4, width: 1080, height: 1920, fps: 30 } as const;
