/**
 * Each command over the typed client: what it calls, what it prints (a line or a table, or the
 * API's data as JSON), and the errors it turns into exit codes (exit-codes.ts).
 */
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { createClient, signWebhook, unwrap, type ReactionStudioClient, type Job } from '@reaction-studio/client';
import type { Command } from './args.js';
import { configPath, readConfig, resolveCredentials, writeConfig, DEFAULT_BASE_URL, type Env } from './config.js';
import { JobFailedError, NotSignedInError, UsageError } from './exit-codes.js';
import { download, inputFile } from './files.js';
import { followEvents, forwardTo, sleep, type ListedEvent } from './listen.js';
import { batchTable, forwardedLine, jobLine, musicTable, takesTable, productLine, productsTable, progressLine, table, videosTable, type Io } from './output.js';
import { progress } from './progress.js';

export interface Context {
  io: Io;
  env: Env;
  json: boolean;
  /** Between two polls of --wait and of `webhooks listen` (tests shorten it). */
  intervalMs?: number;
  /** Ends `webhooks listen` (Ctrl-C). */
  signal?: AbortSignal;
}

/** How often `webhooks listen` looks for new events unless RS_POLL_INTERVAL_MS says otherwise. */
const LISTEN_INTERVAL_MS = 2000;

const MEDIA_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.webm': 'video/webm', '.avi': 'video/x-msvideo' };
const mediaType = (path: string) => MEDIA_TYPES[extname(path).toLowerCase()] ?? 'video/mp4';
/** What a music upload declares; the service judges the bytes again. */
const AUDIO_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/opus',
  '.flac': 'audio/flac',
};
const audioType = (path: string) => AUDIO_TYPES[extname(path).toLowerCase()] ?? 'audio/mpeg';

async function client(ctx: Context): Promise<ReactionStudioClient> {
  const { apiKey, baseUrl } = await resolveCredentials(ctx.env);
  if (!apiKey) throw new NotSignedInError();
  return createClient({ baseUrl, apiKey, headers: { 'User-Agent': 'reaction-studio-cli' } });
}

function print(ctx: Context, data: unknown, human: () => string): void {
  ctx.io.out(ctx.json ? JSON.stringify(data, null, 2) : human());
}

export async function execute(command: Exclude<Command, { name: 'help' | 'version' }>, ctx: Context): Promise<void> {
  switch (command.name) {
    case 'login':
      return login(command, ctx);
    case 'products create': {
      const rs = await client(ctx);
      const demo = await inputFile(command.demo, '--demo');
      const upload = await rs.uploadFile('demo_video', demo, { contentType: mediaType(command.demo) });
      let product = await rs.createProduct({ name: command.productName, description: command.description, demo_video_upload_id: upload.id });
      if (command.wait) {
        ctx.io.err(`product ${product.id}: waiting for its demo`);
        const bar = progress(ctx.io);
        bar.update(`product ${product.id}: demo processing`);
        try {
          product = await rs.waitForDemo(product.id, { intervalMs: ctx.intervalMs });
        } finally {
          bar.done();
        }
        if (product.demo_video?.status === 'failed') {
          const failure = product.demo_video.error;
          throw Object.assign(new Error(`product ${product.id}: demo failed: ${failure?.message ?? 'unknown'}`), { code: failure?.code ?? 'demo_failed' });
        }
      }
      return print(ctx, product, () => productLine(product));
    }
    case 'products list': {
      const rs = await client(ctx);
      const page = await unwrap(rs.GET('/products', { params: { query: { per_page: 100 } } }));
      return print(ctx, page.data, () => productsTable(page.data));
    }
    case 'hooks': {
      const rs = await client(ctx);
      const ideas = (await unwrap(rs.POST('/hooks', { body: { product_id: command.productId } }))).data;
      return print(ctx, ideas, () => ideas.hooks.map((h, i) => `${String(i + 1).padStart(2)}. ${h.text}  [${h.format}]`).join('\n'));
    }
    case 'videos create':
      return createVideo(command, ctx);
    case 'videos batch':
      return createBatch(command, ctx);
    case 'videos download': {
      const rs = await client(ctx);
      const video = await rs.getVideo(command.videoId);
      const path = await download(video.download_url, command.out ?? `reaction-video-${video.id}.mp4`);
      return print(ctx, { ...video, file: path }, () => path);
    }
    case 'videos list': {
      const rs = await client(ctx);
      const page = await unwrap(rs.GET('/videos', { params: { query: { per_page: 100 } } }));
      return print(ctx, page.data, () => videosTable(page.data));
    }
    case 'music list': {
      const tracks = (await unwrap((await client(ctx)).GET('/music'))).data;
      return print(ctx, tracks, () => musicTable(tracks));
    }
    case 'music add': {
      const rs = await client(ctx);
      // A direct upload: the way for any size (on AWS a request body carries about 4 MB).
      const upload = await rs.uploadFile('music', await inputFile(command.file, 'FILE'), { contentType: audioType(command.file) });
      const track = (await unwrap(rs.POST('/music', { body: { audio_upload_id: upload.id, ...(command.trackName ? { name: command.trackName } : {}) } }))).data;
      return print(ctx, track, () => musicTable([track]));
    }
    case 'music delete': {
      const deleted = (await unwrap((await client(ctx)).DELETE('/music/{music_id}', { params: { path: { music_id: command.musicId } } }))).data;
      return print(ctx, deleted, () => `deleted ${deleted.id}`);
    }
    case 'jobs get': {
      const job = await (await client(ctx)).getJob(command.jobId);
      return print(ctx, job, () => jobLine(job));
    }
    case 'jobs takes': {
      const takes = await (await client(ctx)).listTakes(command.jobId);
      return print(ctx, takes, () => takesTable(takes));
    }
    case 'jobs approve': {
      const rs = await client(ctx);
      const job = await rs.approveJob(command.jobId, { take: command.take, hook_text: command.hook, hook_position: command.position, hook_size: command.size, ...lookFields(command), sound: command.sound, music_id: command.musicId });
      if (command.wait) return follow(rs, ctx, job, 'final', command.out);
      return print(ctx, job, () => jobLine(job));
    }
    case 'jobs regenerate': {
      const rs = await client(ctx);
      const job = await rs.regenerateJob(command.jobId, { prompt: command.prompt, ...lookFields(command), ...soundFields(command) });
      if (command.wait) return follow(rs, ctx, job, 'preview_ready');
      return print(ctx, job, () => jobLine(job));
    }
    case 'webhooks listen':
      return command.printSecret ? ctx.io.out(await listenSecret(ctx)) : listen(command, ctx);
    case 'usage': {
      const usage = (await unwrap((await client(ctx)).GET('/usage'))).data;
      return print(ctx, usage, () =>
        table(
          [
            ['videos this month', usage.allowance.used, usage.allowance.reserved, usage.allowance.remaining, usage.allowance.limit],
            ['library', usage.library.used, '-', usage.library.remaining, usage.library.cap],
            ['avatars', usage.avatars.used, '-', usage.avatars.remaining, usage.avatars.cap],
          ],
          [`PLAN ${usage.plan.name}`, 'USED', 'RESERVED', 'LEFT', 'LIMIT'],
        ),
      );
    }
  }
}

