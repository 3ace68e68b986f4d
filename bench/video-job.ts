/**
 * A video job end to end on the local stack (in process: DynamoDB Local, s3rver, the HTTP server, the
 * ASL run by the local runner, the real pipeline steps, the local engine and ffmpeg): POST /videos to
 * `done` for a prompt × auto job (a 4 s reaction with a hook caption, joined to a 15 s vertical demo),
 * and one preview job through approve.
 *
 * - Latency: from sending POST /videos to the first poll that sees `done`, polling every 100 ms. The
 *   poll reads the job record (the same consistent read GET /videos/jobs/{id} does) instead of the
 *   HTTP endpoint: a 100 ms poll would pass the API's 120 requests a minute per account. One job at a
 *   time, after a warm-up job that pays for loading the engine (reported apart).
 * - State transitions: the StateEntered (and StateRetried) events of the job's execution, read from
 *   aws-local-stepfunctions' own event log (the runner does not expose it, so `StateMachine.run` is
 *   tapped in this process). That is what a Standard workflow bills as state transitions.
 * - Memory: the peak RSS of this process (stack + pipeline) while a render-function step runs, and
 *   the peak VmHWM of any ffmpeg child, sampled every 20 ms from /proc.
 *
 * The runtime's runner is swapped for one built the same way (same runStep, same defaults) whose
 * `wrapStep` only records each step's time (onLocalStack's `pipeline`, bench/step-timings.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { flag, fmt, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import { childPids, vmHwmMb } from './proc-memory';
import { productWithDemo } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';
import { stepTimings, type StepTime } from './step-timings';

/** `jobs`: measured auto jobs, after one warm-up job. */
export const VIDEO_JOB_DEFAULTS = { jobs: 3, demoS: 15, pollMs: 100 } as const;
export type VideoJobOptions = SectionOptions<typeof VIDEO_JOB_DEFAULTS>;
const VIDEO_JOB_TARGETS = { postToDoneS: 10 } as const;

/** The local engine reads the length from the prompt; none named gives the default 4 s. */
const PROMPT = 'OMG no way, shocked by the price';
const HOOK = 'POV: you finally found a serum that works 😱';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- /proc sampling -------------------------------------------------------------------------------


const isFfmpeg = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!.endsWith('ffmpeg');
  } catch {
    return false;
  }
};


// ---- the state machine's own event log ------------------------------------------------------------

interface Transitions {
  entered: string[];
  retried: number;
}

/**
 * Wraps StateMachine.prototype.run (the CommonJS build the runner loads) so each execution's event
 * log is read, keyed by the job id in its input.
 */
export function tapTransitions(): { of(jobId: number): Transitions | undefined; restore(): void } {
  const sfn = createRequire(__filename)('aws-local-stepfunctions') as {
    StateMachine: { prototype: { run: (input: unknown, options?: unknown) => { eventLogs: AsyncGenerator<{ type: string; state?: { name: string } }> } } };
  };
  const proto = sfn.StateMachine.prototype;
  const original = proto.run;
  const byJob = new Map<number, Transitions>();
  proto.run = function run(this: unknown, input: unknown, options?: unknown) {
    const execution = original.call(this, input, options);
    const jobId = (input as { job_id?: number } | null)?.job_id;
    if (typeof jobId === 'number') {
      const record = byJob.get(jobId) ?? { entered: [], retried: 0 };
      byJob.set(jobId, record);
      void (async () => {
        for await (const event of execution.eventLogs) {
          if (event.type === 'StateEntered') record.entered.push(event.state!.name);
          else if (event.type === 'StateRetried') record.retried++;
        }
      })().catch(() => undefined);
    }
    return execution;
  };
  return {
    of: (jobId) => byJob.get(jobId),
    restore: () => {
      proto.run = original;
    },
  };
}

// ---- the run --------------------------------------------------------------------------------------

interface JobRun {
  jobId: number;
  kind: 'warm-up' | 'auto' | 'preview';
  /** POST sent → done seen. For the preview job: approve sent → done seen. */
  toDoneS: number;
  /** Preview job only: POST sent → preview_ready seen. */
  toPreviewS?: number;
  steps: StepTime[];
  transitions: Transitions | undefined;
  peakRssMb: number;
  peakFfmpegMb: number;
  reactionS: number | null;
  videoS: number | null;
}

