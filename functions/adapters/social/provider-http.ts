/**
 * The JSON-over-fetch plumbing both scheduling-provider adapters share: one client per
 * operation, bound to one connection's credentials (`providerClient` makes them), the mapping of a
 * provider's network names to ours, plus the two small helpers both analytics pulls need (bounded
 * concurrency, a per-day tally).
 *
 * Retries. Every attempt has its own timeout (default 10 s, body included) and the whole call, its
 * retries and waits included, an overall deadline (default 30 s): a wait that would end past the
 * deadline is not started. What is retried, with exponential backoff and jitter:
 * - 429, for every method: a rate limiter refuses before the request is processed, so repeating it
 *   cannot do anything twice. A Retry-After is honoured as a floor, but one longer than
 *   `maxRetryAfterMs` (or past the deadline) is not waited for: the call fails as `rate_limited`
 *   with `retryAfterS`, so the caller can tell its own client when to come back.
 * - 5xx, 408 and network failures/timeouts, only when the request is `repeatable`: GET, PUT and
 *   DELETE are by default; a POST only when the adapter says so, i.e. when the provider
 *   de-duplicates it (Ayrshare's `idempotencyKey`) or it is a read (Ayrshare's `POST
 *   /analytics/post`). Post for Me's create has no idempotency key: it gets one attempt, and the
 *   adapter reconciles a lost answer through `external_id` instead of sending it again.
 *
 * Errors are ProviderErrors (401/403 auth, 404 not_found, 400/422 rejected or, when the request
 * says the provider refused because of the resource's state, conflict, 409 conflict, 429
 * rate_limited, 5xx unavailable, timeouts timeout, a body outside the contract bad_response). The
 * API key (and any other credential header) never reaches a message: provider text quoted in a
 * message is shortened and has every credential value replaced by "[redacted]", and no URL with a
 * query string, no header and no request body is ever quoted. Nothing here logs.
 *
 * Cancellation: when the caller's signal aborts, the call stops at once with its reason when that
 * is a ProviderError, else with a `timeout` ProviderError ("was cancelled").
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import pLimit from 'p-limit';
import { NoAnswer, parseRetryAfter, retryingFetch, sleep, type BackoffPolicy } from '#adapters/retrying-fetch';
import { PLATFORMS, type Platform, type ProviderCredentials, type ProviderName } from '#domain/social';
import { ProviderError, isProviderError } from '#ports/social-provider';
import type { AnalyticsDay, ProviderAnalytics } from '#domain/analytics';
import { keepNewestPosts, type PostFigures } from '#domain/analytics-breakdowns';

const ENGLISH_ERRORS: z.core.$ZodErrorMap = en().localeError;
const MAX_QUOTE = 240;

/**
 * The shared backoff policy (attempts, "equal jitter" delays, the injectable `random` and `sleep`,
 * so tests take no time) plus the two time limits. The defaults are this file's, and its errors
 * are ProviderErrors.
 */
export interface ProviderHttpSettings extends BackoffPolicy {
  /** Per attempt, the body read included. */
  attemptTimeoutMs: number;
  /** The whole call: every attempt and every wait between them. */
  deadlineMs: number;
  /** A longer Retry-After is not waited for: the call fails as rate_limited. */
  maxRetryAfterMs: number;
}

const DEFAULT_PROVIDER_HTTP: ProviderHttpSettings = {
  attemptTimeoutMs: 10_000,
  deadlineMs: 30_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 20_000,
  random: Math.random,
  sleep,
};

export interface ProviderHttpOptions extends Partial<ProviderHttpSettings> {
  provider: ProviderName;
  /** e.g. https://api.ayrshare.com/api (a trailing slash is dropped). */
  baseUrl: string;
  apiKey: string;
  /** Sent with every request (Ayrshare's Profile-Key); their values are redacted like the key. */
  headers?: Record<string, string>;
}

type QueryValue = string | number | boolean | undefined | readonly (string | number)[];

export interface ProviderRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the base URL, e.g. `/post` or `/v1/social-posts/sp_1`. */
  path: string;
  /** Arrays repeat the key (`?platform=x&platform=tiktok`); undefined values are left out. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  /** What the call is, for messages: "create post", "list channels". */
  describe: string;
  /** Whether sending it again after a 5xx or a lost answer is safe (default: every method but POST). */
  repeatable?: boolean;
  /** Whether a 400/422 answer means the resource's state forbids the request (→ conflict, not rejected). */
  conflict?: (answer: ProviderAnswer) => boolean;
  signal?: AbortSignal;
}

