/**
 * A fetch-based client for the fal.ai queue API:
 *
 *   POST {queue}/{model_id}[/{subpath}]  → {request_id, status_url, response_url, cancel_url, ...}
 *   GET  status_url                      → IN_QUEUE (queue_position) → IN_PROGRESS (logs) → COMPLETED
 *   GET  response_url                    → the model's output JSON (or the failure, as 4xx)
 *   PUT  cancel_url                      → on abort, on the overall timeout, on any failure mid-run
 *
 * The status/result/cancel URLs are always the ones the submit answer returned, never built here
 * (a subpath is not part of them), and must be on the queue's own origin since they get our key.
 * Every answer is validated with zod; retries with exponential backoff and jitter cover 429, 5xx
 * and network errors (Retry-After respected), never 4xx validation failures.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import * as z from 'zod/mini';
import { EngineError, ProviderPending, isEngineError, isProviderPending, type ProviderRequest, type ProviderRequestLog } from '#ports/engine';
import type { SecretProvider } from '#adapters/engines/credentials';
import {
  abortReason,
  abortableSleep,
  backoffPolicy,
  fetchWithRetry,
  withDeadline,
  type BackoffPolicy,
} from '#adapters/engines/http-retry';
import { ENGLISH_ERRORS, contractError, falHttpError } from './errors';
import { FalWebhooks } from './webhook';

const SubmitAnswer = z.looseObject({
  request_id: z.string().check(z.minLength(1)),
  gateway_request_id: z.nullish(z.string()),
  status: z.optional(z.string()),
  status_url: z.url({ protocol: /^https?$/ }),
  response_url: z.url({ protocol: /^https?$/ }),
  cancel_url: z.url({ protocol: /^https?$/ }),
  queue_position: z.nullish(z.number()),
});

const LogLine = z.looseObject({ message: z.optional(z.string()) });

const StatusAnswer = z.looseObject({
  status: z.string().check(z.minLength(1)),
  queue_position: z.nullish(z.number()),
  logs: z.nullish(z.array(LogLine)),
  response_url: z.nullish(z.string()),
});

export type FalSubmission = z.infer<typeof SubmitAnswer>;

export interface FalQueueUpdate {
  requestId: string;
  status: string;
  queuePosition: number | null;
  logs: string[];
}

export interface FalClientOptions {
  /** e.g. https://queue.fal.run (no trailing slash). */
  queueUrl: string;
  apiKey: SecretProvider;
  /** Per HTTP request to the queue. */
  requestTimeoutMs: number;
  /** First delay between status polls; grows 1.5x per poll up to `maxPollIntervalMs`. */
  pollIntervalMs: number;
  maxPollIntervalMs?: number;
  backoff?: Partial<BackoffPolicy>;
  /** Submitted as `?fal_webhook=`; a webhook (`webhooks.handle`) then wakes the waiting poll loop. */
  webhookUrl?: string;
  /** Where webhooks arrive; shared by the engines of one wiring (default: this client's own). */
  webhooks?: FalWebhooks;
}

export interface FalRunOptions<T> {
  input: Record<string, unknown>;
  /** The model's output schema (any zod schema, mini or classic). */
  output: z.core.$ZodType<T>;
  /** Overall limit: submit, queue, run and result. */
  timeoutMs: number;
  signal?: AbortSignal;
  onUpdate?: (update: FalQueueUpdate) => void;
  /**
   * Keeps the submitted request under `slot` (default: the model id) before waiting for it, and
   * reattaches to a kept one instead of submitting: a retried step does not pay twice.
   */
  requests?: ProviderRequestLog;
  slot?: string;
  /** Wait by webhook, not here (GenerationOptions.callback): needs `requests`. */
  callback?: { webhookUrl: string };
}

export interface FalRunResult<T> {
  requestId: string;
  output: T;
}

export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** "result video", "result image". */
  describe: string;
}

const ENDPOINT_ID = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
/** fal answers a result fetched too early with a 400 like this (assumed wording; matched loosely). */
const STILL_RUNNING = /in[ _-]?progress|in[ _-]?queue|not (yet )?(complete|completed|ready|finished)/i;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const requestOf = (submitted: FalSubmission): ProviderRequest => ({
  requestId: submitted.request_id,
  statusUrl: submitted.status_url,
  responseUrl: submitted.response_url,
  cancelUrl: submitted.cancel_url,
});

