/**
 * The write capacity model (docs/aws.md, "Capacity"): each kind of job driven through the real use
 * cases, pipeline tasks and DynamoDB stores, one account per job with one webhook endpoint that takes
 * every event, while a WriteMeter counts the writes and write units per partition key. The steps that
 * render (generate_reaction, render_preview, compose) are stood in for by the job writes they make,
 * through the same job-context calls; every other step is the real task.
 *
 * From the counts: a partition key takes at most 1,000 WCU a second, so the jobs a second the service
 * sustains is 1,000 over the most WCU one job puts on any one partition key that jobs of every account
 * share. A sharded key (an in-flight set's shard, an id counter's shard) takes 1/INDEX_SHARDS of its
 * set's writes: shards follow a hash of the item's id (or the account), even over many jobs. An
 * account's own partition takes only that account's jobs, so it bounds one account, not the service.
 *
 * Id counters are measured as they run once warm: each account's counter shard has a block in hand
 * (taken unmetered before its job), and the entity's counter, which a shard takes a block of ID_BLOCK
 * ids from, is charged one write per ID_BLOCK ids the shards handed out.
 */
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { DynamoJobDurations } from '#adapters/dynamodb/job-durations';
import { INDEX_SHARDS } from '#adapters/dynamodb/shards';
import { allocateShardedId, ID_BLOCK } from '#adapters/dynamodb/ids';
import type { DynamoTable } from '#adapters/dynamodb/table';
import type { StoredJob } from '#domain/job-execution';
import type { JobStage } from '#domain/jobs';
import type { Ports } from '#ports/ports';
import type { WebhookReceivers } from '#ports/webhook-receivers';
import { enterStep, saveProgress } from '#pipeline/job-context';
import { prepare } from '#pipeline/tasks/prepare';
import { chargePreview } from '#pipeline/tasks/charge-preview';
import { awaitDecision } from '#pipeline/tasks/await-decision';
import { finalize } from '#pipeline/tasks/finalize';
import { markFailed } from '#pipeline/tasks/mark-failed';
import type { PipelineStep, StepPayload } from '#pipeline/steps';
import { createVideoJob } from '#use-cases/create-video-job';
import { createVideoBatch } from '#use-cases/create-video-batch';
import { approvePreview } from '#use-cases/approve-preview';
import { regenerateVideoJob } from '#use-cases/regenerate-video-job';
import { createWebhook } from '#use-cases/webhook-endpoints';
import { dispatchWebhookEvents } from '#use-cases/dispatch-webhook-events';
import { deliverDueWebhooks } from '#use-cases/deliver-webhooks';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { MemoryMusicStore } from '#test-doubles/memory/music-store';
import { faceFinder } from '#test-doubles/faces';
import { promptRequest } from './video-jobs';
import { testDependencies } from './wiring';
import { WriteMeter, type PartitionWrites } from './write-meter';
const { floor } = Math;

/** What one partition key costs per job of a kind. */
interface KeyLoad {
  where: string;
  /** The key, or its family (`ACTIVE_JOBS#<shard>`, `ACCOUNT#<id>`) when several keys share the load. */
  pk: string;
  writesPerJob: number;
  wcuPerJob: number;
  /** How many keys share it: the load one of them takes is wcuPerJob / shards. */
  shards: number;
  /** An account's own partition: it takes that account's jobs only. */
  perAccount: boolean;
}

export interface KindCapacity {
  kind: JobKind;
  jobs: number;
  keys: KeyLoad[];
  /** The shared key one job of this kind loads most, and the jobs a second that key sustains at 1,000 WCU/s. */
  hottest: KeyLoad;
  jobsPerSecond: number;
  /** The same for one account on its own partition. */
  oneAccountJobsPerSecond: number;
}

export const JOB_KINDS = ['auto', 'preview_approve', 'regenerate', 'batch', 'failed'] as const;
type JobKind = (typeof JOB_KINDS)[number];

/** A partition key's most WCU a second. */
export const PARTITION_WCU_PER_S = 1000;
const BATCH_VARIANTS = 5;
const NOW = new Date('2026-03-01T10:00:00Z');

const allRunners = () => ({ start: async () => undefined, sendDecision: async () => undefined });
const answersOk: WebhookReceivers = { vet: async () => undefined, send: async () => ({ kind: 'answered', status: 200, latencyMs: 5 }) };

interface World {
  deps: Ports;
  accounts: MemoryAccountStore;
  products: MemoryProductStore;
}

/** A clock that moves a second each time it is read: durations are positive, as in a real run. */
function movingClock(): () => Date {
  let tick = 0;
  return () => new Date(NOW.getTime() + 1000 * tick++);
}

