/**
 * The synthesised app as Lambda would run it, with no AWS account: each zip function's bundle laid out
 * as /var/task and its layers merged as /opt, an image function's context where its Dockerfile
 * copies it (test/support/lambda-layout.ts), checked for size, memory
 * and resolvable requires, then invoked in a fresh Node 22 process against DynamoDB Local and s3rver:
 * an API handler with API Gateway's v2 event, the face-check function and the videos function calling it
 * through a stand-in of Lambda's Invoke API, and the pipeline steps of a prompt reaction, a photo avatar
 * and a motion reference (face detection, ffmpeg, espeak-ng and the native modules from the layers).
 * The synthesis is the one the template suites share, whose layer trees are stand-ins: the layout
 * has the real trees in their place, staged by their own staging functions.
 *
 * Slow by nature (three jobs rendered on the machine's cores): a few minutes.
 */
import { PROVIDER_CALLBACK_ENV } from '#cloud/provider-callbacks';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HANDLER_GROUPS, routeKey, type HandlerGroup } from '#functions/routes';
import { ZIP_BUDGET_BYTES } from '#cloud/function-sizes';
import { MEDIA_CDN_ENV } from '#functions/config';
import type { PipelineStep } from '#pipeline/steps';
import { DEFAULT_RENDER_MEMORY_MB } from '#cloud/render-memory';
import { resourcesOfType, synthesisedStack } from '#test-support/cdk-template';
import { expectCanonical, faceReferenceClip, postMultipart, probe, productWithDemo, download } from '#test-support/jobs';
import { startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import {
  functionAssets,
  functionSize,
  invoke,
  layOut,
  LAMBDA_IMAGE_LIMIT_BYTES,
  NODE22,
  realTreesIn,
  requires,
  type Invocation,
  type LaidOutFunction,
} from '#test-support/lambda-layout';
import { realFacePng } from '#bench/reference-clip';
import { IMAGE_COPIES, IMAGE_HANDLER } from '#cloud/render-image';
import { ESPEAK_ENV } from '#cloud/espeak-tree';
import { FFMPEG_ENV } from '#cloud/ffmpeg-layer';
import { HUMAN_ENTRY, sampleReferenceFramesJpeg } from '#render';
import { makeFixture } from '#test-support/media-fixtures';
import { STOCK_AVATARS } from '#domain/stock-avatars';
const { round } = Math;

const synthesis = synthesisedStack();
const { ids } = synthesis;
let root: string;
let realTree: (staged: string) => string;
const assetsOf = (id: string) => functionAssets(synthesis, id, realTree);

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lambda-layout-'));
  realTree = realTreesIn(path.join(root, 'trees'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Not CDK's own deploy-time copier of the studio build: a Python function whose AWS CLI layer aws-cdk-lib ships prebuilt.
const functionIds = () =>
  resourcesOfType(synthesis.resources, 'AWS::Lambda::Function')
    .map(([id]) => id)
    .filter((id) => !id.startsWith('CustomCDKBucketDeployment'));

/** One layout per function for the static checks (no endpoints: nothing is invoked in them). */
const staticLayouts = new Map<string, LaidOutFunction>();
function staticLayout(id: string): LaidOutFunction {
  if (!staticLayouts.has(id)) staticLayouts.set(id, layOut(assetsOf(id), path.join(root, 'static', id), {}));
  return staticLayouts.get(id)!;
}

describe('every function, laid out as /var/task + /opt (a zip with its layers, an image as its Dockerfile copies it)', () => {
  test('is run by a Node 22 binary, the runtime major the bundles target', () => {
    expect(execFileSync(NODE22, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
  });

  test("fits its limit: a zip function's bundle and layers our 200 MB budget unzipped (Lambda's limit is 250 MiB), an image function's image 10 GB", () => {
    const mb = (bytes: number) => round(bytes / 1e5) / 10;
    const sizes = functionIds().map((id) => {
      const assets = assetsOf(id);
      const { bytes, partsBytes, limitBytes } = functionSize(assets);
      // The parts (in the order they are laid out) say what to shrink when one does not fit.
      return { id, packageType: assets.packageType, mb: mb(bytes), partsMb: partsBytes.map(mb), limitMb: mb(limitBytes), fits: bytes <= limitBytes };
    });
    expect(sizes.filter((s) => !s.fits)).toEqual([]);
    expect(sizes.filter((s) => s.packageType !== 'Image').map((s) => s.limitMb)).toEqual(sizes.filter((s) => s.packageType !== 'Image').map(() => mb(ZIP_BUDGET_BYTES)));
    // Only the functions that run ffmpeg are images: the render function (with the face runtime and
    // espeak-ng too), the demo and sample workers, and the products, music and videos functions.
    const images = sizes.filter((s) => s.packageType === 'Image');
    const ffmpegGroups = (Object.keys(HANDLER_GROUPS) as HandlerGroup[]).filter((g) => 'ffmpeg' in HANDLER_GROUPS[g]).map((g) => ids.api.functions[g]);
    expect(images.map((s) => s.id).sort()).toEqual([ids.jobs.functions.render, ids.workers.functions['sample-demo'], ids.workers.functions['normalise-demo'], ...ffmpegGroups].sort());
    for (const image of images) {
      expect(image.limitMb).toBe(mb(LAMBDA_IMAGE_LIMIT_BYTES));
      // As a zip it would not fit the budget: that is why it is an image.
      expect(image.partsMb.reduce((sum, p) => sum + p, 0)).toBeGreaterThan(mb(ZIP_BUDGET_BYTES));
    }
  });

  test("lays the render image out from its staged Dockerfile: the bundle in /var/task, ffmpeg, espeak-ng, the native modules and the face runtime in /opt, the Dockerfile's ENV", () => {
    const render = staticLayout(ids.jobs.functions.render);
    expect(render.assets.trees.map((t) => [path.basename(t.dir), t.to])).toEqual(IMAGE_COPIES.map((c) => [c.folder, c.to.replace('${LAMBDA_TASK_ROOT}', '/var/task').replace(/\/$/, '')]));
    expect(render.assets.handler).toBe(IMAGE_HANDLER);
    for (const file of ['var/task/index.js', 'opt/bin/ffmpeg', 'opt/bin/ffprobe', 'opt/bin/espeak-ng', 'opt/espeak-ng/share/espeak-ng-data/en_dict', 'opt/nodejs/node_modules/sharp/package.json', `opt/nodejs/node_modules/${HUMAN_ENTRY.packageName}/${HUMAN_ENTRY.file}`]) {
      expect(fs.existsSync(path.join(render.root, file))).toBe(true);
    }
    expect(render.env).toMatchObject({ FFMPEG_PATH: path.join(render.root, FFMPEG_ENV.FFMPEG_PATH), FFPROBE_PATH: path.join(render.root, FFMPEG_ENV.FFPROBE_PATH) });
    // Without it the voice would be looked for at Debian's path, which the Lambda base image lacks.
    expect(render.env).toMatchObject({ ESPEAK_NG_PATH: path.join(render.root, ESPEAK_ENV.ESPEAK_NG_PATH) });
    expect(render.env.NODE_PATH!.split(':')).toContain(path.join(render.opt, 'nodejs', 'node_modules'));
  });

  test('asks for no more memory than the configured cap (a new account deploys it), the render function exactly the cap', () => {
    const memory = Object.fromEntries(functionIds().map((id) => [id, assetsOf(id).memoryMb]));
    expect(Object.entries(memory).filter(([, mb]) => mb > DEFAULT_RENDER_MEMORY_MB)).toEqual([]);
    expect(memory[ids.jobs.functions.render]).toBe(DEFAULT_RENDER_MEMORY_MB);
  });

  test('resolves every require of its bundle in /var/task, /opt or Node itself, and asks the runtime for no AWS SDK (it carries its own)', async () => {
    const unresolved: Record<string, string[]> = {};
    const sdk: Record<string, string[]> = {};
    for (const id of functionIds()) {
      const found = await requires(staticLayout(id));
      if (found.unresolved.length > 0) unresolved[id] = found.unresolved;
      const fromRuntime = found.requested.filter((r) => r.startsWith('@aws-sdk/'));
      if (fromRuntime.length > 0) sdk[id] = fromRuntime;
    }
    expect(unresolved).toEqual({});
    expect(sdk).toEqual({});
  });

  test("cannot reach the repository's node_modules: what no layer carries does not resolve", async () => {
    const usage = staticLayout(ids.api.functions.usage);
    const found = await requires(usage, ['zod', 'sharp', '@vladmandic/human/package.json']);
    expect(found.unresolved).toEqual(expect.arrayContaining(['zod', 'sharp', '@vladmandic/human/package.json']));
  });
});

describe('invoked in the layout against DynamoDB Local and s3rver', () => {
  const STEP_MS = 600_000;
  let t: TestStack;
  let account: { accountId: number; key: string; api: ApiClient };
  let product: { id: number };
  let live: Record<'avatars' | 'usage' | 'videos' | 'faceCheck' | 'steps' | 'render' | 'products' | 'sampleDemo', LaidOutFunction>;
  /** Lambda's Invoke API for the videos function's SDK client: it runs the laid-out face-check function. */
  let lambdaApi: Server;
  /** The same for the products function: it runs the laid-out sample-demo worker (an Event invocation, answered when the worker ends). */
  let workerApi: Server & { events: Promise<Invocation>[] };

  beforeAll(async () => {
    t = await startTestStack();
    // Jobs are written by the local API but run here, step by step, in the laid-out functions.
    t.runner.use({ start: async () => undefined, sendDecision: async () => undefined });
    account = await t.newAccount();
    product = await productWithDemo(account.api, () => t.stack.tasks.idle(), { name: 'Glow Serum' });
    const refs = {
      [ids.data.table]: t.stack.settings.tableName,
      [ids.media.bucket]: t.stack.settings.bucketName,
    };
    // The layout stands in for S3, not CloudFront: empty MEDIA_CDN_* settings keep playback links presigned s3rver URLs.
    const noCdn = Object.fromEntries(Object.values(MEDIA_CDN_ENV).map((name) => [name, '']));
    const endpoints = { DYNAMODB_ENDPOINT: t.stack.dynamoEndpoint, S3_ENDPOINT: t.stack.s3Endpoint, ...noCdn };
    const lay = (name: string, id: string, extra: Record<string, string> = {}) => layOut(assetsOf(id), path.join(root, 'live', name), refs, { ...endpoints, ...extra });
    lambdaApi = await standInLambdaApi(() => live.faceCheck);
    workerApi = await standInLambdaApi(() => live.sampleDemo);
    live = {
      avatars: lay('avatars', ids.api.functions.avatars),
      usage: lay('usage', ids.api.functions.usage),
      // The SDK takes a service's endpoint from AWS_ENDPOINT_URL_<SERVICE>.
      videos: lay('videos', ids.api.functions.videos, { AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambdaApi.address() as AddressInfo).port}` }),
      faceCheck: lay('face-check', ids.faceCheck.function),
      steps: lay('steps', ids.jobs.functions.steps),
      // The HTTP API's address (fal's webhooks) stands in as the local stack's: the local engine never calls back.
      render: lay('render', ids.jobs.functions.render, { [PROVIDER_CALLBACK_ENV]: t.stack.baseUrl }),
      products: lay('products', ids.api.functions.products, { AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(workerApi.address() as AddressInfo).port}` }),
      sampleDemo: lay('sample-demo', ids.workers.functions['sample-demo']),
    };
  }, 300_000);
  afterAll(async () => {
    lambdaApi?.close();
    workerApi?.close();
    await t?.stop();
  });

  const succeeded = (outcome: Invocation) => {
    if (outcome.error) throw new Error(`${outcome.error.name}: ${outcome.error.message}\n--- function output ---\n${outcome.logs.slice(-6000)}`);
    return outcome.result;
  };

  /** API Gateway's payload 2.0 event for an authenticated call, body as the gateway passes it. */
  async function apiEvent(
    method: 'GET' | 'POST',
    routePath: string,
    options: { form?: FormData; pathParameters?: Record<string, string>; query?: Record<string, string> } = {},
  ): Promise<APIGatewayProxyEventV2> {
    const key = routeKey({ method, path: routePath });
    const rawPath = key.slice(key.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_m, name: string) => options.pathParameters![name]!);
    const headers: Record<string, string> = { authorization: `Bearer ${account.key}`, host: 'api.example.com', 'user-agent': 'layout-test' };
    let body: string | undefined;
    if (options.form) {
      const request = new Request('https://api.example.com/', { method: 'POST', body: options.form });
      headers['content-type'] = request.headers.get('content-type')!;
      body = Buffer.from(await request.arrayBuffer()).toString('base64');
    }
    const now = new Date();
    return {
      version: '2.0',
      routeKey: key,
      rawPath,
      rawQueryString: new URLSearchParams(options.query).toString(),
      ...(options.query ? { queryStringParameters: options.query } : {}),
      headers,
      pathParameters: options.pathParameters,
      requestContext: {
        accountId: '123456789012',
        apiId: 'layout',
        domainName: 'api.example.com',
        domainPrefix: 'api',
        http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'layout-test' },
        requestId: `layout-${now.getTime()}`,
        routeKey: key,
        stage: '$default',
        time: now.toUTCString(),
        timeEpoch: now.getTime(),
      },
      body,
      isBase64Encoded: body !== undefined,
    };
  }

  const callApi = async (fn: LaidOutFunction, event: APIGatewayProxyEventV2) => {
    const outcome = await invoke(fn, event);
    const result = succeeded(outcome) as { statusCode: number; body: string; headers: Record<string, string> };
    // A 5xx says nothing in its envelope: the function's own output does.
    if (result.statusCode >= 500) throw new Error(`${result.statusCode} ${result.body}\n--- function output ---\n${outcome.logs.slice(-6000)}`);
    return { status: result.statusCode, body: JSON.parse(result.body) as any, headers: result.headers };
  };

  /** The steps the state machine sends for one job, each in the function the step table names. */
  async function runSteps(jobId: number, steps: readonly PipelineStep[]): Promise<void> {
    for (const step of steps) {
      const fn = step === 'generate_reaction' || step === 'render_preview' || step === 'compose' ? live.render : live.steps;
      succeeded(await invoke(fn, { step, account_id: account.accountId, job_id: jobId }));
    }
  }

  const AUTO_STEPS = ['prepare', 'generate_reaction', 'compose', 'finalize'] as const;

  async function expectFinishedVideo(jobId: number): Promise<void> {
    const job = (await account.api.get(`/videos/jobs/${jobId}`)).body.data;
    expect({ status: job.status, error: job.error ?? null }).toEqual({ status: 'done', error: null });
    const video = (await account.api.get(`/videos/${job.video_id}`)).body.data;
    const file = path.join(root, `video-${jobId}.mp4`);
    expect((await download(video.url, file)).status).toBe(200);
    expectCanonical(await probe(file));
  }

  let photoAvatarId: number;

  test(
    'an API handler (avatars, with sharp from the native layer) takes a photo upload from an API Gateway v2 event; another (usage) reads the account',
    async () => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(await realFacePng())]), 'me.png');
      const created = await callApi(live.avatars, await apiEvent('POST', '/avatars', { form }));
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ source: 'upload', status: 'ready' });
      expect(created.headers['x-request-id']).toBeTruthy();
      photoAvatarId = created.body.data.id as number;
      // Written to DynamoDB Local and s3rver: the local API sees the record and serves the image.
      const stored = (await account.api.get(`/avatars/${photoAvatarId}`)).body.data;
      expect(stored).toMatchObject({ id: photoAvatarId, source: 'upload', status: 'ready' });
      expect((await fetch(stored.image_url)).status).toBe(200);

      const usage = await callApi(live.usage, await apiEvent('GET', '/usage'));
      expect(usage.status).toBe(200);
      expect(usage.body.data.allowance).toMatchObject({ used: 0, reserved: 0 });
    },
    STEP_MS,
  );

  test('the MCP function (the MCP SDK and zod in its bundle, Ajv and zod 3 left out) answers initialize and a tool call through the API at API_BASE_URL', async () => {
    const mcp = layOut(assetsOf(ids.api.mcp), path.join(root, 'live', 'mcp'), {}, { API_BASE_URL: t.stack.apiUrl });
    const template = await apiEvent('GET', '/usage');
    const mcpEvent = (message: unknown): APIGatewayProxyEventV2 => ({
      ...template,
      routeKey: 'ANY /mcp',
      rawPath: '/mcp',
      headers: { ...template.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      requestContext: { ...template.requestContext, routeKey: 'ANY /mcp', http: { ...template.requestContext.http, method: 'POST', path: '/mcp' } },
      body: JSON.stringify(message),
      isBase64Encoded: false,
    });
    const initialize = await callApi(mcp, mcpEvent({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'layout', version: '1' } } }));
    expect(initialize).toMatchObject({ status: 200, body: { id: 1, result: { serverInfo: { name: 'reaction-studio' } } } });
    const usage = await callApi(mcp, mcpEvent({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_usage', arguments: {} } }));
    expect(usage.body.result).toMatchObject({ structuredContent: { plan: { name: 'pro' } } });
    expect(usage.body.result.isError).toBeUndefined();
  });

  test(
    "the sample product: the products function (a zip) starts the sample-demo worker (an image: Skia, the sample's fonts and ffmpeg from /opt), which makes the clip; the next one is a copy, ready within the request",
    async () => {
      const first = await callApi(live.products, await apiEvent('POST', '/products/sample'));
      expect(first).toMatchObject({ status: 201, body: { data: { demo_video: { status: 'processing' } } } });
      expect(workerApi.events).toHaveLength(1);
      succeeded(await workerApi.events[0]!);
      const made = (await account.api.get(`/products/${first.body.data.id}`)).body.data.demo_video;
      expect(made).toMatchObject({ status: 'ready', width: 1080, height: 1920, duration_s: 6 });
      const file = path.join(root, 'sample.mp4');
      expect((await download(made.url, file)).status).toBe(200);
      expectCanonical(await probe(file));

      const second = await callApi(live.products, await apiEvent('POST', '/products/sample'));
      expect(second).toMatchObject({ status: 201, body: { data: { demo_video: { status: 'ready', duration_s: 6 } } } });
      expect(workerApi.events).toHaveLength(1);
    },
    STEP_MS,
  );

  test(
    'a prompt reaction of a stock avatar (read by the steps function, its portrait drawn by the render function) with a voice line (espeak-ng from the image) in preview mode: prepare, generate_reaction, render_preview, charge_preview',
    async () => {
      const stock = STOCK_AVATARS[0]!.id;
      const created = await account.api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'amazed by the glow', avatar_id: stock, hook_text: 'Wait for it', voice_line: 'You have to see this' });
      expect(created.status).toBe(202);
      const jobId = created.body.data.id as number;
      await runSteps(jobId, ['prepare', 'generate_reaction', 'render_preview', 'charge_preview']);
      // The preview is shown once the decision wait stores its token; the record already names it.
      const job = await t.stack.dependencies.jobs.get(account.accountId, jobId);
      expect({ charged: job?.charged_units, preview: job?.preview?.key }).toEqual({ charged: 1, preview: expect.any(String) });
      const file = path.join(root, `preview-${jobId}.mp4`);
      await t.stack.dependencies.blobs.getToFile(job!.preview!.key, file);
      expect((await probe(file)).video).toMatchObject({ codec: 'h264' });
      expect(job?.reaction?.voice).toBe(true);
      // The render function drew the stock portrait into the bucket (nothing had listed avatars before).
      const { dependencies } = t.stack;
      expect(await dependencies.blobs.sizeOf(dependencies.stockAvatars.get(account.accountId, stock)!.image_key!)).toBeGreaterThan(0);
    },
    STEP_MS,
  );

  test(
    'a photo avatar (face detection from the face layer), auto mode: prepare, generate_reaction, compose, finalize',
    async () => {
      expect(photoAvatarId).toEqual(expect.any(Number));
      const created = await account.api.post('/videos', { product_id: product.id, method: 'prompt', avatar_id: photoAvatarId, prompt: 'laughing so hard', hook_text: 'Look at this' });
      expect(created.status).toBe(202);
      await runSteps(created.body.data.id as number, AUTO_STEPS);
      await expectFinishedVideo(created.body.data.id as number);
    },
    STEP_MS,
  );

  test(
    'the face-check function (human from the face layer, sharp from the native layer) answers the frames of a real face clip and of a faceless one',
    async () => {
      const framesOf = async (clip: string) => ({ frames: (await sampleReferenceFramesJpeg(clip)).map((jpeg) => jpeg.toString('base64')) });
      expect(succeeded(await invoke(live.faceCheck, await framesOf(await faceReferenceClip({ durationS: 4 }))))).toEqual({ face: true });
      expect(succeeded(await invoke(live.faceCheck, await framesOf(await makeFixture('vertical-mp4'))))).toEqual({ face: false });
      expect(succeeded(await invoke(live.faceCheck, { frames: 'not a list' }))).toMatchObject({ error: { code: 'invalid_event' } });
    },
    STEP_MS,
  );

  test(
    'the videos function (ffmpeg from its layer) has the face-check function look at an uploaded reference: a faceless clip is 422 no_face with nothing reserved, a face passes',
    async () => {
      expect(photoAvatarId).toEqual(expect.any(Number));
      const motion = async (clip: string, query?: Record<string, string>) => {
        const form = new FormData();
        const fields = { product_id: String(product.id), method: 'motion', avatar_id: String(photoAvatarId), video_source: 'upload' };
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('reference_video', new Blob([new Uint8Array(fs.readFileSync(clip))]), 'reference.mp4');
        return callApi(live.videos, await apiEvent('POST', '/videos', { form, query }));
      };
      const before = (await account.api.get('/usage')).body.data.allowance;
      const refused = await motion(await makeFixture('vertical-mp4'));
      expect(refused).toMatchObject({ status: 422, body: { code: 'no_face' } });
      expect((await account.api.get('/usage')).body.data.allowance).toEqual(before);
      // A dry run makes every check of the real request and starts nothing (there is no state machine here).
      const taken = await motion(await faceReferenceClip({ durationS: 3.5 }), { dry_run: 'true' });
      expect(taken.status).toBe(200);
    },
    STEP_MS,
  );

  test(
    'a motion reference (an uploaded clip of a face) on the photo avatar, auto mode',
    async () => {
      expect(photoAvatarId).toEqual(expect.any(Number));
      const created = await postMultipart(
        account.api,
        '/videos',
        { product_id: String(product.id), method: 'motion', avatar_id: String(photoAvatarId), video_source: 'upload', hook_text: 'Do it like this' },
        { reference_video: await faceReferenceClip({ durationS: 3.5 }) },
      );
      expect(created.status).toBe(202);
      await runSteps(created.body.data.id as number, AUTO_STEPS);
      await expectFinishedVideo(created.body.data.id as number);
    },
    STEP_MS,
  );
});