export class FalQueueClient {
  readonly queueUrl: string;
  private readonly origin: string;
  private readonly backoff: BackoffPolicy;
  private readonly maxPollIntervalMs: number;
  readonly webhooks: FalWebhooks;

  constructor(private readonly options: FalClientOptions) {
    this.queueUrl = options.queueUrl.replace(/\/+$/, '');
    this.origin = new URL(this.queueUrl).origin;
    this.backoff = backoffPolicy(options.backoff);
    this.maxPollIntervalMs = options.maxPollIntervalMs ?? options.pollIntervalMs * 5;
    this.webhooks = options.webhooks ?? new FalWebhooks();
  }

  /**
   * Submits, waits for completion and returns the validated output. With `callback`, nothing waits
   * here: a fresh request is submitted with the webhook and kept, and a kept one is asked its status
   * once; either still running throws ProviderPending (docs/decisions.md, hosted engines by callback).
   */
  async run<T>(endpointId: string, run: FalRunOptions<T>): Promise<FalRunResult<T>> {
    if (!ENDPOINT_ID.test(endpointId)) throw new EngineError('engine_failure', `not a fal model id: ${endpointId}`);
    if (run.callback && !run.requests) throw new EngineError('engine_failure', 'a generation waiting by callback must keep its requests');
    return withDeadline('The generation', run.timeoutMs, run.signal, async (signal) => {
      const key = await this.options.apiKey.get();
      const slot = run.slot ?? endpointId;
      const kept = await run.requests?.recall(slot);
      const submitted = kept ? this.reattached(kept) : await this.submit(endpointId, run.input, key, signal, run.callback?.webhookUrl);
      let settled = false;
      try {
        if (!kept) await run.requests?.remember(slot, { ...requestOf(submitted), submittedAt: new Date().toISOString() });
        const output = run.callback ? await this.checkOnce(submitted, kept, run, key, signal) : await this.awaitOutput(submitted, run, key, signal);
        settled = true;
        return { requestId: submitted.request_id, output };
      } catch (error) {
        // Still running by design: kept, not cancelled, for the call the webhook brings.
        if (isProviderPending(error)) settled = true;
        throw error;
      } finally {
        // A request we stop waiting for (abort, deadline, any failure mid-run) would still run and bill;
        // once cancelled, a retry must not wait for it again.
        if (!settled) {
          await this.cancel(submitted, key);
          await run.requests?.forget(slot).catch(() => undefined);
        }
      }
    });
  }

  /**
   * A callback generation's one look at its request: just submitted, it is pending (the webhook says
   * when it ends); kept, its status decides. One still running past the generation's limit, counted
   * from its submission, fails as a timeout (and is cancelled): a lost webhook ends here.
   */
  private async checkOnce<T>(submitted: FalSubmission, kept: ProviderRequest | null | undefined, run: FalRunOptions<T>, key: string, signal: AbortSignal): Promise<T> {
    if (!kept) throw new ProviderPending([submitted.request_id]);
    const answer = await this.call('status', submitted.status_url, { method: 'GET', headers: this.headers(key) }, signal);
    if (answer.status < 200 || answer.status > 299) throw this.httpError(answer, 'status');
    const status = parseAnswer(answer, StatusAnswer, 'status');
    if (status.status === 'IN_QUEUE' || status.status === 'IN_PROGRESS') {
      const since = kept.submittedAt ? Date.parse(kept.submittedAt) : NaN;
      if (Date.now() - since > run.timeoutMs) {
        throw new EngineError('provider_timeout', `The generation took longer than ${Math.round(run.timeoutMs / 1000)} s; try again later`);
      }
      throw new ProviderPending([submitted.request_id]);
    }
    if (status.status !== 'COMPLETED') throw await this.terminalStatus(submitted, status.status, key, signal);
    const result = await this.fetchOutput(submitted, run.output, key, signal, false);
    if (result.done) return result.output;
    throw contractError('result', 'the request was COMPLETED but its result is not ready');
  }

  /** A kept request as a submission; its URLs are held to this queue's origin as at submit. */
  private reattached(request: ProviderRequest): FalSubmission {
    const submitted = { request_id: request.requestId, status_url: request.statusUrl, response_url: request.responseUrl, cancel_url: request.cancelUrl };
    this.checkOrigins(submitted, 'a kept request');
    return submitted;
  }

