/**
 * A fal.ai queue API double over real HTTP on loopback, held to the wire of fal's own client
 * (`@fal-ai/client`, driven against it in test/contract), with state:
 *
 *   POST /{model_id}[/{subpath}]                 submit → 200 IN_QUEUE, with status/response/cancel URLs;
 *                                                an unknown model is 404, a bad input 422 (fal-models.ts)
 *   GET  /{owner}/{app}/requests/{id}/status     202 IN_QUEUE → 202 IN_PROGRESS → 200 COMPLETED over polls
 *   GET  /{owner}/{app}/requests/{id}            the model output (400 "still in progress" before that)
 *   PUT  /{owner}/{app}/requests/{id}/cancel     202 CANCELLATION_REQUESTED / 400 ALREADY_COMPLETED
 *   GET  /media/{id}.{mp4|png|wav}               the generated file (a real MP4, PNG or WAV made with ffmpeg)
 *
 * As on fal, the status/result/cancel paths hang off the app root (`fal-ai/kling-video`), never the
 * model's subpath: `/fal-ai/kling-video/v2.6/.../requests/{id}/status` answers 405, so a client that
 * builds them from the model id fails. Every queue answer carries `x-fal-request-id`. A cancelled
 * request ends COMPLETED (fal's status enum has nothing else) with its result a 400. Every queue call
 * needs `Authorization: Key <key>` (401 otherwise). Faults are injectable per route: delays, any
 * status with Retry-After or X-Fal-Error-Type, malformed bodies, dropped connections; job scripts set
 * the status sequence (any string: how a client meets a status outside the enum), the result (422
 * details, NSFW flags) and which media file is served. With `fetchInputs` on, the inputs' URLs are
 * fetched at submit as fal would, and a motion reference outside Kling's limits fails at the result.
 * Text-to-speech models answer `audio` (a WAV of a voice-band tone, 2.5 s), lip-sync models a 5 s
 * video whose sound is such a tone (what the speech over the reaction comes back as).
 * `deliverWebhook` POSTs a job's webhook body (OK or ERROR) to the `fal_webhook` URL it was
 * submitted with. With `runOnTheirOwn`, a job submitted with `?fal_webhook=` completes by itself and
 * fal's webhook is POSTed (redelivered on any answer but 2xx), as a job generating by callback meets
 * fal. Every answer and webhook body is held to fal's published shapes in
 * test/contract/provider-schemas.test.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileArg, runFfmpeg, probeMedia, sniffVideoContainer } from '#render';
import { FAL_MODELS, inputErrors, motionReferenceErrors, type FieldError } from './fal-models';
const { max, min } = Math;

type FalRoute = 'submit' | 'status' | 'result' | 'cancel' | 'media';

interface FalFault {
  route: FalRoute;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Wait before answering (a slow provider); with no status, the normal answer follows. */
  delayMs?: number;
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON, a string as is (e.g. malformed JSON). */
  body?: unknown;
  /** Drop the connection without an answer. */
  destroy?: boolean;
}

type FalMedia = 'video-6s' | 'video-2s' | 'video-3s' | 'video-4s' | 'video-voiced' | 'png' | 'speech' | 'missing' | 'not-media';

interface FalJobScript {
  /** Status per poll, the last one repeating. Default IN_QUEUE, IN_PROGRESS, COMPLETED. */
  statuses: string[];
  /** Which file the result URL serves. Default: png for flux, speech for TTS, video-voiced for lip-sync, video-6s otherwise. */
  media?: FalMedia;
  /** FLUX: has_nsfw_concepts of the result. */
  nsfw?: boolean;
  /** Replace the result answer entirely. */
  result?: { status: number; body: unknown; headers?: Record<string, string> };
  /** Submit answers this instead of accepting the job (e.g. a 422 validation detail). */
  submitAnswer?: { status: number; body: unknown; headers?: Record<string, string> };
  /** Drop a field from the submit answer (contract break). */
  omitFromSubmit?: string;
}

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
}

interface DoubleJob {
  id: string;
  app: string;
  endpoint: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  polls: number;
  completed: boolean;
  cancelled: boolean;
  script: FalJobScript;
  /** What fetching the input's http(s) URLs gave (status and size), when `fetchInputs` is on. */
  inputFetches: Record<string, { status: number; bytes: number; contentType: string | null }>;
  /** What running it found wrong with its inputs (a motion reference out of limits): the result is a 422. */
  runErrors: FieldError[];
}

