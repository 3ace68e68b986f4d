/**
 * The monthly AWS bill of a deployment, whole, at 0, 1,000 and 100,000 finished videos a month, from
 * the one price table (aws-prices.ts) and the usage below; model inference excluded (a hosted engine
 * bills it apart). docs/aws.md, Cost model prints `costTableMarkdown()`, and a test holds the two equal
 * and the target: at 100k videos a month, at most $0.002 a video.
 *
 * What one video uses comes from the cost bench (`npm run bench -- --only cost`, docs/benchmarks.md:
 * an auto job measured on the local stack, 2026-11-28); what it does not measure is assumed here, each
 * number named and explained: the client's polling, cold starts, logs and traces, the table's storage
 * and its backups, the fixed resources the template holds (counted from it by the test), and what a
 * hosted engine's callback costs (no Lambda waits on the provider: it calls back).
 */
import { AWS_PRICES } from './aws-prices';
import { API_FUNCTION_SIZES, PIPELINE_FUNCTION_SIZES, SWEEPER_FUNCTION_SIZE, WEBHOOK_FUNCTION_SIZES } from '#cloud/function-sizes';
import { SWEEP_INTERVAL_MINUTES } from '#pipeline/steps';
import { PLAN_NAMES, planOf, type PlanName } from '#domain/plans';

const KB = 1024;
const MB = 1024 ** 2;
const GB = 1024 ** 3;
const gb = (memoryMb: number) => memoryMb / 1024;
const MONTH_S = 30 * 24 * 3600;

/** One auto video as the cost bench measured it (docs/benchmarks.md, 2026-11-28; DynamoDB units and S3 calls of 2026-11-25). */
export const MEASURED_VIDEO = {
  pipelineGbSeconds: 11.4,
  /** Start, GenerateReaction, Compose, Finalize. */
  pipelineInvocations: 4,
  stateTransitions: 5,
  dynamoReadUnits: 15,
  dynamoWriteUnits: 33,
  s3ClassA: 5,
  s3ClassB: 4,
  /** The MP4 and its poster, stored and fetched once through CloudFront (two requests). */
  fileBytes: 5.2 * MB,
  deliveryRequests: 2,
} as const;