  private checkOrigins(submitted: Pick<FalSubmission, 'status_url' | 'response_url' | 'cancel_url'>, what: string): void {
    for (const field of ['status_url', 'response_url', 'cancel_url'] as const) {
      if (new URL(submitted[field]).origin !== this.origin) {
        throw contractError(what, `${field} points outside ${this.origin}`);
      }
    }
  }

  async submit(endpointId: string, input: Record<string, unknown>, key: string, signal: AbortSignal, webhookUrl = this.options.webhookUrl): Promise<FalSubmission> {
    const url = new URL(`${this.queueUrl}/${endpointId}`);
    if (webhookUrl) url.searchParams.set('fal_webhook', webhookUrl);
    const answer = await this.call('submit', url.toString(), {
      method: 'POST',
      headers: this.headers(key, true),
      body: JSON.stringify(input),
    }, signal);
    if (answer.status < 200 || answer.status > 299) throw this.httpError(answer, 'submit');
    const submitted = parseAnswer(answer, SubmitAnswer, 'submit');
    this.checkOrigins(submitted, 'submit');
    return submitted;
  }

  private async awaitOutput<T>(submitted: FalSubmission, run: FalRunOptions<T>, key: string, signal: AbortSignal): Promise<T> {
    const requestId = submitted.request_id;
    let hint = this.options.webhookUrl ? this.webhooks.await(requestId) : undefined;
    let delay = this.options.pollIntervalMs;
    try {
      for (;;) {
        const hinted = await this.pause(delay, signal, hint?.hinted);
        if (hinted) {
          hint?.dispose();
          hint = undefined;
          const early = await this.fetchOutput(submitted, run.output, key, signal, true);
          if (early.done) return early.output;
        }
        const answer = await this.call('status', submitted.status_url, { method: 'GET', headers: this.headers(key) }, signal);
        if (answer.status < 200 || answer.status > 299) throw this.httpError(answer, 'status');
        const status = parseAnswer(answer, StatusAnswer, 'status');
        switch (status.status) {
          case 'IN_QUEUE':
          case 'IN_PROGRESS':
            run.onUpdate?.({
              requestId,
              status: status.status,
              queuePosition: status.queue_position ?? null,
              logs: (status.logs ?? []).map((l) => l.message ?? '').filter(Boolean),
            });
            delay = Math.min(this.maxPollIntervalMs, Math.round(delay * 1.5));
            continue;
          case 'COMPLETED': {
            const result = await this.fetchOutput(submitted, run.output, key, signal, false);
            if (result.done) return result.output;
            throw contractError('result', 'the request was COMPLETED but its result is not ready');
          }
          default:
            throw await this.terminalStatus(submitted, status.status, key, signal);
        }
      }
    } finally {
      hint?.dispose();
    }
  }

  /** Sleeps, or returns true early when a webhook hint arrives. */
  private async pause(ms: number, signal: AbortSignal, hinted: Promise<void> | undefined): Promise<boolean> {
    if (!hinted) {
      await abortableSleep(ms, signal);
      return false;
    }
    const stop = new AbortController();
    const sleeping = abortableSleep(ms, AbortSignal.any([signal, stop.signal])).then(() => false);
    try {
      return await Promise.race([sleeping, hinted.then(() => true)]);
    } finally {
      stop.abort();
      sleeping.catch(() => undefined);
    }
  }

  private async fetchOutput<T>(
    submitted: FalSubmission,
    schema: z.core.$ZodType<T>,
    key: string,
    signal: AbortSignal,
    mayBeRunning: boolean,
  ): Promise<{ done: true; output: T } | { done: false }> {
    const answer = await this.call('result', submitted.response_url, { method: 'GET', headers: this.headers(key) }, signal);
    if (answer.status >= 200 && answer.status <= 299) {
      if (mayBeRunning && answer.status === 202) return { done: false };
      return { done: true, output: parseAnswer(answer, schema, 'result') };
    }
    if (mayBeRunning && (answer.status === 400 || answer.status === 409) && STILL_RUNNING.test(answer.text)) return { done: false };
    throw this.httpError(answer, 'result');
  }

