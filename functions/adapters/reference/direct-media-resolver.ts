/**
 * The default reference resolver: downloads a link that points at the media file itself (a CDN URL of
 * an allowed platform). Platform pages are refused with a message that says what to link instead.
 *
 * Why it is built on node:https and not fetch: the defence against SSRF needs to own name resolution.
 * Each hop's host is resolved once, here; if ANY address is not public the link is refused; and the
 * connection is made to exactly the vetted addresses through a `lookup` function pinned into the request
 * options, so no second DNS answer (rebinding) can slip in between the check and the connect. TLS still
 * verifies the certificate for the host name (SNI and Host are the name, not the IP).
 *
 * Redirects are followed by hand, at most `maxRedirects`, and every target goes through the same
 * `inspectReferenceUrl` as the original link and through DNS vetting again. Caps: Content-Length over
 * the byte cap is refused before the body is read, streamed bytes over it abort the download, and the
 * clip's duration is read by ffprobe before the file is handed over. Timeouts: per hop for connect
 * plus response headers, an idle timeout while the body flows, and one deadline for the whole call.
 *
 * The file is written beside `destinationPath` under a private name and renamed there only after
 * every check passed, so a failure never leaves a partial or refused file where the caller looks.
 *
 * Test seams: `lookup` (DNS), `allowedDomains` and `transport`. The transport receives the https
 * request options this module built (protocol `https:`, port 443, pinned lookup); plain `http.request`
 * throws on them, so only a transport written to redirect them (as the tests do, to a loopback server)
 * can turn this into anything but https.
 */
import { randomUUID } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { promises as dnsPromises } from 'node:dns';
import { promises as fsp } from 'node:fs';
import type * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inspectReferenceUrl } from '#domain/reference-url';
import { probeMedia } from '#render';
import { EngineError, isEngineError } from '#ports/engine';
import { ReferenceRefused, type ReferenceRefusal, type ReferenceResolver, type ResolvedReference, type ResolveReferenceOptions } from '#ports/reference-resolver';
import { judgeAddress } from './address-policy';
import { RemoteFileError, type RemoteFile, type RemoteFiles } from '#ports/remote-files';
import { SNIFF_BYTES, sniffVideoContainer } from './media-sniff';

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

/** Sends one request; production is `https.request`. Must honour `options.lookup` and `options.signal`. */
export type HttpsTransport = (options: https.RequestOptions) => http.ClientRequest;

export interface DirectMediaResolverOptions {
  /** DNS; default `dns.lookup(host, {all: true})`. */
  lookup?: HostLookup;
  /** Domains allowed instead of the domain module's REFERENCE_HOSTS. */
  allowedDomains?: readonly string[];
  /** Default `https.request`. */
  transport?: HttpsTransport;
  /** Redirects followed before the link is refused. Default 5. */
  maxRedirects?: number;
  /** Per hop: DNS, connect, TLS and the response headers. Default 10 s. */
  connectTimeoutMs?: number;
  /** Longest silence while the body flows. Default 15 s. */
  idleTimeoutMs?: number;
  /** The whole call, all hops and the body included. Default 120 s. */
  deadlineMs?: number;
  /** ffprobe's limit on the downloaded file. Default 30 s. */
  probeTimeoutMs?: number;
  userAgent?: string;
}

const DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 15_000,
  deadlineMs: 120_000,
  probeTimeoutMs: 30_000,
  userAgent: 'ReactionStudio-ReferenceFetcher/1.0',
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const NOT_A_VIDEO_FILE =
  'The link must point to the video file itself (a direct link to an MP4 or similar), not to a web page. ' +
  'Copy the address of the video file, or upload the clip instead.';

/** A link to change, and which way: the link itself unless said otherwise. */
const refused = (refusal: ReferenceRefusal, message: string, cause?: unknown) => new ReferenceRefused(refusal, message, { cause });
const invalid = (message: string, cause?: unknown) => refused('link', message, cause);
const unavailable = (message: string, cause?: unknown) => new EngineError('provider_unavailable', message, { retryable: true, cause });

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

const systemLookup: HostLookup = (hostname) => dnsPromises.lookup(hostname, { all: true, order: 'verbatim' });

const defaultTransport: HttpsTransport = (options) => https.request(options);

interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** A `lookup` for net.connect that answers only the vetted addresses, whatever name it is asked. */
export function pinnedLookup(addresses: readonly VettedAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : [...addresses];
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no vetted address of family ${family}`);
      error.code = 'ENOTFOUND';
      callback(error, '', undefined);
      return;
    }
    if (options.all) callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, first.address, first.family);
  };
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Counts bytes against the cap and holds the first bytes back until they are known to be video. */
class DownloadGuard extends Transform {
  bytes = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private released = false;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(refused('too_large', `The reference video is larger than the ${megabytes(this.maxBytes)} allowed; link a shorter or smaller clip.`));
      return;
    }
    if (this.released) {
      callback(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) callback();
    else this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.released) callback();
    else this.release(callback);
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.released = true;
    sniffVideoContainer(head).then((verdict) => {
      if (!verdict.video) {
        callback(refused('not_video', verdict.looksLike === 'a web page' ? NOT_A_VIDEO_FILE : `The reference link is ${verdict.looksLike}, not a video file. ${NOT_A_VIDEO_FILE}`));
        return;
      }
      callback(null, head);
    }, callback);
  }
}

/** The declared media type, lower case, without parameters; '' when absent. */
function mediaTypeOf(response: http.IncomingMessage): string {
  return (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Refuses what the headers already show is not a video file. Absent means "let the bytes tell". */
function checkDeclaredType(mediaType: string): void {
  if (mediaType === '' || mediaType.startsWith('video/')) return;
  if (mediaType === 'application/octet-stream' || mediaType === 'binary/octet-stream') return;
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') throw refused('not_video', NOT_A_VIDEO_FILE);
  if (mediaType.startsWith('audio/')) {
    throw refused('not_video', 'The reference link points to an audio file; a motion reference must be a video clip.');
  }
  throw refused('not_video', `The reference link is not a video file (the server says it is ${mediaType}). ${NOT_A_VIDEO_FILE}`);
}

function statusRefusal(status: number, statusMessage: string | undefined, subject: string): EngineError {
  const said = `HTTP ${status}${statusMessage ? ` ${statusMessage}` : ''}`;
  if (status === 429 || status === 408 || status >= 500) {
    return unavailable(`The ${subject}'s server is not answering properly (${said}); try again later.`);
  }
  if (status === 401 || status === 403 || status === 404 || status === 410) {
    return invalid(`The ${subject} could not be opened (${said}): the file may be private, deleted, or the link expired.`);
  }
  return invalid(`The ${subject} could not be downloaded (${said}).`);
}

/** Errors of our own disk, not of the network or the link. */
const LOCAL_IO_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'EBADF', 'EMFILE', 'ENFILE']);

function networkFailure(error: unknown, subject: string): EngineError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && LOCAL_IO_CODES.has(code)) {
    return new EngineError('engine_failure', `Could not store the file of the ${subject} (${code})`, { cause: error });
  }
  return unavailable(`The ${subject} could not be downloaded (${code ?? (error instanceof Error ? error.message : 'network error')}); try again later.`, error);
}

/** Every kill (deadline, per-hop timeout, caller's cancel) aborts the call with the EngineError to report. */
type Kill = (reason: EngineError) => void;

/** What one hop of a download needs: the host lookup and transport (options or the system's), the settings, and the subject its errors name. */
interface HopContext {
  subject: string;
  settings: ReturnType<typeof linkSettings>;
  lookup: NonNullable<DirectMediaResolverOptions['lookup']>;
  transport: NonNullable<DirectMediaResolverOptions['transport']>;
}

function linkSettings(options: DirectMediaResolverOptions) {
  return {
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    deadlineMs: options.deadlineMs ?? DEFAULTS.deadlineMs,
    probeTimeoutMs: options.probeTimeoutMs ?? DEFAULTS.probeTimeoutMs,
    userAgent: options.userAgent ?? DEFAULTS.userAgent,
  };
}