/** What the bench does not measure. */
export const ASSUMED = {
  /** POST /videos, then GET /videos/{id} for the links: the videos function, warm, about 100 ms each. */
  apiCalls: 2,
  apiCallS: 0.1,
  /** POST to done on Lambda (render at 3,008 MB, about 1.7 vCPUs): the window a client polls in. */
  jobWallS: 15,
  /** The studio polls a job it shows once a second (docs/aws.md, stage throttle); the typed client's waitForJob no faster. */
  pollEveryS: 1,
  /** A poll (GET /videos/jobs/{id}, answered 304 or 200): the videos function for 40 ms, the key lookup and the job read, the rate-limit counter's write. */
  pollS: 0.04,
  pollReadUnits: 2,
  pollWriteUnits: 2,
  /** Instead of polling: the `video.job.done` webhook (stream → dispatcher → SQS → deliverer), 100 and 200 ms, its event and delivery written and read. */
  webhook: { dispatchS: 0.1, deliverS: 0.2, sqsRequests: 3, readUnits: 2, writeUnits: 3 },
  /**
   * Lambda bills the init of a cold start (since August 2025). A zip function inits in about 0.8 s,
   * an image in about 2.5 s (it is pulled and started; nothing measured on AWS here): the render
   * function, and the videos function that takes POST /videos, are images (they run ffmpeg).
   * At 1,000 videos a month (one every 43 minutes) every call of a job's three functions finds no
   * warm environment; at 100,000 (one every 26 s) one call in 20 does (scale-out and recycling).
   */
  initS: { zip: 0.8, image: 2.5 },
  coldShare: (videosPerMonth: number) => (videosPerMonth <= 1_000 ? 1 : 0.05),
  /** Structured logs per video (every invocation's lines), and per poll. */
  logBytesPerVideo: 30 * KB,
  logBytesPerPoll: 1 * KB,
  // X-Ray traces every function and the state machine; at these rates its 1-a-second reservoir keeps
  // them all: one trace per API request (polls included) and per execution.
  /** The table's items per video (job, video, ledger entries, events, deliveries), kept; the table holds a year of them. */
  tableBytesPerVideo: 6 * KB,
  monthsOfRecords: 12,
  /** AWS Backup keeps 35 daily full copies; PITR bills the table's size. */
  backupCopies: 35,
  /**
   * The six images (render, sample-demo, normalise-demo, products, music, videos; about 0.5 to 0.9 GB
   * each, the base image's layers stored once) in CDK's asset repository.
   */
  ecrGb: 3,
  /** A sweep: 0.5 s at its memory and about 10 read units. */
  sweepS: 0.5,
  sweepReadUnits: 10,
  /** IsGenerated, the Choice after GenerateReaction: added to the machine after the bench ran, every job passes it once. */
  isGeneratedTransitions: 1,
  /**
   * A hosted engine's clip takes a minute or more (docs/engines.md), and no Lambda waits for it: the
   * execution parks at AwaitProvider (a task token) until fal's webhook (docs/decisions.md, hosted
   * engines by callback). What the callback costs instead: three state transitions (AwaitProvider,
   * GenerateReaction again, IsGenerated again), AwaitProvider's call of the steps function (100 ms),
   * the webhook's API call (the videos function, 100 ms, one job read), and GenerateReaction's second
   * call reattaching by request id (1 s at the render function's memory before it downloads the clip,
   * as it would have after a wait), with a few more units for the token and the kept request.
   */
  hostedCallback: { transitions: 3, stepsCallS: 0.1, apiCallS: 0.1, renderReentryS: 1, readUnits: 3, writeUnits: 3 },
} as const;

/** What the template holds that bills by the month (the test counts them in the synthesised stack). */
export const FIXED_RESOURCES = { kmsKeys: 2, secrets: 1, alarms: 15, dashboards: 1 } as const;

export interface Scenario {
  videosPerMonth: number;
  /** How clients learn a job is done: the studio's once-a-second poll, or the webhook (no polling). */
  notify: 'poll' | 'webhook';
  engine: 'local' | 'hosted';
  /**
   * The functions with no x86 binary in them (the sweeper, the steps function, the webhook
   * dispatcher and deliverer) on arm64. What runs ffmpeg, sharp or Skia stays x86: Debian's amd64
   * ffmpeg and the linux-x64 native modules are what the trees hold. The pipeline's measured
   * GB-seconds are nearly all the render function's, so they stay at the x86 price.
   */
  arm64?: boolean;
}

export interface CostItem {
  item: string;
  usd: number;
}

const P = AWS_PRICES;
const lambda = (gbSeconds: number, invocations: number) => gbSeconds * P.lambdaGbSecond + invocations * P.lambdaRequest;
const dynamo = (reads: number, writes: number) => reads * P.dynamoReadUnit + writes * P.dynamoWriteUnit;
const VIDEOS_GB = gb(API_FUNCTION_SIZES.videos.memoryMb);
const RENDER_GB = gb(PIPELINE_FUNCTION_SIZES.render.memoryMb);