  /** FAILED, CANCELED or anything unknown: the reason, when there is one, is at response_url. */
  private async terminalStatus(submitted: FalSubmission, status: string, key: string, signal: AbortSignal): Promise<EngineError> {
    let answer: Answer | undefined;
    try {
      answer = await this.call('result', submitted.response_url, { method: 'GET', headers: this.headers(key) }, signal);
    } catch {
      // No reason to be had: the status alone is reported.
      if (signal.aborted) throw abortReason(signal);
      answer = undefined;
    }
    if (answer && (answer.status < 200 || answer.status > 299) && !STILL_RUNNING.test(answer.text)) {
      const mapped = this.httpError(answer, 'result');
      if (mapped.code !== 'provider_error') return mapped;
    }
    return new EngineError('provider_error', `The generation provider ended the request with status ${status.slice(0, 40)}`, {
      retryable: status === 'FAILED',
    });
  }

  /** Best effort: asks fal to drop the request; never throws. */
  async cancel(submitted: FalSubmission, key: string): Promise<void> {
    try {
      const response = await fetchWithRetry(
        submitted.cancel_url,
        { method: 'PUT', headers: this.headers(key) },
        { describe: 'fal cancel', timeoutMs: Math.min(this.options.requestTimeoutMs, 10_000), backoff: { ...this.backoff, maxAttempts: 2 } },
      );
      await response.arrayBuffer().catch(() => undefined);
    } catch {
      // The request may run to its end; nothing more can be done from here.
    }
  }

  /** Downloads a result file (fal CDN, no key sent) to `dest`, refusing more than `maxBytes`. */
  async download(url: string, dest: string, options: DownloadOptions): Promise<{ sizeBytes: number; contentType: string | null }> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw contractError('result', `the ${options.describe} URL is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw contractError('result', `the ${options.describe} URL is not http(s)`);
    }
    const signal = options.signal;
    const response = await fetchWithRetry(url, { method: 'GET' }, {
      describe: `fal ${options.describe} download`,
      timeoutMs: options.timeoutMs,
      signal,
      backoff: this.backoff,
    });
    if (!response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 429 || response.status >= 500) {
        throw new EngineError('provider_unavailable', `The provider's ${options.describe} could not be downloaded (HTTP ${response.status}); retry later`);
      }
      throw new EngineError('provider_error', `The provider's ${options.describe} is not available for download (HTTP ${response.status})`);
    }
    const tooBig = () =>
      new EngineError('provider_error', `The provider's ${options.describe} is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooBig();
    }
    if (!response.body) throw contractError('result', `the ${options.describe} download has no body`);
    let sizeBytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sizeBytes += chunk.length;
        callback(sizeBytes > options.maxBytes ? tooBig() : null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createWriteStream(dest));
    } catch (error) {
      await rm(dest, { force: true });
      if (signal?.aborted) throw abortReason(signal);
      if (isEngineError(error)) throw error;
      throw new EngineError('provider_unavailable', `The provider's ${options.describe} download broke off (${(error as Error).message}); retry later`, {
        cause: error,
      });
    }
    if (sizeBytes === 0) throw new EngineError('provider_error', `The provider's ${options.describe} is empty`);
    return { sizeBytes, contentType: response.headers.get('content-type') };
  }

  private headers(key: string, json = false): Record<string, string> {
    return { Authorization: `Key ${key}`, Accept: 'application/json', ...(json ? { 'Content-Type': 'application/json' } : {}) };
  }

  /** One queue call with retries; the whole body read under the same per-request timeout. */
  private async call(describe: string, url: string, init: RequestInit, signal: AbortSignal): Promise<Answer> {
    const response = await fetchWithRetry(url, init, {
      describe: `fal ${describe}`,
      timeoutMs: this.options.requestTimeoutMs,
      signal,
      backoff: this.backoff,
    });
    try {
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      throw new EngineError('provider_unavailable', `The generation provider's ${describe} answer broke off; retry later`, { cause: error });
    }
  }

  private httpError(answer: Answer, describe: string): EngineError {
    const error = falHttpError({ status: answer.status, headers: answer.headers, bodyText: answer.text, describe });
    if (error.code === 'provider_auth') this.options.apiKey.invalidate();
    return error;
  }
}

function parseAnswer<T>(answer: Answer, schema: z.core.$ZodType<T>, describe: string): T {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    throw contractError(describe, `malformed JSON (${answer.text.slice(0, 40).replace(/\s+/g, ' ')}…)`);
  }
  const parsed = z.safeParse(schema, json, { error: ENGLISH_ERRORS });
  if (!parsed.success) throw contractError(describe, parsed.error);
  return parsed.data;
}