/** The host's addresses, each vetted: public only (one private answer refuses the host). */
async function vetHost(link: HopContext, hostname: string, signal: AbortSignal, kill: Kill): Promise<VettedAddress[]> {
  const timer = setTimeout(
    () => kill(unavailable(`The ${link.subject}'s host name did not resolve within ${seconds(link.settings.connectTimeoutMs)}; try again later.`)),
    link.settings.connectTimeoutMs,
  );
  let answers: LookupAddress[];
  try {
    answers = await unlessAborted(link.lookup(hostname), signal);
  } catch (error) {
    if (isEngineError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw invalid(`The ${link.subject}'s host "${hostname}" does not exist.`, error);
    throw unavailable(`The ${link.subject}'s host name could not be resolved (${code ?? 'DNS error'}); try again later.`, error);
  } finally {
    clearTimeout(timer);
  }
  if (answers.length === 0) throw invalid(`The ${link.subject}'s host "${hostname}" does not exist.`);
  const vetted: VettedAddress[] = [];
  for (const answer of answers) {
    const verdict = judgeAddress(answer.address);
    if (!verdict.allowed) {
      // One bad answer refuses the host: a resolver that mixes in a private address is an attack or a
      // misconfiguration, and the connection could land on any of them.
      throw invalid(
        `The ${link.subject}'s host "${hostname}" resolves to a private or reserved network address (${verdict.range}); only public internet hosts can be fetched.`,
      );
    }
    vetted.push({ address: verdict.address, family: verdict.family });
  }
  return vetted;
}

/** One GET over a connection pinned to the vetted addresses, with its connect and idle timeouts. */
function requestHop(link: HopContext, url: URL, addresses: VettedAddress[], signal: AbortSignal, kill: Kill): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const requestOptions: https.RequestOptions = {
      protocol: 'https:',
      hostname: url.hostname,
      port: 443,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      servername: url.hostname,
      headers: {
        host: url.host,
        'user-agent': link.settings.userAgent,
        accept: 'video/*, application/octet-stream;q=0.9, */*;q=0.1',
        'accept-encoding': 'identity',
      },
      lookup: pinnedLookup(addresses),
      // A fresh socket per hop: a pooled one might have been opened to another address of the name.
      agent: false,
      signal,
      timeout: link.settings.idleTimeoutMs,
    };
    const timer = setTimeout(
      () => kill(unavailable(`The ${link.subject}'s server did not answer within ${seconds(link.settings.connectTimeoutMs)}; try again later.`)),
      link.settings.connectTimeoutMs,
    );
    let request: http.ClientRequest;
    try {
      request = link.transport(requestOptions);
    } catch (error) {
      // Our wiring, not the network: e.g. a plain-http transport handed these https-only options.
      clearTimeout(timer);
      reject(new EngineError('engine_failure', `The ${link.subject} download could not be started`, { cause: error }));
      return;
    }
    request.on('timeout', () => kill(unavailable(`The ${link.subject}'s server stopped sending data for ${seconds(link.settings.idleTimeoutMs)}; try again later.`)));
    request.once('response', (response) => {
      clearTimeout(timer);
      // A reset before the body is piped must not become an uncaught 'error': pipeline() still sees
      // the stream's errored state when it attaches.
      response.on('error', () => undefined);
      resolve(response);
    });
    // `on`, not `once`: a request aborted after its response can emit again, and must not crash us.
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end();
  });
}

/**
 * What every download here shares: the link and each redirect hop checked by the URL rule, each host
 * vetted (public addresses only, pinned for the connection), timeouts per hop and one deadline.
 * `onResponse` gets the final 200 answer; what it throws is reported as the download's failure.
 */