/** Each line of the month's bill for the scenario. */
export function monthlyCost({ videosPerMonth: n, notify, engine, arm64 = false }: Scenario): CostItem[] {
  /** Lambda for a function that may run on arm64 in this scenario. */
  const movable = (gbSeconds: number, invocations: number) => (arm64 ? gbSeconds * P.lambdaArmGbSecond + invocations * P.lambdaRequest : lambda(gbSeconds, invocations));
  const m = MEASURED_VIDEO;
  const a = ASSUMED;
  const polls = notify === 'poll' ? Math.ceil(a.jobWallS / a.pollEveryS) : 0;
  const sweeps = MONTH_S / (SWEEP_INTERVAL_MINUTES * 60);
  const tableGb = (n * a.monthsOfRecords * a.tableBytesPerVideo) / GB;
  const cold = a.coldShare(n);
  const webhook = a.webhook;
  return [
    {
      item: 'Fixed: KMS keys, secret, alarms, dashboard, ECR images',
      usd:
        FIXED_RESOURCES.kmsKeys * P.kmsKeyMonth +
        FIXED_RESOURCES.secrets * P.secretMonth +
        FIXED_RESOURCES.alarms * P.alarmMonth +
        FIXED_RESOURCES.dashboards * P.dashboardMonth +
        a.ecrGb * P.ecrGbMonth,
    },
    { item: `Fixed: the sweeper every ${SWEEP_INTERVAL_MINUTES} min`, usd: sweeps * (movable(a.sweepS * gb(SWEEPER_FUNCTION_SIZE.memoryMb), 1) + dynamo(a.sweepReadUnits, 0) + P.xrayTrace) },
    {
      item: 'Making it: pipeline Lambda, API calls, Step Functions, DynamoDB, S3 requests',
      usd:
        n *
        (lambda(m.pipelineGbSeconds, m.pipelineInvocations) +
          lambda(a.apiCalls * a.apiCallS * VIDEOS_GB, a.apiCalls) +
          a.apiCalls * P.httpApiRequest +
          (m.stateTransitions + a.isGeneratedTransitions) * P.stateTransition +
          dynamo(m.dynamoReadUnits, m.dynamoWriteUnits) +
          m.s3ClassA * P.s3ClassA +
          m.s3ClassB * P.s3ClassB),
    },
    { item: 'Its file: a month in S3, one fetch through CloudFront', usd: n * ((m.fileBytes / GB) * (P.s3GbMonth + P.cloudFrontGb) + m.deliveryRequests * P.cloudFrontHttpsRequest) },
    notify === 'poll'
      ? {
          item: `Polling: ${polls} polls a job (once a second for ${a.jobWallS} s)`,
          usd: n * polls * (P.httpApiRequest + lambda(a.pollS * VIDEOS_GB, 1) + dynamo(a.pollReadUnits, a.pollWriteUnits) + P.xrayTrace + (a.logBytesPerPoll / GB) * P.logsIngestedGb),
        }
      : {
          item: 'No polling: the video.job.done webhook',
          usd:
            n *
            (movable(webhook.dispatchS * gb(WEBHOOK_FUNCTION_SIZES.dispatch.memoryMb) + webhook.deliverS * gb(WEBHOOK_FUNCTION_SIZES.deliver.memoryMb), 2) +
              webhook.sqsRequests * P.sqsRequest +
              dynamo(webhook.readUnits, webhook.writeUnits) +
              2 * P.xrayTrace),
        },
    {
      item: "Cold starts: init billed (each job's three calls cold at 1k a month, 1 in 20 at 100k)",
      usd: n * cold * (lambda(a.initS.image * RENDER_GB + a.initS.image * VIDEOS_GB, 0) + movable(a.initS.zip * gb(PIPELINE_FUNCTION_SIZES.steps.memoryMb), 0)),
    },
    { item: 'Logs and traces: CloudWatch Logs ingestion, X-Ray (API calls and the execution)', usd: n * ((a.logBytesPerVideo / GB) * P.logsIngestedGb + (a.apiCalls + 1) * P.xrayTrace) },
    { item: `Table: a year of records, PITR, ${a.backupCopies} daily backups`, usd: tableGb * (P.dynamoGbMonth + P.pitrGbMonth + a.backupCopies * P.backupGbMonth) },
    { item: 'Hosted engine by callback: no Lambda waits on fal; AwaitProvider, the webhook, GenerateReaction again', usd: engine === 'hosted' ? n * hostedCallbackUsd() : 0 },
  ];
}