/**
 * Lambda's Invoke API (`POST /2015-03-31/functions/{name}/invocations`) on a loopback port, answering each
 * call by invoking `target()` in its layout, with a function's error as Lambda reports it (X-Amz-Function-Error).
 * An asynchronous call (`X-Amz-Invocation-Type: Event`) is answered 202 at once, as Lambda queues it; its
 * invocation runs after and is kept in `events`.
 */
async function standInLambdaApi(target: () => LaidOutFunction): Promise<Server & { events: Promise<Invocation>[] }> {
  const events: Promise<Invocation>[] = [];
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || !/^\/2015-03-31\/functions\/[^/]+\/invocations$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const payload: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (request.headers['x-amz-invocation-type'] === 'Event') {
        events.push(invoke(target(), payload));
        response.writeHead(202).end();
        return;
      }
      invoke(target(), payload)
        .then((outcome) => {
          const headers = { 'content-type': 'application/json', ...(outcome.error ? { 'x-amz-function-error': 'Unhandled' } : {}) };
          const body = outcome.error ? { errorType: outcome.error.name, errorMessage: outcome.error.message } : outcome.result;
          response.writeHead(200, headers).end(JSON.stringify(body));
        })
        .catch((error: Error) => response.writeHead(500).end(error.message));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { events });
}