function worldOn(table: DynamoTable): World {
  const accounts = new MemoryAccountStore();
  const products = new MemoryProductStore();
  const ledger = new DynamoAllowanceLedger(table);
  const deps = testDependencies({
    accounts,
    products,
    avatars: new MemoryAvatarStore(),
    reactions: new MemoryReactionStore(),
    music: new MemoryMusicStore(),
    blobs: new MemoryBlobStore(),
    faces: faceFinder(),
    jobs: new DynamoJobStore(table),
    ledger,
    videos: new DynamoVideoLibrary(table),
    webhooks: new DynamoWebhookStore(table),
    webhookReceivers: answersOk,
    jobDurations: new DynamoJobDurations(table),
    jobRunner: allRunners(),
    previewWaitS: 7 * 24 * 3600,
    now: movingClock(),
  });
  return { deps, accounts, products };
}

/** A fresh account on the largest plan with a product, a webhook endpoint for every event, and its id shards warm (set up unmetered). */
async function freshAccount(world: World, table: DynamoTable): Promise<{ accountId: number; productId: number }> {
  const account = await world.accounts.create('capacity', 'business', NOW);
  const productId = await world.products.newProductId();
  const at = NOW.toISOString();
  await world.products.create({ id: productId, account_id: account.id, name: 'Glow Serum', description: null, demo: null, created_at: at, updated_at: at });
  await createWebhook(world.deps, account.id, { url: 'https://hooks.example.com/in', events: ['*'] as never });
  for (const entity of ['job', 'video', 'batch']) await allocateShardedId(table, entity, account.id);
  return { accountId: account.id, productId };
}

const payloadOf = (job: StoredJob, step: PipelineStep, taskToken?: string): StepPayload => ({ step, account_id: job.account_id, job_id: job.id, ...(taskToken ? { task_token: taskToken } : {}) }) as StepPayload;
const current = async (deps: Ports, job: StoredJob) => (await deps.jobs.get(job.account_id, job.id))!;

/** The job writes a render step makes (entering it, then recording what it made). */
async function renderStep(deps: Ports, job: StoredJob, step: PipelineStep, stage: JobStage, made: (job: StoredJob) => Partial<StoredJob>): Promise<void> {
  const entered = await enterStep(deps, await current(deps, job), step, stage);
  await saveProgress(deps, entered, made(entered));
}

const reactionMade = (job: StoredJob): Partial<StoredJob> => ({
  reaction: { key: `accounts/${job.account_id}/jobs/${job.id}/reaction-${job.regenerations}.mp4`, duration_s: 4, emotion: 'shocked', engine: 'local', seed: 7, voice: false, peak_s: 2, captioned: null },
});
const previewMade = (job: StoredJob): Partial<StoredJob> => ({ preview: { key: `accounts/${job.account_id}/jobs/${job.id}/preview-${job.regenerations}.mp4`, duration_s: 4, caption: null } });

async function composeAndFinish(deps: Ports, job: StoredJob): Promise<void> {
  const videoId = await deps.videos.newVideoId(job.account_id);
  await renderStep(deps, job, 'compose', 'composing', () => ({
    output: { video_id: videoId, key: `accounts/${job.account_id}/videos/${videoId}/video.mp4`, poster_key: `accounts/${job.account_id}/videos/${videoId}/poster.jpg`, duration_s: 19, size_bytes: 4_000_000 },
  }));
  await finalize(payloadOf(job, 'finalize'), deps);
}

async function upToPreview(deps: Ports, job: StoredJob, token: string): Promise<void> {
  await renderStep(deps, job, 'generate_reaction', 'generating_reaction', reactionMade);
  await renderStep(deps, job, 'render_preview', 'rendering_preview', previewMade);
  await chargePreview(payloadOf(job, 'charge_preview'), deps);
  await awaitDecision(payloadOf(job, 'await_decision', token), deps);
}

/** The webhook events the job's writes raised: fanned out to the endpoint and delivered. */
async function deliverEvents(deps: Ports): Promise<void> {
  while ((await dispatchWebhookEvents(deps, 25)) > 0);
  while ((await deliverDueWebhooks(deps, 50)) > 0);
}

