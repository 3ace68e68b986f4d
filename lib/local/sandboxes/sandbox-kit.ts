/**
 * What both social-provider sandboxes share: a loopback HTTP server with request counters and
 * injectable faults, a controllable clock, deterministic hashing for "random-looking" but stable
 * values, the media-URL rules, an optional JSON state file, and the parts of a sandbox that do not
 * depend on the provider (route lookup, bearer-key check, network post URLs, the common control).
 *
 * Fault semantics (the same for both sandboxes; every request is counted first, faulted or not):
 *   drop(n)            the next n requests get their connection closed without an answer
 *   outage(n, s)       the next n requests get 503 (the provider's error envelope) with Retry-After s (1); nothing is executed
 *   rateLimit(n, s)    the next n requests get 429 with `Retry-After: s`; nothing is executed
 *   slow(ms, n?)       the next n requests (default: all, until slow(0)) wait ms before being handled
 *   malformed(n, kind) the next n requests ARE executed (a post may be created), then answered 200 with
 *                      a broken body: kind 'json' = truncated JSON, 'shape' = valid JSON of the wrong shape
 * Faults apply in that order; drop/outage/rateLimit/malformed count down independently.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';

// ---------------------------------------------------------------------------------------- clock

/**
 * Sandbox time: real time (optionally sped up by `timeScale`) plus an offset that tests move with
 * `advance(ms)` or `set(date)`. State moves lazily: every request settles the posts it touches
 * against this clock, so no timers run and a test never waits.
 */
export interface SandboxClock {
  now(): number;
  advance(ms: number): void;
  set(at: Date | number): void;
}

export function createSandboxClock(timeScale = 1): SandboxClock {
  const realBase = Date.now();
  let virtualBase = realBase;
  const now = () => virtualBase + (Date.now() - realBase) * timeScale;
  return {
    now: () => Math.floor(now()),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('advance(ms) takes a non-negative number');
      virtualBase += ms;
    },
    set(at) {
      const target = typeof at === 'number' ? at : at.getTime();
      virtualBase += target - now();
    },
  };
}

// ---------------------------------------------------------------------------------------- hashing

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A stable unsigned 32-bit integer for a string. */
export function hashInt(input: string): number {
  return createHash('sha256').update(input).digest().readUInt32BE(0);
}

/** A stable number in [0, 1) for a string. */
function hashUnit(input: string): number {
  return hashInt(input) / 2 ** 32;
}

/** A stable base62 token of `length` characters for a string. */
export function hashToken(input: string, length: number, alphabet = BASE62): string {
  const bytes = createHash('sha512').update(input).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += alphabet[bytes[i % bytes.length]! % alphabet.length];
  return out;
}

/** A stable run of decimal digits for a string (network post ids and user ids look like this). */
export function hashDigits(input: string, length: number): string {
  const token = hashToken(input, length, '0123456789');
  return token[0] === '0' ? `1${token.slice(1)}` : token;
}

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[bytes[i]! % 62];
  return out;
}

// ---------------------------------------------------------------------------------------- rules

/** Media URLs: https anywhere, or plain http on loopback (the local stack's presigned s3rver URLs). */
export function isAllowedMediaUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether a media URL answers a GET with 2xx (the body is not read). */
export async function mediaReachable(url: string, timeoutMs = 5_000): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    await res.body?.cancel().catch(() => undefined);
    return res.ok;
  } catch {
    return false;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------- state file

/** A JSON state file written atomically (tmp + rename); absent or unreadable = start empty. */
export interface StateFile<T> {
  load(): T | undefined;
  save(state: T): void;
}

export function stateFile<T>(path: string): StateFile<T> {
  return {
    load() {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as T;
      } catch {
        return undefined;
      }
    },
    save(state) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(state));
      renameSync(tmp, path);
    },
  };
}