export interface FalDouble {
  baseUrl: string;
  key: string;
  requests: RecordedRequest[];
  jobs: Map<string, DoubleJob>;
  /** Queue a fault for the next matching request(s). */
  fault(fault: FalFault): void;
  /** The script for jobs submitted from now on (merged over the defaults). */
  script(script: Partial<FalJobScript>): void;
  /** Fetch the input's URL fields at submit, as fal would (proves presigned URLs work). */
  fetchInputs(on: boolean): void;
  /** Completes a job now, whatever its script says. */
  complete(requestId: string): void;
  /** The body fal would POST to the job's webhook. */
  webhookBody(requestId: string, status?: 'OK' | 'ERROR'): Record<string, unknown>;
  /**
   * POSTs that body, as JSON, to the `fal_webhook` URL the job was submitted with, as fal does when
   * a request ends (no signature headers: the double has no fal key to sign with). Answers the
   * receiver's HTTP status; throws when the job had no webhook.
   */
  deliverWebhook(requestId: string, status?: 'OK' | 'ERROR'): Promise<number>;
  /**
   * Jobs submitted with `?fal_webhook=` from now on run on their own, as on fal where nobody polls:
   * each completes `afterMs` after its submit and its webhook is POSTed, again on any answer but 2xx
   * (fal redelivers for 2 h; here every 50 ms, at most 200 times). `webhook: false` completes them
   * and never calls back (a lost webhook). null: they wait for polls or `complete`, as before.
   */
  runOnTheirOwn(options: { afterMs: number; webhook?: boolean } | null): void;
  /** Each webhook POST made, with the answer's status (0: no answer). */
  deliveries: { requestId: string; url: string; status: number }[];
  /** Requests matching a route. */
  calls(route: FalRoute): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_STATUSES = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'];

const MEDIA_DIR = path.join(os.tmpdir(), 'reaction-studio-fal-double');
const mediaFiles = new Map<string, Promise<string>>();

/**
 * A generated video's picture: a white square sliding over a flat colour, 360x640. Every video the
 * engine keeps is normalised to 1080x1920 (media.ts), and x264's cost there is the content's: on
 * testsrc2's busy pattern a 5 s clip took 4-5 CPU-s, on this about 2. With `sound`, a tone of that
 * pitch too; a lavfi graph's unlabelled outputs are its streams.
 */
function lavfiVideo(seconds: number, rate: number, sound?: number): string[] {
  const picture = `color=c=0x3366aa:s=360x640:r=${rate}:d=${seconds}[bg];color=c=white:s=60x60:r=${rate}[box];[bg][box]overlay=x='mod(t*100,300)':y=200:shortest=1`;
  const audio = sound ? ['-c:a', 'aac', '-shortest'] : [];
  return ['-f', 'lavfi', '-i', sound ? `${picture}[out0];sine=f=${sound}:d=${seconds}[out1]` : picture, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...audio, '-f', 'mp4'];
}

const MEDIA_RECIPES: Record<Exclude<FalMedia, 'missing' | 'not-media'>, { ext: string; args: string[] }> = {
  'video-6s': { ext: 'mp4', args: lavfiVideo(6, 30) },
  'video-4s': { ext: 'mp4', args: lavfiVideo(4, 24, 330) },
  // The shortest clip a reaction may be: for tests that read the request, not the result.
  'video-3s': { ext: 'mp4', args: lavfiVideo(3, 30) },
  'video-2s': { ext: 'mp4', args: lavfiVideo(2, 30) },
  'video-voiced': { ext: 'mp4', args: lavfiVideo(5, 30, 220) },
  speech: { ext: 'wav', args: ['-f', 'lavfi', '-i', 'sine=f=220:d=2.5:sample_rate=24000', '-c:a', 'pcm_s16le', '-f', 'wav'] },
  png: { ext: 'png', args: ['-f', 'lavfi', '-i', 'testsrc2=s=768x1344:r=1:d=1', '-frames:v', '1', '-c:v', 'png', '-f', 'image2'] },
};

/** Small vertical test media made once per machine with the project's ffmpeg (lavfi sources), named by a hash of the recipe. */
function mediaFile(kind: Exclude<FalMedia, 'missing' | 'not-media'>): Promise<string> {
  let pending = mediaFiles.get(kind);
  if (!pending) {
    pending = (async () => {
      const recipe = MEDIA_RECIPES[kind];
      const hash = createHash('sha256').update(JSON.stringify(recipe)).digest('hex').slice(0, 12);
      const file = path.join(MEDIA_DIR, `${kind}-${hash}.${recipe.ext}`);
      if (await fsp.stat(file).then((s) => s.size > 0, () => false)) return file;
      await fsp.mkdir(MEDIA_DIR, { recursive: true });
      const partial = `${file}.${process.pid}.${randomUUID()}.partial.${recipe.ext}`;
      try {
        await runFfmpeg(['-v', 'error', ...recipe.args, '-y', fileArg(partial)], { timeoutMs: 60_000 });
        await fsp.rename(partial, file);
      } finally {
        await fsp.rm(partial, { force: true });
      }
      return file;
    })();
    mediaFiles.set(kind, pending);
    pending.catch(() => mediaFiles.delete(kind));
  }
  return pending;
}

/** The reference clip as fal's runner would see it: its container and duration (0 when unreadable). */
async function clipOf(bytes: Buffer): Promise<{ durationS: number; container: string | null }> {
  const sniffed = await sniffVideoContainer(bytes.subarray(0, 512));
  if ('refused' in sniffed) return { durationS: 0, container: null };
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'fal-double-clip-'));
  try {
    const file = path.join(dir, 'clip');
    await fsp.writeFile(file, bytes);
    const probed = await probeMedia(file, { format: sniffed.demuxer });
    const durationS = probed.ok ? (probed.media.video?.durationS ?? probed.media.durationS ?? 0) : 0;
    return { durationS, container: sniffed.container };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** The file a job's result serves: its script's, else what its kind of model makes. */
function mediaOf(job: DoubleJob): FalMedia {
  if (job.script.media) return job.script.media;
  if (job.endpoint.includes('flux')) return 'png';
  if (/kokoro|tts/.test(job.endpoint)) return 'speech';
  if (/lipsync/.test(job.endpoint)) return 'video-voiced';
  return 'video-6s';
}

const extOf = (media: FalMedia) => (media === 'png' ? 'png' : media === 'speech' ? 'wav' : 'mp4');

function appOf(endpoint: string): string {
  return endpoint.split('/').slice(0, 2).join('/');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export async function startFalDouble(options: { key?: string } = {}): Promise<FalDouble> {
  const key = options.key ?? 'fal-test-key';
  const requests: RecordedRequest[] = [];
  const jobs = new Map<string, DoubleJob>();
  let faults: Array<FalFault & { left: number }> = [];
  let script: Partial<FalJobScript> = {};
  let fetchInputs = false;
  let baseUrl = '';

  /** Only the app root (owner/app) has request paths: a deeper prefix is not a route. */
  const REQUEST_PATH = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?\/?$/;

  const routeOf = (method: string, pathname: string): FalRoute | null => {
    if (pathname.startsWith('/media/')) return 'media';
    const request = REQUEST_PATH.exec(pathname);
    if (request) {
      if (method === 'PUT' && request[3] === '/cancel') return 'cancel';
      if (method === 'GET' && request[3] === '/status') return 'status';
      if (method === 'GET' && !request[3]) return 'result';
      return null;
    }
    if (pathname.includes('/requests/')) return null;
    return method === 'POST' ? 'submit' : null;
  };

  const jobFrom = (pathname: string): DoubleJob | undefined => {
    const match = REQUEST_PATH.exec(pathname);
    const job = match ? jobs.get(match[2]!) : undefined;
    return job && job.app === match![1] ? job : undefined;
  };

  const output = (job: DoubleJob): unknown => {
    const media = mediaOf(job);
    const url = `${baseUrl}/media/${job.id}.${extOf(media)}`;
    if (media === 'speech') return { audio: { url, content_type: 'audio/wav', file_name: `${job.id}.wav`, file_size: 120044 } };
    if (media === 'png') {
      return {
        images: [{ url, width: 768, height: 1344, content_type: 'image/png' }],
        seed: job.input.seed ?? 42,
        has_nsfw_concepts: [job.script.nsfw ?? false],
        timings: { inference: 0.3 },
        prompt: job.input.prompt,
      };
    }
    return { video: { url, content_type: 'video/mp4', file_name: `${job.id}.mp4`, file_size: 12345 } };
  };

  /** The body fal POSTs to a job's webhook when it ends. */
  const webhookBody = (requestId: string, status: 'OK' | 'ERROR' = 'OK'): Record<string, unknown> => {
    const job = jobs.get(requestId);
    return {
      request_id: requestId,
      gateway_request_id: requestId,
      status,
      payload: status === 'OK' && job ? output(job) : { detail: [{ loc: ['body'], msg: 'generation failed', type: 'runtime_error' }] },
      // fal's WebHookResponse: `error` is never present on OK.
      ...(status === 'OK' ? {} : { error: 'Invalid status code: 422' }),
    };
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const body = await readBody(req);
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body, json });
    const route = routeOf(method, url.pathname);
    if (!route) return send(res, 405, { detail: 'Method Not Allowed' });

    const fault = faults.find((f) => f.route === route && f.left > 0);
    if (fault) {
      fault.left -= 1;
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs).unref());
      if (fault.destroy) {
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) return send(res, fault.status, fault.body ?? '', fault.headers);
    }

    if (route === 'media') {
      const match = /^\/media\/([^/.]+)\.(mp4|png|wav)$/.exec(url.pathname);
      const job = match ? jobs.get(match[1]!) : undefined;
      const media = job ? mediaOf(job) : 'missing';
      if (!job || media === 'missing') return send(res, 404, { detail: 'Not Found' });
      if (media === 'not-media') return send(res, 200, 'this is not a video at all', { 'content-type': 'video/mp4' });
      const bytes = await fsp.readFile(await mediaFile(media));
      const contentType = { png: 'image/png', wav: 'audio/wav', mp4: 'video/mp4' }[extOf(media)];
      res.writeHead(200, { 'content-type': contentType, 'content-length': String(bytes.length) });
      res.end(bytes);
      return;
    }

    if (req.headers.authorization !== `Key ${key}`) {
      return send(res, 401, { detail: 'Invalid or missing API key. Use the header: Authorization: Key <FAL_KEY>' });
    }

    if (route === 'submit') {
      const endpoint = url.pathname.replace(/^\/+/, '');
      const jobScript: FalJobScript = { statuses: DEFAULT_STATUSES, ...script };
      if (jobScript.submitAnswer) return send(res, jobScript.submitAnswer.status, jobScript.submitAnswer.body, jobScript.submitAnswer.headers);
      const model = FAL_MODELS[endpoint];
      if (!model) return send(res, 404, { detail: `Application "${endpoint}" not found` });
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        return send(res, 422, { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'model_attributes_type' }] });
      }
      const invalid = inputErrors(model, json as Record<string, unknown>);
      if (invalid.length > 0) return send(res, 422, { detail: invalid });
      const id = randomUUID();
      const app = appOf(endpoint);
      const job: DoubleJob = {
        id,
        app,
        endpoint,
        input: json as Record<string, unknown>,
        webhookUrl: url.searchParams.get('fal_webhook'),
        polls: 0,
        completed: false,
        cancelled: false,
        script: jobScript,
        inputFetches: {},
        runErrors: [],
      };
      jobs.set(id, job);
      if (onTheirOwn && job.webhookUrl) runAlone(job, onTheirOwn);
      if (fetchInputs) {
        for (const [field, value] of Object.entries(job.input)) {
          if (typeof value !== 'string' || !/^https?:/.test(value)) continue;
          const got = await fetch(value).catch(() => null);
          const body = got ? Buffer.from(await got.arrayBuffer()) : Buffer.alloc(0);
          job.inputFetches[field] = { status: got?.status ?? 0, bytes: body.length, contentType: got?.headers.get('content-type') ?? null };
          if (field === 'video_url' && endpoint.endsWith('/motion-control')) job.runErrors.push(...motionReferenceErrors(job.input, await clipOf(body)));
        }
      }
      const root = `${baseUrl}/${app}/requests/${id}`;
      const answer: Record<string, unknown> = {
        request_id: id,
        gateway_request_id: id,
        status: 'IN_QUEUE',
        queue_position: 3,
        status_url: `${root}/status`,
        response_url: root,
        cancel_url: `${root}/cancel`,
      };
      if (jobScript.omitFromSubmit) delete answer[jobScript.omitFromSubmit];
      return send(res, 200, answer, { 'x-fal-request-id': id });
    }

    const job = jobFrom(url.pathname);
    if (!job) return send(res, 404, { detail: 'Request not found' });

    const idHeader = { 'x-fal-request-id': job.id };
    if (route === 'cancel') {
      if (job.completed) return send(res, 400, { status: 'ALREADY_COMPLETED' });
      job.cancelled = true;
      job.completed = true;
      return send(res, 202, { status: 'CANCELLATION_REQUESTED' });
    }

    if (route === 'status') {
      // Every status answer carries the request's three URLs, as fal's client types them (QueueStatus).
      const root = `${baseUrl}/${job.app}/requests/${job.id}`;
      const urls = { request_id: job.id, response_url: root, status_url: `${root}/status`, cancel_url: `${root}/cancel` };
      if (job.cancelled) return send(res, 200, { status: 'COMPLETED', ...urls, logs: [] }, idHeader);
      const statuses = job.script.statuses;
      const status = job.completed ? 'COMPLETED' : statuses[min(job.polls, statuses.length - 1)]!;
      job.polls += 1;
      if (status === 'COMPLETED') job.completed = true;
      const extra =
        status === 'IN_QUEUE'
          ? { queue_position: max(0, 3 - job.polls) }
          : status === 'IN_PROGRESS'
            ? { logs: [{ message: `step ${job.polls}`, level: 'INFO', source: 'USER', timestamp: new Date().toISOString() }] }
            : { logs: [], metrics: { inference_time: 1.5 } };
      // fal answers 202 while a request waits or runs, 200 once it is done.
      const httpStatus = status === 'IN_QUEUE' || status === 'IN_PROGRESS' ? 202 : 200;
      return send(res, httpStatus, { status, ...urls, ...extra }, idHeader);
    }

    // result
    const settled = job.completed || job.script.statuses.some((s, i) => i < job.polls && !['IN_QUEUE', 'IN_PROGRESS'].includes(s));
    if (!settled) return send(res, 400, { detail: 'Request is still in progress' }, idHeader);
    if (job.cancelled) return send(res, 400, { detail: 'Request was cancelled' }, idHeader);
    if (job.script.result) return send(res, job.script.result.status, job.script.result.body, { ...idHeader, ...job.script.result.headers });
    if (job.runErrors.length > 0) return send(res, 422, { detail: job.runErrors }, idHeader);
    return send(res, 200, output(job), idHeader);
  }

  let onTheirOwn: { afterMs: number; webhook?: boolean } | null = null;
  const deliveries: FalDouble['deliveries'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, then: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      then();
    }, ms);
    timers.add(timer);
  };
  function runAlone(job: DoubleJob, how: { afterMs: number; webhook?: boolean }) {
    later(how.afterMs, () => {
      if (job.cancelled) return;
      job.completed = true;
      if (how.webhook !== false) void deliver(job, 0);
    });
  }
  async function deliver(job: DoubleJob, attempt: number): Promise<void> {
    const answered = await fetch(job.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(webhookBody(job.id)) }).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    deliveries.push({ requestId: job.id, url: job.webhookUrl!, status: answered });
    if ((answered < 200 || answered > 299) && attempt < 200 && jobs.get(job.id) === job) later(50, () => void deliver(job, attempt + 1));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: `double failed: ${String(error)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Warm the media cache so the first test does not pay for ffmpeg inside its timeouts.
  await Promise.all(Object.keys(MEDIA_RECIPES).map((kind) => mediaFile(kind as keyof typeof MEDIA_RECIPES)));

  return {
    baseUrl,
    key,
    requests,
    jobs,
    fault(fault) {
      faults.push({ ...fault, left: fault.times ?? 1 });
    },
    script(next) {
      script = { ...script, ...next };
    },
    fetchInputs(on) {
      fetchInputs = on;
    },
    complete(requestId) {
      const job = jobs.get(requestId);
      if (!job) throw new Error(`no job ${requestId}`);
      job.completed = true;
    },
    webhookBody,
    async deliverWebhook(requestId, status = 'OK') {
      const target = jobs.get(requestId)?.webhookUrl;
      if (!target) throw new Error(`job ${requestId} was not submitted with a fal_webhook`);
      const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(webhookBody(requestId, status)) });
      await response.arrayBuffer();
      return response.status;
    },
    runOnTheirOwn(options) {
      onTheirOwn = options;
    },
    deliveries,
    calls(route) {
      return requests.filter((r) => routeOf(r.method, r.path) === route);
    },
    reset() {
      requests.length = 0;
      jobs.clear();
      faults = [];
      script = {};
      fetchInputs = false;
      onTheirOwn = null;
      deliveries.length = 0;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