export const total = (items: readonly CostItem[]) => items.reduce((sum, i) => sum + i.usd, 0);
/** What one hosted video's callback costs beyond the local engine's path (ASSUMED.hostedCallback); inference not included. */
function hostedCallbackUsd(): number {
  const c = ASSUMED.hostedCallback;
  return (
    lambda(c.stepsCallS * gb(PIPELINE_FUNCTION_SIZES.steps.memoryMb) + c.apiCallS * VIDEOS_GB + c.renderReentryS * RENDER_GB, 3) +
    P.httpApiRequest +
    c.transitions * P.stateTransition +
    dynamo(c.readUnits, c.writeUnits) +
    P.xrayTrace
  );
}

/** The month's bill over its videos; undefined at none. */
export const perVideo = (scenario: Scenario) => (scenario.videosPerMonth > 0 ? total(monthlyCost(scenario)) / scenario.videosPerMonth : undefined);

/** The target (issue 30): a video at 100k a month, inference excluded. */
export const PER_VIDEO_TARGET_USD = 0.002;
const VOLUMES = [0, 1_000, 100_000] as const;

/** Keeping one video's file (and poster) for its plan's retention, in S3 Standard. */
export const retentionStorageUsd = (plan: PlanName) => (MEASURED_VIDEO.fileBytes / GB) * P.s3GbMonth * (planOf(plan).videoRetentionDays / 30);

const usd = (value: number) => (value === 0 ? '$0' : value >= 1 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`);

/** The tables docs/aws.md prints, from the model. */
export function costTableMarkdown(): string {
  const base = (videosPerMonth: number): Scenario => ({ videosPerMonth, notify: 'poll', engine: 'local' });
  const columns = VOLUMES.map((v) => monthlyCost(base(v)));
  const header = `| a month, local engine, the studio polling | ${VOLUMES.map((v) => `${v.toLocaleString('en-US')} videos`).join(' | ')} |`;
  // A line no column pays (the hosted callback, with the local engine) is left out.
  const rows = columns[0]!.flatMap((line, i) => (columns.some((c) => c[i]!.usd > 0) ? [`| ${line.item} | ${columns.map((c) => usd(c[i]!.usd)).join(' | ')} |`] : []));
  const per = (s: Scenario) => {
    const value = perVideo(s);
    return value === undefined ? 'n/a' : usd(value);
  };
  const lines = [
    header,
    `|---|${VOLUMES.map(() => '---:').join('|')}|`,
    ...rows,
    `| **Total** | ${columns.map((c) => `**${usd(total(c))}**`).join(' | ')} |`,
    `| **Per video** | ${VOLUMES.map((v) => `**${per(base(v))}**`).join(' | ')} |`,
    `| Per video with the webhook instead of polling | ${VOLUMES.map((v) => per({ ...base(v), notify: 'webhook' })).join(' | ')} |`,
    `| Per video with a hosted engine (by callback; inference not included) | ${VOLUMES.map((v) => per({ ...base(v), engine: 'hosted' })).join(' | ')} |`,
    `| Per video with arm64 where no x86 binary runs (sweeper, steps, webhooks; ffmpeg, sharp and Skia stay x86) | ${VOLUMES.map((v) => per({ ...base(v), arm64: true })).join(' | ')} |`,
    '',
    `| keeping a video its plan's retention (S3 Standard, ${(MEASURED_VIDEO.fileBytes / MB).toFixed(1)} MB) | ${PLAN_NAMES.join(' | ')} |`,
    `|---|${PLAN_NAMES.map(() => '---:').join('|')}|`,
    `| days / cost over them | ${PLAN_NAMES.map((p) => `${planOf(p).videoRetentionDays} / ${usd(retentionStorageUsd(p))}`).join(' | ')} |`,
  ];
  return lines.join('\n');
}