/** A sandbox's state as far as its state file goes: the file, if any, and whether it is behind. */
export interface FileBackedState<T> {
  /** Set by whatever changes what the file keeps; `saveWhenDirty` writes the file and clears it. */
  dirty: boolean;
  readonly store: StateFile<T> | undefined;
}

/** Writes the state file when something changed since the last write; `snapshot` is what it keeps. */
export function saveWhenDirty<T>(state: FileBackedState<T>, snapshot: () => T): void {
  if (!state.store || !state.dirty) return;
  state.dirty = false;
  state.store.save(snapshot());
}

// ---------------------------------------------------------------------------------------- server

interface RecordedRequest {
  method: string;
  /** The path as received, e.g. `/api/post/Ab12`. */
  path: string;
  /** The route it matched, e.g. `GET /api/post/:id` (`METHOD path` when no route matched). */
  route: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  /** Sandbox-clock time the request arrived (ms). */
  at: number;
}

export interface SandboxRequest {
  method: string;
  url: URL;
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body text. */
  text: string;
  /** Parsed JSON body; undefined when empty; `INVALID_JSON` when it did not parse. */
  json: unknown;
}

export const INVALID_JSON = Symbol('invalid-json');

export interface SandboxResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A page for a person (a provider's hosted checkout) instead of the JSON `body`. */
  html?: string;
}

type MalformedKind = 'json' | 'shape';

interface FaultControl {
  /** The next n requests: 503 with Retry-After (default 1 s), not executed. */
  outage(n?: number, retryAfterS?: number): void;
  /** The next n requests: 429 with Retry-After, not executed. */
  rateLimit(n?: number, retryAfterS?: number): void;
  /** Delay the next n requests (default every request until slow(0)) by ms. */
  slow(ms: number, n?: number): void;
  /** The next n requests are executed, then answered 200 with a truncated ('json') or wrong-shaped ('shape') body. */
  malformed(n?: number, kind?: MalformedKind): void;
  /** The next n requests: the connection is closed with no answer, not executed. */
  drop(n?: number): void;
  /** Clear every pending fault (and failing platforms). */
  clearFaults(): void;
}

interface CounterControl {
  /**
   * Requests received (faulted ones included). With no argument: all. With `"METHOD /path"`: those
   * whose route pattern (`GET /api/post/:id`) or actual path (`GET /api/post/Ab12`) matches; a
   * method alone (`"DELETE"`) or a path alone (`"/v1/social-posts"`) matches on that part.
   */
  count(filter?: string): number;
  /** Counts by route pattern. */
  counts(): Record<string, number>;
  /** Every recorded request, oldest first (bodies parsed). */
  requests(): RecordedRequest[];
  resetCounters(): void;
}

interface ClockControl {
  /** The sandbox clock now. */
  now(): Date;
  /** Move the sandbox clock forward; due posts move on at the next request. */
  advance(ms: number): void;
  /** Set the sandbox clock. */
  setNow(at: Date | number): void;
}

/** Control shared by both sandboxes. */
export interface SandboxControl extends FaultControl, CounterControl, ClockControl {
  /** Posts to this platform fail at publish from now on (per-platform error: a partial failure). */
  failPlatform(platform: string, failure?: { code?: number; message?: string }): void;
  /** Undo failPlatform (no argument: every platform). */
  restorePlatform(platform?: string): void;
  /** clearFaults + resetCounters. State (keys, posts) is kept. */
  reset(): void;
}

export interface SandboxFlavour {
  /** Route pattern of a request, or null when none matches (404 by the handler). */
  routeOf(method: string, path: string): string | null;
  unavailable(): unknown;
  rateLimited(retryAfterS: number): unknown;
  internalError(): unknown;
  /** A valid JSON body of the wrong shape for this request's answer. */
  wrongShape(path: string): unknown;
}

export interface SandboxServer {
  url: string;
  origin: string;
  faults: FaultControl;
  counters: CounterControl;
  stop(): Promise<void>;
}