function createLinkFetcher(options: DirectMediaResolverOptions & { anyHost?: true }, subject: string) {
  const settings = linkSettings(options);
  const link: HopContext = { subject, settings, lookup: options.lookup ?? systemLookup, transport: options.transport ?? defaultTransport };
  const urlRules = options.anyHost ? { allowedDomains: 'any' as const } : options.allowedDomains ? { allowedDomains: options.allowedDomains } : {};

  async function fetchLink<T>(
    rawUrl: string,
    callerSignal: AbortSignal | undefined,
    onResponse: (response: http.IncomingMessage, url: URL, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    const signal = controller.signal;
    const kill: Kill = (reason) => {
      if (!signal.aborted) controller.abort(reason);
    };
    const deadline = setTimeout(
      () => kill(unavailable(`The ${subject} took longer than ${seconds(settings.deadlineMs)} to download; try again later.`)),
      settings.deadlineMs,
    );
    const onCallerAbort = () => kill(new EngineError('cancelled', `The ${subject} download was cancelled.`));
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

    let response: http.IncomingMessage | undefined;
    try {
      let current = rawUrl;
      const visited = new Set<string>();
      for (let hop = 0; ; hop++) {
        const verdict = inspectReferenceUrl(current, urlRules);
        if (!verdict.ok) {
          throw invalid(
            hop === 0
              ? `The ${subject} is not allowed: it ${verdict.problem}.`
              : `The ${subject} redirected to a URL that is not allowed: it ${verdict.problem}.`,
          );
        }
        const url = verdict.url;
        if (visited.has(url.href)) throw invalid(`The ${subject} redirects in a loop.`);
        visited.add(url.href);

        const addresses = await vetHost(link, url.hostname, signal, kill);
        response = await requestHop(link, url, addresses, signal, kill);
        const status = response.statusCode ?? 0;
        if (REDIRECT_STATUSES.has(status)) {
          const location = response.headers.location;
          response.destroy();
          response = undefined;
          if (!location) throw invalid(`The ${subject} answered a redirect (HTTP ${status}) without saying where to.`);
          if (hop >= settings.maxRedirects) throw invalid(`The ${subject} redirected more than ${settings.maxRedirects} times.`);
          try {
            current = new URL(location, url).href;
          } catch {
            throw invalid(`The ${subject} redirected to an address that is not a valid URL.`);
          }
          continue;
        }
        if (status !== 200) throw statusRefusal(status, response.statusMessage, subject);
        return await onResponse(response, url, signal);
      }
    } catch (error) {
      response?.destroy();
      // A kill explains itself better than the AbortError or socket error it caused downstream.
      if (signal.aborted && isEngineError(signal.reason)) throw signal.reason;
      if (isEngineError(error)) throw error;
      throw networkFailure(error, subject);
    } finally {
      clearTimeout(deadline);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return { settings, fetchLink };
}

export function createDirectMediaResolver(options: DirectMediaResolverOptions = {}): ReferenceResolver {
  const { settings, fetchLink } = createLinkFetcher(options, 'reference link');

  async function download(
    response: http.IncomingMessage,
    finalUrl: URL,
    resolveOptions: ResolveReferenceOptions,
    signal: AbortSignal,
  ): Promise<ResolvedReference> {
    const mediaType = mediaTypeOf(response);
    checkDeclaredType(mediaType);
    const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' && encoding !== '') {
      throw invalid(`The reference link's server sent the file compressed (${encoding}); link the video file itself.`);
    }
    const declared = response.headers['content-length'];
    const declaredBytes = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null;
    if (declaredBytes !== null && declaredBytes > resolveOptions.maxBytes) {
      throw refused(
        'too_large',
        `The reference video is ${megabytes(declaredBytes)}; the most allowed is ${megabytes(resolveOptions.maxBytes)}. Link a shorter or smaller clip.`,
      );
    }

    const { destinationPath } = resolveOptions;
    const partial = `${destinationPath}.${randomUUID()}.part`;
    // Opened (and so created) before any byte flows: the cleanup below can never race the creation.
    const handle = await fsp.open(partial, 'wx').catch((error: unknown) => {
      throw new EngineError('engine_failure', `Could not create the reference file next to ${destinationPath}`, { cause: error });
    });
    try {
      const guard = new DownloadGuard(resolveOptions.maxBytes);
      await pipeline(response, guard, handle.createWriteStream(), { signal });
      if (guard.bytes === 0) throw refused('unreadable', 'The reference link returned an empty file.');
      if (declaredBytes !== null && guard.bytes !== declaredBytes) {
        throw unavailable('The reference download was cut short; try again later.');
      }
      const durationS = await probeDuration(partial, resolveOptions.maxDurationS);
      // ffprobe does not listen to the signal: a cancel or deadline during the probe is honoured here.
      signal.throwIfAborted();
      await fsp.rename(partial, destinationPath);
      return {
        path: destinationPath,
        contentType: mediaType || 'application/octet-stream',
        sizeBytes: guard.bytes,
        durationS,
        finalUrl: finalUrl.href,
      };
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async function probeDuration(file: string, maxDurationS: number): Promise<number> {
    const probed = await probeMedia(file, { timeoutMs: settings.probeTimeoutMs });
    if (!probed.ok) {
      if (probed.reason === 'tool_unavailable') {
        throw new EngineError('engine_failure', 'ffprobe is not available to check the reference video', { cause: new Error(probed.detail) });
      }
      throw refused('unreadable', 'The reference video could not be read: the file is damaged or not a video.', new Error(probed.detail));
    }
    const { media } = probed;
    if (!media.video) {
      throw refused(
        'unreadable',
        media.audio
          ? 'The reference link points to audio only; a motion reference must be a video clip.'
          : 'The reference file has no video track.',
      );
    }
    const durationS = media.durationS ?? media.video.durationS;
    if (durationS === null || !(durationS > 0)) throw refused('unreadable', 'The reference video could not be read: its length is unknown.');
    if (durationS > maxDurationS) {
      throw refused('unreadable', `The reference clip is ${durationS.toFixed(1)} s long; the most allowed is ${maxDurationS} s. Link a shorter clip.`);
    }
    return durationS;
  }

  async function resolve(rawUrl: string, resolveOptions: ResolveReferenceOptions): Promise<ResolvedReference> {
    if (!(resolveOptions.maxBytes > 0) || !(resolveOptions.maxDurationS > 0)) {
      throw new EngineError('engine_failure', 'reference resolver called without positive maxBytes and maxDurationS');
    }
    return fetchLink(rawUrl, resolveOptions.signal, (response, url, signal) => download(response, url, resolveOptions, signal));
  }

  return { name: 'direct-media', resolve };
}

/**
 * Limits for a file a request links to: the request waits for it, inside API Gateway's 30 s, so the
 * whole download gets 20 s.
 */
const LINKED_FILE_LIMITS = { maxRedirects: 5, connectTimeoutMs: 5_000, idleTimeoutMs: 10_000, deadlineMs: 20_000 } as const;

/** Counts bytes against the cap while they flow. */
class ByteCap extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(this.bytes > this.maxBytes ? new RemoteFileError('too_large', `The linked file is larger than the ${megabytes(this.maxBytes)} allowed.`) : null, chunk);
  }
}

/**
 * Files linked from a request (demo_video_url, image_url): any public https host, through the same
 * vetted, pinned and capped fetch as reference links. What the file is, the caller's checks decide
 * (the same as for an upload); here only its size and the way it is fetched.
 */
export function createLinkedFileDownloader(options: DirectMediaResolverOptions = {}): RemoteFiles {
  const { fetchLink } = createLinkFetcher({ ...LINKED_FILE_LIMITS, ...options, anyHost: true }, 'link');

  async function save(response: http.IncomingMessage, finalUrl: URL, maxBytes: number, destinationPath: string, signal: AbortSignal): Promise<RemoteFile> {
    const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' && encoding !== '') throw invalid(`The link's server sent the file compressed (${encoding}); link the file itself.`);
    const declared = response.headers['content-length'];
    const declaredBytes = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null;
    if (declaredBytes !== null && declaredBytes > maxBytes) {
      throw new RemoteFileError('too_large', `The linked file is ${megabytes(declaredBytes)}; the most allowed is ${megabytes(maxBytes)}.`);
    }
    const partial = `${destinationPath}.${randomUUID()}.part`;
    const handle = await fsp.open(partial, 'wx');
    try {
      const cap = new ByteCap(maxBytes);
      await pipeline(response, cap, handle.createWriteStream(), { signal });
      if (cap.bytes === 0) throw invalid('The link returned an empty file.');
      if (declaredBytes !== null && cap.bytes !== declaredBytes) throw unavailable('The download of the link was cut short; try again later.');
      await fsp.rename(partial, destinationPath);
      return { path: destinationPath, sizeBytes: cap.bytes, finalUrl: finalUrl.href };
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async function download(url: string, { maxBytes, destinationPath }: { maxBytes: number; destinationPath: string }): Promise<RemoteFile> {
    try {
      return await fetchLink(url, undefined, (response, finalUrl, signal) => save(response, finalUrl, maxBytes, destinationPath, signal));
    } catch (error) {
      throw asRemoteFileError(error);
    }
  }

  return { download };
}

/** The fetcher speaks EngineError (the pipeline's language); a request's caller wants the refusal kind. */
function asRemoteFileError(error: unknown): unknown {
  if (error instanceof RemoteFileError) return error;
  if (error instanceof Error && error.cause instanceof RemoteFileError) return error.cause;
  if (!isEngineError(error)) return error;
  if (error.code === 'invalid_input') return new RemoteFileError('refused', error.message, { cause: error });
  if (error.code === 'engine_failure') return error;
  return new RemoteFileError('unavailable', error.message, { cause: error });
}
