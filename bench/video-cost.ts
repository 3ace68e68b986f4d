/**
 * The AWS cost of one finished video (model inference excluded), for auto and preview jobs: jobs run
 * one at a time on the local stack (the same ASL, steps, engine and ffmpeg), and what each used is
 * priced with bench/aws-prices.ts.
 *
 * - Lambda: each step's measured duration at the memory its function is configured with (the render
 *   function at the default of `renderMemoryMb`), plus the API calls that start and approve the job
 *   (their round trip, an upper bound of the handler's time). Durations are this machine's, not
 *   Lambda's: a render step's time moves with the vCPUs its memory buys.
 * - Step Functions: the StateEntered and StateRetried events of the execution (bench/video-job.ts).
 * - DynamoDB: the units DynamoDB Local reports (ReturnConsumedCapacity) for every request the stack
 *   sends while the job runs; the benchmark's own polling goes through another client.
 * - S3: the blob store's calls, counted by kind (a PUT, COPY or LIST is class A; GET and HEAD class
 *   B; a multi-object delete is counted as class A, a prefix delete as a LIST and a delete).
 * - S3 storage and CloudFront: the finished video and its poster, kept a month and fetched once.
 */
import { AWS_PRICES, costOf, PRICES_AS_OF, totalUsd, type Invocation, type JobUsage } from './aws-prices';
import { fmt, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import { productWithDemo } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';
import { stepTimings, type StepTime } from './step-timings';
import { tapTransitions } from './video-job';
import { PIPELINE_STEPS } from '#pipeline/steps';
import type { BlobStore } from '#ports/blob-store';
import type { Ports } from '#ports/ports';

/** `jobs`: measured auto jobs, after a warm-up job that loads the engine. */
export const VIDEO_COST_DEFAULTS = { jobs: 3, demoS: 15 } as const;
export type VideoCostOptions = SectionOptions<typeof VIDEO_COST_DEFAULTS>;
/** $0.001 per auto video, judged per 1,000 videos so the summary's one decimal shows it. */
const VIDEO_COST_TARGETS = { autoUsdPer1000: 1 } as const;
/** What delivery and storage add on top of making the video (a viewer's fetch, a month kept). */
const AFTER_PRODUCTION = new Set(['S3 storage', 'CloudFront']);

const PROMPT = 'OMG no way, shocked by the price';
const HOOK = 'POV: you finally found a serum that works 😱';

/** S3 request class of each blob-store call; `none` signs a URL or form without a request. */
const S3_CALLS: Record<keyof BlobStore, { a: number; b: number }> = {
  putFile: { a: 1, b: 0 },
  putBuffer: { a: 1, b: 0 },
  copy: { a: 1, b: 0 },
  getToFile: { a: 0, b: 1 },
  deleteKeys: { a: 1, b: 0 },
  deletePrefix: { a: 2, b: 0 },
  listKeys: { a: 1, b: 0 },
  sizeOf: { a: 0, b: 1 },
  playbackUrl: { a: 0, b: 0 },
  downloadUrl: { a: 0, b: 0 },
  uploadForm: { a: 0, b: 0 },
};

/** A blob store that counts the S3 requests its calls make while `counting` is on. */
function countingBlobs(inner: BlobStore, counts: { classA: number; classB: number; unknown: Set<string> }, counting: () => boolean): BlobStore {
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        if (counting()) {
          const kind = S3_CALLS[name as keyof BlobStore];
          if (kind) {
            counts.classA += kind.a;
            counts.classB += kind.b;
          } else counts.unknown.add(name);
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const READ_COMMANDS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

interface Measured {
  kind: 'warm-up' | 'auto' | 'preview';
  jobId: number;
  usage: JobUsage;
  steps: StepTime[];
}

export async function runVideoCost(options: VideoCostOptions): Promise<SectionResult> {
  const { log } = options;
  const { createDynamoTable } = await import('#adapters/aws-clients');
  const { dynamoStores } = await import('#adapters/dynamodb/stores');
  // Configuration the stack deploys with (aws-cdk-lib comes along; only constants are read).
  const { DEFAULT_RENDER_MEMORY_MB } = await import('#cloud/render-memory');
  const { API_FUNCTION_SIZES, PIPELINE_FUNCTION_SIZES } = await import('#cloud/function-sizes');

  const memoryOf = { steps: PIPELINE_FUNCTION_SIZES.steps.memoryMb, render: DEFAULT_RENDER_MEMORY_MB };
  const ephemeralOf = (fn: keyof typeof PIPELINE_FUNCTION_SIZES): number | undefined => (PIPELINE_FUNCTION_SIZES[fn] as { ephemeralStorageMb?: number }).ephemeralStorageMb;
  const apiMemoryMb = API_FUNCTION_SIZES.videos.memoryMb;

  const tap = tapTransitions();
  const steps = stepTimings();
  let counting = false;
  const s3 = { classA: 0, classB: 0, unknown: new Set<string>() };
  const stackOptions = {
    log: (line: string) => log(`stack: ${line}`),
    adjustDependencies: (built: Ports): Ports => ({ ...built, blobs: countingBlobs(built.blobs, s3, () => counting) }),
    pipeline: { wrapStep: steps.wrapStep, log: (line: string) => log(`runner: ${line}`) },
  };
  try {
    return await onLocalStack('cost', stackOptions, async ({ stack, dir, jobs: runner }) => {
      const dynamo = { readUnits: 0, writeUnits: 0 };
      stack.table.client.middlewareStack.add(
        (next, context) => async (args) => {
          if (!counting) return next(args);
          (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
          const out = await next(args);
          const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
          const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
          if (READ_COMMANDS.test(context.commandName ?? '')) dynamo.readUnits += units;
          else dynamo.writeUnits += units;
          return out;
        },
        { step: 'initialize', name: 'benchJobCapacity' },
      );
      // The benchmark's polls read through their own client, so they are not billed to the job.
      const pollTable = createDynamoTable(stack.settings);
      const pollJobs = dynamoStores(pollTable).jobs;
      try {
        const { accountId, call } = await benchAccount(stack, 'bench-cost', 'pro');
        const { productId } = await productWithDemo(call, () => stack.tasks.idle(), dir, options.demoS);

        const waitFor = async (jobId: number, status: string) => {
          for (;;) {
            const job = await pollJobs.get(accountId, jobId);
            if (job?.status === status) return job;
            if (job?.status === 'failed') throw new Error(`job ${jobId} failed: ${JSON.stringify(job.error)}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        };

        const measure = async (kind: Measured['kind']): Promise<Measured> => {
          Object.assign(dynamo, { readUnits: 0, writeUnits: 0 });
          Object.assign(s3, { classA: 0, classB: 0 });
          const api: Invocation[] = [];
          const timedCall = async (method: string, path: string, body: unknown) => {
            const t0 = performance.now();
            const res = await call(method, path, body);
            api.push({ fn: 'videos (API)', ms: performance.now() - t0, memoryMb: apiMemoryMb });
            return res;
          };
          counting = true;
          const posted = await timedCall('POST', '/videos', { product_id: productId, method: 'prompt', prompt: PROMPT, hook_text: HOOK, ...(kind === 'preview' ? { mode: 'preview' } : {}) });
          if (posted.status !== 202) throw new Error(`POST /videos answered ${posted.status}: ${JSON.stringify(posted.body)}`);
          const jobId = posted.body.data.id as number;
          if (kind === 'preview') {
            await waitFor(jobId, 'preview_ready');
            await runner.idle();
            const approved = await timedCall('POST', `/videos/jobs/${jobId}/approve`, {});
            if (approved.status !== 202) throw new Error(`approve answered ${approved.status}: ${JSON.stringify(approved.body)}`);
          }
          const done = await waitFor(jobId, 'done');
          await runner.idle();
          counting = false;

          // What stays and what viewers fetch: the video and its poster, read outside the job's counts.
          const video = (await call('GET', `/videos/${done.video_id}`)).body.data as { url: string; thumbnail_url: string };
          let storedBytes = 0;
          for (const [name, url] of [['video', video.url], ['poster', video.thumbnail_url]] as const) {
            const res = await fetch(url);
            if (!res.ok) throw new Error(`GET ${name} answered ${res.status}`);
            storedBytes += (await res.arrayBuffer()).byteLength;
          }

          const jobSteps = steps.of(jobId);
          const usage: JobUsage = {
            invocations: [
              ...api,
              ...jobSteps.map((s) => {
                const fn = PIPELINE_STEPS[s.step].fn;
                return { fn, ms: s.ms, memoryMb: memoryOf[fn], ephemeralMb: ephemeralOf(fn) };
              }),
            ],
            apiRequests: api.length,
            stateTransitions: (tap.of(jobId)?.entered.length ?? NaN) + (tap.of(jobId)?.retried ?? 0),
            dynamo: { ...dynamo },
            s3: { classA: s3.classA, classB: s3.classB },
            storedBytes,
            storageMonths: 1,
            delivered: { bytes: storedBytes, requests: 2 },
          };
          const total = totalUsd(costOf(usage));
          log(`${kind} job ${jobId}: $${total.toFixed(6)}; steps ${jobSteps.map((s) => `${s.step} ${fmt(s.ms / 1000, 2)} s`).join(', ')}`);
          return { kind, jobId, usage, steps: jobSteps };
        };

        await measure('warm-up');
        const autos: Measured[] = [];
        for (let i = 0; i < options.jobs; i++) autos.push(await measure('auto'));
        const preview = await measure('preview');
        if (s3.unknown.size > 0) log(`WARNING: blob-store calls not priced: ${[...s3.unknown].join(', ')}`);
        return summarise(autos, preview, memoryOf, apiMemoryMb);
      } finally {
        pollTable.client.destroy();
      }
    });
  } finally {
    tap.restore();
  }
}

function summarise(autos: Measured[], preview: Measured, memoryOf: Record<'steps' | 'render', number>, apiMemoryMb: number): SectionResult {
  const totals = autos.map((m) => totalUsd(costOf(m.usage)));
  const medianAuto = [...autos].sort((a, b) => totalUsd(costOf(a.usage)) - totalUsd(costOf(b.usage)))[Math.floor(autos.length / 2)]!;
  const usd = (n: number) => `$${n.toFixed(6)}`;
  const breakdown = (m: Measured): string[][] => costOf(m.usage).map((l) => [l.service, l.usage, usd(l.usd)]);
  const targets: Target[] = [{ what: 'AWS cost of 1,000 auto videos (median job x 1,000)', value: median(totals) * 1000, max: VIDEO_COST_TARGETS.autoUsdPer1000, unit: 'USD' }];
  const production = (m: Measured) => totalUsd(costOf(m.usage).filter((l) => !AFTER_PRODUCTION.has(l.service)));
  const tables: Table[] = [
    { title: `auto job (the median of ${autos.length}, job ${medianAuto.jobId})`, head: ['service', 'usage', 'cost'], rows: [...breakdown(medianAuto), ['total', '', usd(totalUsd(costOf(medianAuto.usage)))]] },
    { title: `preview job, approved (job ${preview.jobId})`, head: ['service', 'usage', 'cost'], rows: [...breakdown(preview), ['total', '', usd(totalUsd(costOf(preview.usage)))]] },
    {
      title: 'per video',
      head: ['figure', 'value', 'target'],
      rows: [
        ['auto video, median', usd(median(totals)), `<= ${usd(VIDEO_COST_TARGETS.autoUsdPer1000 / 1000)}`],
        ['auto video, making it only (no storage, no delivery)', usd(median(autos.map(production))), ''],
        ['auto videos, all', totals.map(usd).join(' '), ''],
        ['preview video (approved first time)', usd(totalUsd(costOf(preview.usage))), ''],
      ],
    },
  ];
  return {
    tables,
    targets,
    notes: [
      `prices: ${PRICES_AS_OF} (bench/aws-prices.ts); Lambda x86 $${AWS_PRICES.lambdaGbSecond}/GB-s`,
      `memory: render ${memoryOf.render} MB (renderMemoryMb default), steps ${memoryOf.steps} MB, videos API ${apiMemoryMb} MB; durations measured on this machine`,
      'not counted: model inference (hosted engines), the demo normalisation (once per product), the client polling GET /videos/jobs/{id}, CloudWatch Logs, X-Ray, KMS',
    ],
    data: { autos, preview, totals },
  };
}