interface FaultState {
  drop: number;
  outage: { left: number; retryAfterS: number };
  rateLimit: { left: number; retryAfterS: number };
  slow: { ms: number; left: number };
  malformed: { left: number; kind: MalformedKind };
}

const noFaults = (): FaultState => ({
  drop: 0,
  outage: { left: 0, retryAfterS: 1 },
  rateLimit: { left: 0, retryAfterS: 1 },
  slow: { ms: 0, left: 0 },
  malformed: { left: 0, kind: 'json' },
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function matchesFilter(request: Pick<RecordedRequest, 'method' | 'path' | 'route'>, filter: string): boolean {
  const space = filter.indexOf(' ');
  const [method, path] = space < 0 ? (filter.startsWith('/') ? [null, filter] : [filter, null]) : [filter.slice(0, space), filter.slice(space + 1)];
  if (method && method.toUpperCase() !== request.method) return false;
  if (path === null) return true;
  const routePath = request.route.slice(request.route.indexOf(' ') + 1);
  return path === routePath || path === request.path;
}

/**
 * Starts the HTTP server on 127.0.0.1 (a free port unless one is given). `handle` runs with the
 * request's body read and parsed; `afterRequest` runs after every executed request (persistence).
 */
export async function startSandboxServer(options: {
  port?: number;
  basePath?: string;
  clock: SandboxClock;
  flavour: SandboxFlavour;
  handle(req: SandboxRequest): Promise<SandboxResponse> | SandboxResponse;
  afterRequest?(): void;
  onError?(error: unknown): void;
}): Promise<SandboxServer> {
  const { clock, flavour } = options;
  let faults = noFaults();
  let recorded: RecordedRequest[] = [];
  const pendingDelays = new Set<() => void>();

  const server = createServer((req, res) => {
    void onRequest(req, res).catch((error) => {
      options.onError?.(error);
      send(res, 500, JSON.stringify(flavour.internalError()));
    });
  });

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(req);
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = INVALID_JSON;
      }
    }
    const route = flavour.routeOf(method, url.pathname) ?? `${method} ${url.pathname}`;
    recorded.push({ method, path: url.pathname, route, query: url.searchParams, headers: req.headers, body: json === INVALID_JSON ? undefined : json, at: clock.now() });

    if (faults.drop > 0) {
      faults.drop--;
      req.socket.destroy();
      return;
    }
    if (faults.outage.left > 0) {
      faults.outage.left--;
      send(res, 503, JSON.stringify(flavour.unavailable()), { 'retry-after': String(faults.outage.retryAfterS) });
      return;
    }
    if (faults.rateLimit.left > 0) {
      faults.rateLimit.left--;
      const s = faults.rateLimit.retryAfterS;
      send(res, 429, JSON.stringify(flavour.rateLimited(s)), { 'retry-after': String(s) });
      return;
    }
    if (faults.slow.left > 0 && faults.slow.ms > 0) {
      faults.slow.left--;
      const ms = faults.slow.ms;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          pendingDelays.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        timer.unref();
        pendingDelays.add(done);
      });
      if (res.destroyed) return;
    }

    let answer: SandboxResponse;
    try {
      answer = await options.handle({ method, url, path: url.pathname, headers: req.headers, text, json });
    } catch (error) {
      options.onError?.(error);
      answer = { status: 500, body: flavour.internalError() };
    }
    try {
      options.afterRequest?.();
    } catch (error) {
      options.onError?.(error);
    }

    if (faults.malformed.left > 0) {
      faults.malformed.left--;
      if (faults.malformed.kind === 'json') {
        const full = JSON.stringify(answer.body ?? {});
        send(res, 200, full.slice(0, Math.max(1, Math.floor(full.length / 2))));
      } else {
        send(res, 200, JSON.stringify(flavour.wrongShape(url.pathname)));
      }
      return;
    }
    if (answer.html !== undefined) send(res, answer.status, answer.html, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
    else send(res, answer.status, JSON.stringify(answer.body), answer.headers);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const positive = (n: number | undefined, fallback: number) => {
    const value = n ?? fallback;
    if (!(value >= 0)) throw new Error('fault counts are non-negative numbers');
    return value;
  };
  const faultControl: FaultControl = {
    outage: (n, retryAfterS = 1) => void (faults.outage = { left: positive(n, 1), retryAfterS: Math.max(0, Math.round(retryAfterS)) }),
    rateLimit: (n, retryAfterS = 1) => void (faults.rateLimit = { left: positive(n, 1), retryAfterS: Math.max(0, Math.round(retryAfterS)) }),
    slow: (ms, n) => void (faults.slow = { ms: positive(ms, 0), left: ms > 0 ? positive(n, Number.POSITIVE_INFINITY) : 0 }),
    malformed: (n, kind = 'json') => void (faults.malformed = { left: positive(n, 1), kind }),
    drop: (n) => void (faults.drop = positive(n, 1)),
    clearFaults: () => {
      faults = noFaults();
      for (const release of [...pendingDelays]) release();
    },
  };
  const counterControl: CounterControl = {
    count: (filter) => (filter ? recorded.filter((r) => matchesFilter(r, filter)).length : recorded.length),
    counts: () => {
      const out: Record<string, number> = {};
      for (const r of recorded) out[r.route] = (out[r.route] ?? 0) + 1;
      return out;
    },
    requests: () => [...recorded],
    resetCounters: () => void (recorded = []),
  };

  let stopping: Promise<void> | undefined;
  return {
    origin,
    url: `${origin}${options.basePath ?? ''}`,
    faults: faultControl,
    counters: counterControl,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        for (const release of [...pendingDelays]) release();
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

// ---------------------------------------------------------------------------------------- sandbox parts

/** Options both sandboxes take. */
export interface SandboxOptions {
  /** 0 (default): a free port. */
  port?: number;
  /** Sandbox clock speed (2 = twice real time). Default 1. */
  timeScale?: number;
  /** Keep state in this JSON file across restarts (default: memory only). */
  stateFile?: string;
  log?: (line: string) => void;
}

/** A started sandbox: its base URL (what PROVIDER_X_BASE_URL takes), its origin and its control. */
export interface Sandbox<C extends SandboxControl> {
  url: string;
  origin: string;
  control: C;
  stop(): Promise<void>;
}

/** A route table row: method, path pattern, route name (`GET /api/post/:id`). */
export type SandboxRoute = readonly [method: string, pattern: RegExp, name: string];

/** The name of the route a request matches, or null. */
export function findRoute(routes: readonly SandboxRoute[], method: string, path: string): string | null {
  return routes.find(([m, pattern]) => m === method && pattern.test(path))?.[2] ?? null;
}

/** The key of `Authorization: Bearer <key>`, or null when the header is missing or not a bearer. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const auth = headers.authorization;
  return typeof auth === 'string' && /^Bearer\s+\S+$/i.test(auth) ? auth.replace(/^Bearer\s+/i, '') : null;
}

/** Whether a key is one of this sandbox's: the prefix and at least one character more. */
export const isSandboxKey = (key: string | null, prefix: string): key is string => key !== null && key.startsWith(prefix) && key.length > prefix.length;

/**
 * A stable network post id and public URL for a published copy, shaped like each network's. The
 * account is the copy's account on the network (its id, username, and profile URL for the others).
 */
export function networkPost(platform: string, seed: string, account: { id: string; username: string; profileUrl: string }): { id: string; url: string } {
  switch (platform) {
    case 'tiktok':
    case 'tiktok_business': {
      const id = hashDigits(seed, 19);
      return { id, url: `https://www.tiktok.com/@${account.username}/video/${id}` };
    }
    case 'instagram':
      return { id: hashDigits(seed, 17), url: `https://www.instagram.com/reel/${hashToken(seed, 11)}/` };
    case 'youtube': {
      const id = hashToken(seed, 11);
      return { id, url: `https://youtube.com/shorts/${id}` };
    }
    case 'facebook': {
      const id = hashDigits(seed, 16);
      return { id: `${account.id}_${id}`, url: `https://www.facebook.com/${account.id}/videos/${id}` };
    }
    case 'twitter':
    case 'x': {
      const id = hashDigits(seed, 19);
      return { id, url: `https://x.com/${account.username}/status/${id}` };
    }
    default: {
      const id = hashDigits(seed, 18);
      return { id, url: `${account.profileUrl}/posts/${id}` };
    }
  }
}

/**
 * The control both sandboxes share: faults, counters and the clock from the server, failing
 * platforms kept in `failing` (the value `failure` makes of what failPlatform was given), and
 * `post(id)`, a post as the API would show it now. Every change of the platform flags first settles
 * the posts due (`settleAll`), so they publish with the flags they were due under; `post` persists
 * what settling it changed.
 */
export function sandboxControl<F, P, V>(parts: {
  server: SandboxServer;
  clock: SandboxClock;
  failing: Map<string, F>;
  failure(platform: string, given: { code?: number; message?: string }): F;
  assertPlatform(platform: string): void;
  settleAll(): void;
  posts: Map<string, P>;
  view(post: P): V;
  persist(): void;
}): SandboxControl & { post(id: string): V | undefined } {
  const { server, clock, failing, settleAll } = parts;
  const control: SandboxControl & { post(id: string): V | undefined } = {
    ...server.faults,
    ...server.counters,
    now: () => new Date(clock.now()),
    advance: (ms) => clock.advance(ms),
    setNow: (at) => clock.set(at),
    failPlatform(platform, failure = {}) {
      parts.assertPlatform(platform);
      settleAll();
      failing.set(platform, parts.failure(platform, failure));
    },
    restorePlatform(platform) {
      settleAll();
      if (platform === undefined) failing.clear();
      else failing.delete(platform);
    },
    clearFaults() {
      server.faults.clearFaults();
      settleAll();
      failing.clear();
    },
    reset() {
      control.clearFaults();
      server.counters.resetCounters();
    },
    post(id) {
      const post = parts.posts.get(id);
      if (!post) return undefined;
      const v = parts.view(post);
      parts.persist();
      return v;
    },
  };
  return control;
}

/** The started sandbox: stopping it saves its state first. */
export function sandboxOf<C extends SandboxControl>(server: SandboxServer, control: C, persist: () => void): Sandbox<C> {
  return {
    url: server.url,
    origin: server.origin,
    control,
    stop: async () => {
      persist();
      await server.stop();
    },
  };
}

/** Parses an ISO-8601 date-time; null when it is not one. */
export function parseIsoDate(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Metric growth shared by both sandboxes: a deterministic, non-decreasing curve of minutes since publish. */
export function engagement(seed: string, publishedAt: number, now: number): { views: number; likes: number; comments: number; shares: number; reach: number; saves: number } {
  const minutes = Math.max(0, (now - publishedAt) / 60_000);
  const k = 0.5 + hashUnit(seed);
  // Fast start, then slower: about 120·k views after 1 minute, 1 300·k after an hour, 11 000·k after a day.
  const views = Math.floor(k * (120 * Math.sqrt(minutes) + 2 * minutes));
  const likeRate = 0.04 + 0.06 * hashUnit(`${seed}:likes`);
  return {
    views,
    likes: Math.floor(views * likeRate),
    comments: Math.floor(views * likeRate * 0.12),
    shares: Math.floor(views * likeRate * 0.08),
    reach: Math.floor(views * 0.82),
    saves: Math.floor(views * likeRate * 0.05),
  };
}