export interface ProviderAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as JSON; undefined when it is empty or not JSON. */
  json: unknown;
}

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The provider's own words in an error body: `message`, `error`, `detail`, `errors[]` (strings or `{message}`). */
export function providerMessage(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  const parts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && value.trim()) parts.push(value.trim());
    else if (Array.isArray(value)) value.forEach(add);
    else if (isRecord(value)) add(value.message ?? value.msg ?? value.error);
  };
  add(json.message);
  if (typeof json.error === 'string') add(json.error);
  add(json.detail);
  add(json.errors);
  const unique = [...new Set(parts)];
  return unique.length ? unique.join('; ') : undefined;
}

function summarise(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

export class ProviderHttp {
  readonly provider: ProviderName;
  private readonly baseUrl: string;
  private readonly settings: ProviderHttpSettings;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];

  constructor(options: ProviderHttpOptions) {
    this.provider = options.provider;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const settings = { ...DEFAULT_PROVIDER_HTTP };
    for (const key of Object.keys(DEFAULT_PROVIDER_HTTP) as (keyof ProviderHttpSettings)[]) {
      if (options[key] !== undefined) (settings as Record<string, unknown>)[key] = options[key];
    }
    this.settings = settings;
    this.headers = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json', ...options.headers };
    this.secrets = [options.apiKey, ...Object.values(options.headers ?? {})].filter((s) => s.length >= 4);
  }

  /** Sends, retries as the header says, and validates a 2xx body against `schema`; any other answer throws. */
  async request<T>(request: ProviderRequest, schema: z.core.$ZodType<T>): Promise<T> {
    const answer = await this.send(request);
    if (answer.status < 200 || answer.status > 299) throw this.errorFor(answer, request);
    return this.parse(answer, schema, request.describe);
  }

  /** Sends with retries and returns the last answer whatever its status; throws only when no answer came. */
  async send(request: ProviderRequest): Promise<ProviderAnswer> {
    const { settings } = this;
    const repeatable = request.repeatable ?? request.method !== 'POST';
    const url = this.url(request);
    const init: RequestInit = {
      method: request.method,
      headers: request.body === undefined ? this.headers : { ...this.headers, 'Content-Type': 'application/json' },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    };
    try {
      return await retryingFetch(url, init, {
        policy: settings,
        attemptTimeoutMs: settings.attemptTimeoutMs,
        deadlineMs: settings.deadlineMs,
        signal: request.signal,
        read: async (response) => {
          const text = await response.text();
          return { status: response.status, headers: response.headers, text, json: parseJson(text) };
        },
        // A 429 was refused before anything was done, so even a POST that must not repeat may.
        retryStatus: (status) => status === 429 || (repeatable && (status === 408 || status >= 500)),
        retryFailures: repeatable,
      });
    } catch (error) {
      this.checkCancelled(request);
      if (!(error instanceof NoAnswer)) throw error;
      const what = `${this.provider} ${request.describe}`;
      const tries = error.attempts === 1 ? '1 attempt' : `${error.attempts} attempts`;
      if (!error.timedOut) {
        throw new ProviderError(this.provider, 'unavailable', `${what} could not reach the provider (${networkProblem(error.cause)}, ${tries}); try again later`);
      }
      throw new ProviderError(this.provider, 'timeout', `${what} timed out (no answer within ${seconds(error.limitMs)}, ${tries}); try again later`);
    }
  }

  /** A non-2xx answer as a ProviderError (see the header for the mapping). */
  errorFor(answer: ProviderAnswer, request: Pick<ProviderRequest, 'describe' | 'conflict'>): ProviderError {
    const { status } = answer;
    const what = `${this.provider} ${request.describe}`;
    const said = providerMessage(answer.json);
    const quoted = said ? `: ${this.quote(said)}` : '';
    const options = { status };
    if (status === 401 || status === 403) {
      return new ProviderError(this.provider, 'auth', `${what} was refused: the stored ${this.provider} API key is not accepted (HTTP ${status})${quoted}; reconnect ${this.provider}`, options);
    }
    if (status === 404) return new ProviderError(this.provider, 'not_found', `${what}: not found at ${this.provider} (HTTP 404)${quoted}`, options);
    if (status === 409) return new ProviderError(this.provider, 'conflict', `${what} was refused (HTTP 409)${quoted}`, options);
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
      const retryAfterS = retryAfterMs === null ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
      const when = retryAfterS === undefined ? 'later' : `in ${retryAfterS} s`;
      return new ProviderError(this.provider, 'rate_limited', `${what}: ${this.provider} is rate limiting us (HTTP 429); try again ${when}`, { status, retryAfterS });
    }
    if (status >= 500 || status === 408) {
      return new ProviderError(this.provider, 'unavailable', `${what} failed at ${this.provider} (HTTP ${status}); try again later`, options);
    }
    if (status >= 400) {
      const kind = request.conflict?.(answer) ? 'conflict' : 'rejected';
      return new ProviderError(this.provider, kind, `${what} was refused by ${this.provider} (HTTP ${status})${quoted || ': no reason given'}`, options);
    }
    return new ProviderError(this.provider, 'bad_response', `${what}: unexpected HTTP ${status} from ${this.provider}`, options);
  }

  /** The body validated against `schema`; malformed JSON or the wrong shape is bad_response. */
  parse<T>(answer: ProviderAnswer, schema: z.core.$ZodType<T>, describe: string): T {
    const what = `${this.provider} ${describe}`;
    if (answer.json === undefined) {
      // Redacted before it is cut, so no part of a credential can survive the cut.
      const head = this.quote(answer.text).slice(0, 40);
      throw new ProviderError(this.provider, 'bad_response', `${what}: the answer is not JSON (${head ? `"${head}…"` : 'empty'})`, {
        status: answer.status,
      });
    }
    const parsed = z.safeParse(schema, answer.json, { error: ENGLISH_ERRORS });
    if (!parsed.success) {
      throw new ProviderError(this.provider, 'bad_response', `${what}: the answer is not in the documented shape (${this.quote(summarise(parsed.error.issues))})`, {
        status: answer.status,
      });
    }
    return parsed.data;
  }

  /** Provider text fit for a message: one line, shortened, credentials replaced. */
  quote(text: string): string {
    let clean = text.replace(/\s+/g, ' ').trim();
    for (const secret of this.secrets) clean = clean.split(secret).join('[redacted]');
    return clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE - 1)}…` : clean;
  }

  private url(request: ProviderRequest): string {
    const url = new URL(`${this.baseUrl}${request.path.startsWith('/') ? '' : '/'}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private checkCancelled(request: ProviderRequest): void {
    const signal = request.signal;
    if (!signal?.aborted) return;
    if (isProviderError(signal.reason)) throw signal.reason;
    throw new ProviderError(this.provider, 'timeout', `${this.provider} ${request.describe} was cancelled`, { cause: signal.reason });
  }
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${Number((ms / 1000).toFixed(2))} s`;
}

/** What went wrong on the wire, without anything of the request in it. */
function networkProblem(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined;
  if (code) return `network error ${code}`;
  if (error instanceof Error && error.name === 'SyntaxError') return 'unreadable answer';
  return 'network error';
}

/**
 * What a provider adapter is made with: where its provider answers (the wiring passes the
 * PROVIDER_*_BASE_URL setting, or the local sandbox; default: the provider's public API) and how
 * its calls retry and time out.
 */
export interface ProviderAdapterOptions {
  baseUrl?: string;
  http?: Partial<ProviderHttpSettings>;
  /** How many analytics reads run at once; each adapter says what one read is, and its default. */
  analyticsConcurrency?: number;
}

/**
 * An adapter's client maker: one ProviderHttp per call, bound to that call's credentials. The base
 * URL is the adapter's option (the wiring's: the loopback sandboxes locally), else the provider's
 * public API.
 */
export function providerClient(options: {
  provider: ProviderName;
  baseUrl?: string;
  defaultBaseUrl: string;
  http?: Partial<ProviderHttpSettings>;
  /** Per-connection headers (Ayrshare's Profile-Key); redacted like the key. */
  headers?: (credentials: ProviderCredentials) => Record<string, string> | undefined;
}): (credentials: ProviderCredentials) => ProviderHttp {
  return (credentials) =>
    new ProviderHttp({
      ...options.http,
      provider: options.provider,
      baseUrl: options.baseUrl ?? options.defaultBaseUrl,
      apiKey: credentials.apiKey,
      headers: options.headers?.(credentials),
    });
}

/**
 * A provider's network name (any case) → ours: each of our platform names as it is, plus the
 * provider's own spellings in `aliases`; undefined for a network we do not publish to.
 */
export function platformNames(aliases: Readonly<Record<string, Platform>>): (name: string) => Platform | undefined {
  const names = new Map<string, Platform>([...PLATFORMS.map((p): [string, Platform] => [p, p]), ...Object.entries(aliases)]);
  return (name) => names.get(name.toLowerCase());
}

/** `worker` over `items`, at most `limit` at a time, results in input order; the first failure rejects and starts no more. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limiter = pLimit(Math.max(1, limit));
  return limiter.map(items, async (item, index) => {
    try {
      return await worker(item, index);
    } catch (error) {
      // Before this slot frees up; the dropped items never run and the first failure is what rejects.
      limiter.clearQueue();
      throw error;
    }
  });
}

const DAY_MS = 86_400_000;

/**
 * The analytics window as UTC calendar days: `days` = 1 is today, 7 is today and the six days
 * before. `from` is the first day's midnight (UTC); anything later than `now` is outside too.
 */
export function analyticsWindow(window: { days: number; now: Date }): { from: Date; to: Date } {
  const days = Math.max(1, Math.floor(window.days));
  const today = Date.UTC(window.now.getUTCFullYear(), window.now.getUTCMonth(), window.now.getUTCDate());
  return { from: new Date(today - (days - 1) * DAY_MS), to: window.now };
}

export type Metrics = Pick<AnalyticsDay, 'views' | 'likes' | 'comments' | 'shares'>;

/**
 * Metric names per network, first present wins (aliases are never summed: they count the same
 * thing). Ayrshare spells them in camelCase per network (YouTube `views`, TikTok `videoViews`/
 * `likeCount`, X `retweetCount`, Facebook `reactions`), Post for Me in snake_case (TikTok
 * `view_count`/`like_count`/`comment_count`/`share_count`, Instagram/YouTube `views`/`likes`/
 * `comments`/`shares`, Facebook `media_views`/`reactions_total`, X `public_metrics.*`).
 */
const METRIC_ALIASES: Record<keyof Metrics, readonly string[]> = {
  views: ['views', 'viewCount', 'videoViews', 'plays', 'view_count', 'video_views', 'media_views', 'play_count', 'playCount', 'videoViewCount'],
  likes: ['likes', 'likeCount', 'reactions', 'like_count', 'reactions_total', 'likesCount', 'favoriteCount', 'favorite_count'],
  comments: ['comments', 'commentsCount', 'commentCount', 'comment_count', 'comments_count', 'replyCount', 'reply_count', 'replies'],
  shares: ['shares', 'shareCount', 'retweetCount', 'share_count', 'shares_count', 'sharesCount', 'retweet_count', 'repost_count', 'reposts'],
};

/** A count as a non-negative integer: a number, a numeric string, or an object of counts (`{like: 2, love: 1}`, or its `total`). */
function count(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  if (isRecord(value)) {
    const total = count(value.total);
    if (total !== undefined) return total;
    const parts = Object.values(value).map(count).filter((n): n is number => n !== undefined);
    return parts.length ? parts.reduce((a, b) => a + b, 0) : undefined;
  }
  return undefined;
}

/** Views/likes/comments/shares out of one network's metrics object (nested `public_metrics` looked into too). */
export function readMetrics(metrics: unknown): Metrics {
  const sources = isRecord(metrics) ? [metrics, metrics.public_metrics, metrics.publicMetrics].filter(isRecord) : [];
  const pick = (names: readonly string[]) => {
    for (const source of sources) {
      for (const name of names) {
        const n = count(source[name]);
        if (n !== undefined) return n;
      }
    }
    return 0;
  };
  return { views: pick(METRIC_ALIASES.views), likes: pick(METRIC_ALIASES.likes), comments: pick(METRIC_ALIASES.comments), shares: pick(METRIC_ALIASES.shares) };
}

/** Where one post's figures went out, as far as the provider says: for the per-post breakdowns. */
export interface PostPlace {
  channelId?: string | null;
  platform?: Platform | null;
}

/**
 * Sums metrics per UTC day; `posts` counts each distinct post key once, on the day it went out. Each
 * add is kept post by post too (PostFigures), so the overview can break the figures down.
 */
export class AnalyticsTally {
  private readonly days = new Map<string, AnalyticsDay>();
  private readonly counted = new Set<string>();
  private readonly posts: PostFigures[] = [];

  add(at: Date, metrics: Metrics, postKey: string, place: PostPlace = {}): void {
    const date = at.toISOString().slice(0, 10);
    let day = this.days.get(date);
    if (!day) {
      day = { date, views: 0, likes: 0, comments: 0, shares: 0, posts: 0 };
      this.days.set(date, day);
    }
    day.views += metrics.views;
    day.likes += metrics.likes;
    day.comments += metrics.comments;
    day.shares += metrics.shares;
    if (!this.counted.has(postKey)) {
      this.counted.add(postKey);
      day.posts += 1;
    }
    this.posts.push({ post_id: postKey, channel_id: place.channelId ?? null, platform: place.platform ?? null, date, ...metrics });
  }

  result(): ProviderAnalytics {
    const daily = [...this.days.values()].sort((a, b) => a.date.localeCompare(b.date));
    const totals = { views: 0, likes: 0, comments: 0, shares: 0, posts: 0 };
    for (const day of daily) {
      totals.views += day.views;
      totals.likes += day.likes;
      totals.comments += day.comments;
      totals.shares += day.shares;
      totals.posts += day.posts;
    }
    return { totals, daily, posts: keepNewestPosts(this.posts) };
  }
}
