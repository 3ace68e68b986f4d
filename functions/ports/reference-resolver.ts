/**
 * The reference-link port: turns a motion job's `reference_url` into a
 * local video file the engine can read. The job pipeline only talks to this interface; the default
 * adapter (`adapters/reference/direct-media-resolver`) downloads direct media links, and a
 * platform-aware adapter (page → media URL) can replace it without touching the pipeline.
 *
 * Every adapter must hold the same line: the link and each redirect hop pass `inspectReferenceUrl`,
 * every address connected to is public, the size cap is enforced while bytes arrive and the duration
 * cap before the file is handed over, and a failure leaves no file behind. Failures are
 * `EngineError`s: `invalid_input` for a link the user must change (never retried; a `ReferenceRefused`
 * says which way), `provider_unavailable` (retryable) for network trouble, `cancelled` when the
 * caller's signal fires.
 */
import { EngineError } from './engine';

export interface ResolveReferenceOptions {
  /** Aborts the download (a Task timeout, a deleted job). */
  signal?: AbortSignal;
  /** Largest file accepted, in bytes; enforced while downloading. */
  maxBytes: number;
  /** Longest clip accepted, in seconds. */
  maxDurationS: number;
  /**
   * Where the file goes. Nothing is ever left there on failure: the adapter writes beside it and
   * renames only a file that passed every check. The directory must exist.
   */
  destinationPath: string;
}

export interface ResolvedReference {
  /** = destinationPath. */
  path: string;
  /** The media type the server declared, e.g. `video/mp4` (without parameters). */
  contentType: string;
  sizeBytes: number;
  durationS: number;
  /** The URL the file came from after redirects. */
  finalUrl: string;
}

export interface ReferenceResolver {
  readonly name: string;
  resolve(url: string, options: ResolveReferenceOptions): Promise<ResolvedReference>;
}

/**
 * Limits the pipeline applies to reference clips. The reaction is 3-5 s, so a minute of reference is
 * plenty; 100 MB fits a minute of 1080p from any of the platforms.
 */
export const REFERENCE_CLIP_LIMITS = { maxBytes: 100 * 1024 * 1024, maxDurationS: 60 } as const;

/**
 * Which way a link must change, for a caller that answers a request with it (the pipeline needs only
 * `invalid_input`): `link` the link itself (its host, an address it resolves to, a redirect, the
 * server's 4xx, a compressed answer), `too_large` the file's size, `not_video` what the file is by its
 * declared type or first bytes, `unreadable` a video that cannot be used (damaged, empty, no video
 * track, too long).
 */
export type ReferenceRefusal = 'link' | 'too_large' | 'not_video' | 'unreadable';

/** A link the user must change: an `invalid_input` EngineError that says which way. */
export class ReferenceRefused extends EngineError {
  constructor(
    readonly refusal: ReferenceRefusal,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super('invalid_input', message, options);
  }
}