export async function runVideoJob(options: VideoJobOptions): Promise<SectionResult> {
  const { log } = options;
  const tap = tapTransitions();
  // Step timings, and which render steps are running now (the memory sampler's window).
  const steps = stepTimings();
  const startedAt = performance.now();
  try {
    const pipeline = { wrapStep: steps.wrapStep, log: (line: string) => log(`runner: ${line}`) };
    return await onLocalStack('job', { log: (line) => log(`stack: ${line}`), pipeline }, async ({ stack, dir, jobs: runner }) => {
      log(`local stack up in ${fmt((performance.now() - startedAt) / 1000, 1)} s at ${stack.apiUrl}`);
      const { accountId, call } = await benchAccount(stack, 'bench-jobs', 'pro');
      const { productId, demo, uploadS } = await productWithDemo(call, () => stack.tasks.idle(), dir, options.demoS);
      log(`demo: ${options.demoS} s 720x1280 uploaded and normalised to ${demo.width}x${demo.height}, ${fmt(demo.duration_s, 2)} s, in ${fmt(uploadS, 1)} s`);

      /** Polls the record until `statuses`; returns when it was seen. */
      const waitFor = async (jobId: number, statuses: string[]) => {
        for (;;) {
          const job = await stack.dependencies.jobs.get(accountId, jobId);
          if (job && statuses.includes(job.status)) return { job, at: performance.now() };
          if (job?.status === 'failed') throw new Error(`job ${jobId} failed: ${JSON.stringify(job.error)}`);
          await sleep(options.pollMs);
        }
      };

      const measured = async (kind: JobRun['kind']): Promise<JobRun> => {
        let peakRss = 0;
        let peakFfmpeg = 0;
        const sampler = setInterval(() => {
          if (steps.rendering() === 0) return;
          peakRss = Math.max(peakRss, process.memoryUsage.rss());
          for (const pid of childPids()) if (isFfmpeg(pid)) peakFfmpeg = Math.max(peakFfmpeg, vmHwmMb(pid));
        }, 20);
        try {
          const body = { product_id: productId, method: 'prompt', prompt: PROMPT, hook_text: HOOK, ...(kind === 'preview' ? { mode: 'preview' } : {}) };
          const t0 = performance.now();
          const posted = await call('POST', '/videos', body);
          if (posted.status !== 202) throw new Error(`POST /videos answered ${posted.status}: ${JSON.stringify(posted.body)}`);
          const jobId = posted.body.data.id as number;
          let toPreviewS: number | undefined;
          let from = t0;
          if (kind === 'preview') {
            const ready = await waitFor(jobId, ['preview_ready']);
            toPreviewS = (ready.at - t0) / 1000;
            await runner.idle();
            from = performance.now();
            const approved = await call('POST', `/videos/jobs/${jobId}/approve`, {});
            if (approved.status !== 202) throw new Error(`approve answered ${approved.status}: ${JSON.stringify(approved.body)}`);
          }
          const done = await waitFor(jobId, ['done']);
          const toDoneS = (done.at - from) / 1000;
          // The execution's last events (Finalize's exit) land just after the record says done.
          await runner.idle();
          await sleep(50);
          const video = done.job.video_id ? await call('GET', `/videos/${done.job.video_id}`) : undefined;
          const run: JobRun = {
            jobId,
            kind,
            toDoneS,
            toPreviewS,
            steps: steps.of(jobId),
            transitions: tap.of(jobId),
            peakRssMb: peakRss / 1024 / 1024,
            peakFfmpegMb: peakFfmpeg,
            reactionS: done.job.reaction?.duration_s ?? null,
            videoS: video?.body?.data?.duration_s ?? null,
          };
          const stepText = run.steps.map((s) => `${s.step} ${fmt(s.ms / 1000, 2)}`).join(', ');
          const head = kind === 'preview' ? `POST→preview_ready ${fmt(toPreviewS!, 2)} s, approve→done ${fmt(toDoneS, 2)} s` : `POST→done ${fmt(toDoneS, 2)} s`;
          log(`${kind} job ${jobId}: ${head}; steps (s): ${stepText}; ${run.transitions?.entered.length ?? '?'} states entered; peak RSS ${fmt(run.peakRssMb, 0)} MB, ffmpeg ${fmt(run.peakFfmpegMb, 0)} MB; reaction ${run.reactionS} s, video ${run.videoS} s`);
          return run;
        } finally {
          clearInterval(sampler);
        }
      };

      const rssBeforeMb = process.memoryUsage.rss() / 1024 / 1024;
      const warmUp = await measured('warm-up');
      const autos: JobRun[] = [];
      for (let i = 0; i < options.jobs; i++) autos.push(await measured('auto'));
      const preview = await measured('preview');

      const usage = await call('GET', '/usage');
      const allowance = usage.body?.data?.allowance;
      const expectedUsed = options.jobs + 2;
      if (allowance?.used !== expectedUsed || allowance?.reserved !== 0) {
        log(`WARNING: usage shows used ${allowance?.used}, reserved ${allowance?.reserved}; expected ${expectedUsed} and 0`);
      }
      return summarise({ warmUp, autos, preview, rssBeforeMb, allowance }, options);
    });
  } finally {
    tap.restore();
  }
}

interface Measured {
  warmUp: JobRun;
  autos: JobRun[];
  preview: JobRun;
  rssBeforeMb: number;
  allowance: { used: number; reserved: number } | undefined;
}

const stepMs = (run: JobRun, step: string) => run.steps.filter((s) => s.step === step).reduce((sum, s) => sum + s.ms, 0);