/** Runs one job (a batch: one batch) of `kind` to its end; how many jobs it made. */
async function runKind(world: World, kind: JobKind, account: { accountId: number; productId: number }): Promise<number> {
  const { deps } = world;
  const { accountId, productId } = account;
  const mode = kind === 'auto' || kind === 'failed' || kind === 'batch' ? 'auto' : 'preview';
  if (kind === 'batch') {
    const variants = Array.from({ length: BATCH_VARIANTS }, (_, i) => ({ request: promptRequest(productId, { mode, hookText: `Hook ${i}` }), referenceUploadId: null }));
    const { jobs } = await createVideoBatch(deps, { accountId, productId, variants });
    for (const job of jobs) await autoJob(deps, job);
    await deliverEvents(deps);
    return jobs.length;
  }
  const job = await createVideoJob(deps, { accountId, request: promptRequest(productId, { mode }) });
  if (kind === 'auto') await autoJob(deps, job);
  if (kind === 'failed') {
    await prepare(payloadOf(job, 'prepare'), deps);
    await enterStep(deps, await current(deps, job), 'generate_reaction', 'generating_reaction');
    await markFailed({ ...payloadOf(job, 'mark_failed'), failure: { Error: 'Job.Failed', Cause: JSON.stringify({ code: 'render_failed', message: 'The reaction could not be rendered' }) } } as StepPayload, deps);
  }
  if (kind === 'preview_approve' || kind === 'regenerate') {
    await prepare(payloadOf(job, 'prepare'), deps);
    await upToPreview(deps, job, 'token-1');
    if (kind === 'regenerate') {
      await regenerateVideoJob(deps, { accountId, jobId: job.id, changes: {} });
      await upToPreview(deps, job, 'token-2');
    }
    await approvePreview(deps, { accountId, jobId: job.id, changes: {} });
    await composeAndFinish(deps, job);
  }
  await deliverEvents(deps);
  return 1;
}

async function autoJob(deps: Ports, job: StoredJob): Promise<void> {
  await prepare(payloadOf(job, 'prepare'), deps);
  await renderStep(deps, job, 'generate_reaction', 'generating_reaction', reactionMade);
  await composeAndFinish(deps, job);
}

/** The family a partition key belongs to, and how many keys share the family's load. */
function familyOf(partition: PartitionWrites): { pk: string; shards: number; perAccount: boolean } {
  if (/^ACCOUNT#\d+$/.test(partition.pk)) return { pk: 'ACCOUNT#<id>', shards: 1, perAccount: true };
  const sharded = /^(.*)#\d{2}$/.exec(partition.pk);
  if (sharded && (partition.where === 'gsi2' || partition.pk.startsWith('COUNTER#'))) return { pk: `${sharded[1]}#<shard>`, shards: INDEX_SHARDS, perAccount: false };
  return { pk: partition.pk, shards: 1, perAccount: false };
}

function loadsOf(partitions: PartitionWrites[], jobs: number): KeyLoad[] {
  const families = new Map<string, KeyLoad>();
  for (const partition of partitions) {
    const family = familyOf(partition);
    const id = `${partition.where} ${family.pk}`;
    const load = families.get(id) ?? { where: partition.where, pk: family.pk, writesPerJob: 0, wcuPerJob: 0, shards: family.shards, perAccount: family.perAccount };
    load.writesPerJob += partition.writes / jobs;
    load.wcuPerJob += partition.wcu / jobs;
    families.set(id, load);
  }
  // The entity counters: a write per ID_BLOCK ids the warm shards handed out (one write per id each).
  for (const shard of [...families.values()].filter((load) => /^COUNTER#.+#<shard>$/.test(load.pk))) {
    const pk = shard.pk.replace(/#<shard>$/, '');
    families.set(`table ${pk}`, { where: 'table', pk, writesPerJob: shard.writesPerJob / ID_BLOCK, wcuPerJob: shard.wcuPerJob / ID_BLOCK, shards: 1, perAccount: false });
  }
  return [...families.values()].sort((a, b) => b.wcuPerJob / b.shards - a.wcuPerJob / a.shards);
}

const perKey = (load: KeyLoad) => load.wcuPerJob / load.shards;

/** Drives `rounds` jobs (batches) of each kind on `table` and derives each kind's sustained jobs a second. */
export async function measureCapacity(table: DynamoTable, rounds = 3): Promise<KindCapacity[]> {
  const meter = new WriteMeter(table);
  const world = worldOn(table);
  const results: KindCapacity[] = [];
  for (const kind of JOB_KINDS) {
    let jobs = 0;
    for (let i = 0; i < rounds; i++) {
      const account = await meter.unmetered(() => freshAccount(world, table));
      jobs += await runKind(world, kind, account);
    }
    const keys = loadsOf(meter.partitions(), jobs);
    meter.reset();
    const shared = keys.filter((load) => !load.perAccount);
    const hottest = shared[0]!;
    const account = keys.filter((load) => load.perAccount && load.where === 'table').reduce((sum, load) => sum + load.wcuPerJob, 0);
    results.push({
      kind,
      jobs,
      keys,
      hottest,
      jobsPerSecond: floor(PARTITION_WCU_PER_S / perKey(hottest)),
      oneAccountJobsPerSecond: floor(PARTITION_WCU_PER_S / account),
    });
  }
  return results;
}