async function login(command: Extract<Command, { name: 'login' }>, ctx: Context): Promise<void> {
  const path = configPath(ctx.env);
  const stored = await readConfig(path);
  const baseUrl = (command.baseUrl ?? stored.base_url ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const key = command.key === '-' ? (await ctx.io.readStdin()).trim() : command.key;
  if (!key) throw new UsageError('--key -: no key on standard input');
  // The key is checked before it is kept: a wrong one is a 401 (exit 3) and the file is left alone.
  const rs = createClient({ baseUrl, apiKey: key, headers: { 'User-Agent': 'reaction-studio-cli' } });
  const usage = (await unwrap(rs.GET('/usage'))).data;
  await writeConfig(path, { ...stored, api_key: key, base_url: baseUrl });
  print(ctx, { base_url: baseUrl, config: path, plan: usage.plan.name }, () => `signed in to ${baseUrl} (plan ${usage.plan.name}); key saved in ${path}`);
}

async function createVideo(command: Extract<Command, { name: 'videos create' }>, ctx: Context): Promise<void> {
  const rs = await client(ctx);
  const { source } = command;
  const fields = {
    product_id: command.productId,
    mode: command.preview ? ('preview' as const) : ('auto' as const),
    hook_text: command.hook,
    hook_position: command.position,
    hook_size: command.size,
    ...lookFields(command),
    ...soundFields(command),
  };
  let job: Job;
  if (source.method === 'prompt') job = await rs.createVideoJob({ ...fields, method: 'prompt', prompt: source.prompt });
  else if (source.method === 'reuse') {
    // parseInvocation already refused --voice-line with --reaction; the request's type refuses the field.
    const { voice_line: _none, ...reuse } = fields;
    job = await rs.createVideoJob({ ...reuse, method: 'reuse', reaction_id: source.reactionId });
  }
  else {
    const reference = await inputFile(source.reference, '--reference');
    const upload = await rs.uploadFile('reference_video', reference, { contentType: mediaType(source.reference) });
    job = await rs.createVideoJob({ ...fields, method: 'motion', avatar_id: source.avatarId, video_source: 'upload', reference_video_upload_id: upload.id });
  }
  if (!command.wait) return print(ctx, job, () => jobLine(job));
  return follow(rs, ctx, job, command.preview ? 'preview_ready' : 'final', command.out);
}

/**
 * --wait: the job's id on stderr at once (whatever stderr is, so an interrupted wait still says which
 * job to look at), a progress line while stderr is a terminal, then the preview's URL, or the video
 * downloaded and its path.
 */
async function follow(rs: ReactionStudioClient, ctx: Context, job: Job, until: 'final' | 'preview_ready', out?: string): Promise<void> {
  ctx.io.err(`job ${job.id} ${job.status}: waiting for its ${until === 'final' ? 'video' : 'preview'}`);
  const bar = progress(ctx.io);
  let settled: Job;
  try {
    settled = await rs.waitForJob(job.id, { until, intervalMs: ctx.intervalMs, onProgress: (j) => bar.update(progressLine(j)) });
  } finally {
    bar.done();
  }
  if (settled.status === 'failed') throw new JobFailedError(settled.id, settled.error?.code ?? 'failed', settled.error?.message ?? 'unknown');
  const ready = settled;
  if (ready.status === 'preview_ready') return print(ctx, ready, () => ready.preview_url ?? jobLine(ready));
  const video = await rs.getVideo(ready.video_id!);
  const path = await download(video.download_url, out ?? `reaction-video-${video.id}.mp4`);
  print(ctx, { job: ready, video, file: path }, () => path);
}

/** One reaction under each hook, in one POST /videos/batch; with --wait, every job followed to its end. */
async function createBatch(command: Extract<Command, { name: 'videos batch' }>, ctx: Context): Promise<void> {
  const rs = await client(ctx);
  const { source } = command;
  const reaction = source.method === 'prompt' ? { method: 'prompt' as const, prompt: source.prompt } : { method: 'reuse' as const, reaction_id: source.reactionId };
  let batch = await rs.createVideoBatch({
    product_id: command.productId,
    variants: command.hooks.map((hook) => ({ ...reaction, hook_text: hook, hook_position: command.position, hook_size: command.size, ...lookFields(command), ...soundFields(command) })),
  });
  if (command.wait) {
    ctx.io.err(`batch ${batch.id}: jobs ${batch.jobs.map((j) => j.id).join(', ')}: waiting for their videos`);
    const bar = progress(ctx.io);
    try {
      // Jobs are served oldest first, so waiting for them in order waits about as long as the last.
      for (const [i, job] of batch.jobs.entries()) {
        await rs.waitForJob(job.id, { until: 'final', intervalMs: ctx.intervalMs, onProgress: (j) => bar.update(`${i + 1}/${batch.jobs.length} ${progressLine(j)}`) });
      }
    } finally {
      bar.done();
    }
    batch = await rs.getVideoBatch(batch.id);
  }
  const done = batch;
  print(ctx, done, () => batchTable(done));
  const failed = done.jobs.find((j) => j.status === 'failed');
  if (command.wait && failed) throw new JobFailedError(failed.id, failed.error?.code ?? 'failed', failed.error?.message ?? 'unknown');
}

/** The sound options as the API names them; what was not given stays out of the body. */
function lookFields(command: { style?: 'outline' | 'box' | 'highlight' | 'glow' | 'bold_caps'; hookDuration?: 'reaction' | 'full' }) {
  return { hook_style: command.style, hook_duration: command.hookDuration };
}

function soundFields(command: { sound?: 'auto' | 'music' | 'none'; musicId?: string; voiceLine?: string }) {
  return { sound: command.sound, music_id: command.musicId, voice_line: command.voiceLine };
}

/** The secret `webhooks listen` signs with: the config file's, made there on first use. */
async function listenSecret(ctx: Context): Promise<string> {
  const path = configPath(ctx.env);
  const stored = await readConfig(path);
  if (stored.listen_secret) return stored.listen_secret;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await writeConfig(path, { ...stored, listen_secret: secret });
  return secret;
}

/** `webhooks listen --forward-to URL`: listen.ts says how; this wires it to the API, the URL and the output. */
async function listen(command: Extract<Command, { name: 'webhooks listen' }>, ctx: Context): Promise<void> {
  const rs = await client(ctx);
  const secret = await listenSecret(ctx);
  const signal = ctx.signal ?? new AbortController().signal;
  await followEvents(
    {
      events: async (after, limit) => {
        const page = await unwrap(rs.GET('/webhooks/events', { params: { query: { limit, ...(after ? { after } : {}) } } }));
        return { data: page.data as ListedEvent[], next_after: page.meta.next_after };
      },
      forward: (event) => forwardTo(command.forwardTo, event, (body, id) => signWebhook(body, id, secret)),
      sleep,
      forwarded: (event, result) => print(ctx, { id: event.id, type: event.type, ...('status' in result ? { status: result.status } : { error: result.error }), duration_ms: result.durationMs }, () => forwardedLine(event, result)),
      pollFailed: (error) => ctx.io.err(`could not read new events (trying again): ${error instanceof Error ? error.message : String(error)}`),
    },
    {
      intervalMs: ctx.intervalMs ?? LISTEN_INTERVAL_MS,
      types: command.events,
      signal,
      ready: () => {
        const what = command.events ? command.events.join(', ') : 'every event';
        if (ctx.json) ctx.io.out(JSON.stringify({ ready: true, forward_to: command.forwardTo, events: command.events ?? ['*'], secret }));
        else ctx.io.err(`Ready: forwarding ${what} of this account to ${command.forwardTo} (Ctrl-C to stop). Signing secret: ${secret}`);
      },
    },
  );
}