function summarise(m: Measured, o: VideoJobOptions): SectionResult {
  const latencies = m.autos.map((r) => r.toDoneS);
  const medianS = median(latencies);
  const maxS = Math.max(...latencies);
  const targets: Target[] = [
    { what: 'auto job POST→done, median', value: medianS, max: VIDEO_JOB_TARGETS.postToDoneS, unit: 's' },
    { what: 'auto job POST→done, max', value: maxS, max: VIDEO_JOB_TARGETS.postToDoneS, unit: 's' },
  ];
  const countOf = (r: JobRun) => (r.transitions ? String(r.transitions.entered.length + r.transitions.retried) : 'n/a');
  const pathOf = (r: JobRun | undefined) => r?.transitions?.entered.join(' → ') ?? 'not recorded';

  const perJob: Table = {
    title: `jobs, one at a time: 4 s reaction from a prompt + hook caption, joined to a ${o.demoS} s demo (1080x1920)`,
    head: ['job', 'POST→done s', 'POST→preview s', 'states entered', 'Task calls', 'peak RSS MB', 'ffmpeg peak MB', 'video s'],
    rows: [m.warmUp, ...m.autos, m.preview].map((r, i) => [
      r.kind === 'warm-up' ? 'warm-up (first job: loads the engine)' : r.kind === 'preview' ? 'preview (approve→done)' : `auto ${i}`,
      fmt(r.toDoneS, 2),
      r.toPreviewS === undefined ? '' : fmt(r.toPreviewS, 2),
      countOf(r),
      String(r.steps.length),
      fmt(r.peakRssMb, 0),
      fmt(r.peakFfmpegMb, 0),
      r.videoS === null ? '?' : fmt(r.videoS, 2),
    ]),
  };

  const stepNames = ['prepare', 'generate_reaction', 'compose', 'finalize'];
  const steps: Table = {
    title: `where an auto job's time goes (median of ${m.autos.length}, s)`,
    head: ['part', 'median s'],
    rows: [
      ...stepNames.map((step) => [step, fmt(median(m.autos.map((r) => stepMs(r, step) / 1000)), 2)]),
      [
        'between steps (transitions, queueing, 100 ms poll)',
        fmt(median(m.autos.map((r) => r.toDoneS - r.steps.reduce((sum, s) => sum + s.ms, 0) / 1000)), 2),
      ],
      ['POST→done', fmt(medianS, 2)],
    ],
  };

  const judged: Table = {
    title: 'auto job latency',
    head: ['figure', 'value', 'target', 'flag'],
    rows: [
      ['POST→done, median (s)', fmt(medianS, 2), `<= ${VIDEO_JOB_TARGETS.postToDoneS}`, flag(targets[0]!)],
      ['POST→done, max (s)', fmt(maxS, 2), `<= ${VIDEO_JOB_TARGETS.postToDoneS}`, flag(targets[1]!)],
      ['warm-up job POST→done (s)', fmt(m.warmUp.toDoneS, 2), '', ''],
      ['preview job: POST→preview_ready (s)', fmt(m.preview.toPreviewS ?? NaN, 2), '', ''],
      ['preview job: approve→done (s)', fmt(m.preview.toDoneS, 2), '', ''],
      ['state transitions, auto job', m.autos[0] ? countOf(m.autos[0]) : 'n/a', '', ''],
      ['state transitions, preview job (approved)', countOf(m.preview), '', ''],
      ['peak RSS during render steps, this process (MB)', fmt(Math.max(...[...m.autos, m.preview].map((r) => r.peakRssMb)), 0), '', ''],
      ['peak ffmpeg child VmHWM (MB)', fmt(Math.max(...[...m.autos, m.preview].map((r) => r.peakFfmpegMb)), 0), '', ''],
    ],
  };

  return {
    tables: [perJob, steps, judged],
    targets,
    notes: [
      `auto path: ${pathOf(m.autos[0])}`,
      `preview path: ${pathOf(m.preview)}`,
      'states entered = StateEntered events of the execution (aws-local-stepfunctions event log), plus StateRetried; a Standard workflow bills these as state transitions',
      'latency polls the job record every 100 ms (the read GET /videos/jobs/{id} makes); HTTP polling at that rate would pass the 120 requests/min limit',
      `RSS before the jobs: ${fmt(m.rssBeforeMb, 0)} MB (stack in this process; DynamoDB Local and s3rver are separate processes, not counted)`,
      `usage after the run: used ${m.allowance?.used ?? '?'}, reserved ${m.allowance?.reserved ?? '?'}`,
    ],
    data: {
      options: { jobs: o.jobs, demoS: o.demoS, pollMs: o.pollMs },
      autoPostToDoneS: latencies,
      medianS,
      maxS,
      warmUp: m.warmUp,
      autos: m.autos,
      preview: m.preview,
      rssBeforeMb: m.rssBeforeMb,
    },
  };
}
