/**
 * The local twin of the AWS stack: DynamoDB Local and s3rver as child processes, the table and bucket
 * provisioned like the stack's, the same handlers behind a Node HTTP server, background work in
 * process. Used by `npm start`, by the CLI, by the end-to-end tests and by the benchmarks.
 */
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { API_PREFIX } from '#functions/routes';
import { LOCAL_UPDATES_PATH } from '#domain/live-updates';
import type { BackgroundTasks } from '#ports/background-tasks';
import type { Ports } from '#ports/ports';
import { localClients, localDependencies, type LocalClients } from './wiring';
import type { SocialBackoff } from '#adapters/social/registry';
import { API_REQUESTS_PER_MINUTE, DEFAULT_REGION, socialBaseUrlsFromEnv, type Settings } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';
import type { Product } from '#domain/product';
import { startDynamoDbLocal } from './dynamodb-local';
import { startS3Local } from './s3-local';
import { ensureBucket, ensureTable } from './provision';
import { createLocalApiServer } from './http-server';
import { studioSite } from './studio-site';
import { inProcessTasks, type InProcessTasks } from './in-process-tasks';
import { createLocalJobRunner, type LocalJobRunner } from './job-runner';
import { localPipeline, localSweeper } from './pipeline-steps';
import { seedDemoAccount, type SeededDemo } from './seed';
import { LOCAL_BUCKET, LOCAL_TABLE, clearChildren, clearRuntimeState, reapOrphanedChildren, recordChildren, dataDirOf, readRuntimeFile, writeRuntimeState } from './runtime-state';
import { acquireInstanceLock, type InstanceLock } from './instance-lock';
import { checkSecretFiles, prepareDataDir } from './data-dir';
import type { ManagedChild } from './child-process';
import { startLocalSandboxes, type LocalSandboxes, type LocalSandboxesOptions } from './sandboxes';
import { localWebhookWorker } from './webhook-worker';
import { watchOutboxInserts } from '#adapters/dynamodb/webhook-outbox';
import { watchFollowedWrites } from '#adapters/dynamodb/stream-records';
import { localUpdateSockets } from './update-socket-server';
import { localUpdatePusher } from './live-updates';
import { localEnvironment } from './config';
import { LocalOutbox } from '#adapters/mail/local-outbox';
import { startLocalBilling, type LocalBilling, type StartedBilling } from './billing';

export interface LocalStackOptions {
  dataDir?: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Serve HTTP; the CLI only needs the stores. */
  http?: boolean;
  log?: (line: string) => void;
  /** Tests and the bench adjust what the wiring built (a runner that fails on purpose, step timings). */
  adjustDependencies?: (built: Ports) => Ports;
  /** Serve the studio's build (studio/dist) at `/` when it exists; default true. */
  studio?: boolean;
  /** Requests per minute per account; by default the contract's 120. */
  rateLimitPerMinute?: number;
  /** Seconds a preview waits for a decision; by default the contract's 30 days (shorter to try expiry). */
  previewWaitS?: number;
  /**
   * How a serving stack's social sandboxes start (publish delay; the environment read instead of the
   * process's); `false`: none start, and the provider adapters use PROVIDER_A/B_BASE_URL or the real URLs.
   */
  sandboxes?: Omit<LocalSandboxesOptions, 'dataDir' | 'log'> | false;
  /** The waits between a social provider's retries; the adapters' defaults (0.5 s doubling to 8 s) otherwise. */
  socialBackoff?: SocialBackoff;
  /**
   * A DynamoDB and an S3 server that are already running, and the table and bucket of this stack in
   * them: the test harness shares one of each between all the stacks of a run instead of two child
   * processes per stack. Without it the stack starts its own, with data under dataDir.
   */
  services?: SharedServices;
  /** What paid plans go through (BILLING for `npm start`); default `local`: at once, nothing charged. */
  billing?: LocalBilling;
  /** Render steps at once (LOCAL_RENDER_CONCURRENCY); the runner's default otherwise. */
  renderConcurrency?: number;
  /** Over the render cap, answer as Lambda does when throttled instead of queueing (LOCAL_LAMBDA_THROTTLE=1). */
  lambdaThrottle?: boolean;
  /** The table in the stack's own DynamoDB Local (TABLE_NAME: a restored one, docs/aws.md); default LOCAL_TABLE. */
  tableName?: string;
}

export interface SharedServices {
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
}

export interface LocalStack {
  baseUrl: string;
  apiUrl: string;
  dataDir: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** Set on the first start only: the demo key is shown once. */
  demo?: SeededDemo;
  tasks: InProcessTasks;
  /** The video jobs' state machine, run in process. */
  jobs: LocalJobRunner;
  /** What the API and the pipeline of this stack call out through. */
  dependencies: Ports;
  settings: Settings;
  /** The stack's table, for tools and tests that read or write records directly. */
  table: DynamoTable;
  /**
   * The social-provider sandboxes (docs/decisions.md, Social publishing), started with a serving stack
   * unless SOCIAL_SANDBOXES=off.
   */
  sandboxes?: LocalSandboxes;
  /** The billing it was started with; with `stripe-sandbox`, the Stripe sandbox. */
  billing: StartedBilling;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = dataDirOf(options.dataDir);
  const log = options.log ?? (() => undefined);
  prepareDataDir(dataDir, log);
  // Taken before anything starts and held until stop(); the kernel drops it if this process dies.
  const lock = await acquireInstanceLock(dataDir);
  if (!lock) throw alreadyRunning(dataDir);
  try {
    return await startHoldingLock(dataDir, options, log, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function alreadyRunning(dataDir: string): Error {
  const running = readRuntimeFile(dataDir);
  const where = running?.apiUrl ? `: its API is ${running.apiUrl}` : ' (another process holds it: a stack still starting, or an admin command)';
  return new Error(`A local stack is already running on ${dataDir}${where}. Stop it first, or use another DATA_DIR.`);
}

async function startHoldingLock(dataDir: string, options: LocalStackOptions, log: (line: string) => void, lock: InstanceLock): Promise<LocalStack> {
  checkSecretFiles(dataDir);
  // The lock is ours: a runtime.json, or service processes, left here belong to a stack that died.
  clearRuntimeState(dataDir);
  const reaped = reapOrphanedChildren(dataDir);
  if (reaped > 0) log(`stopped ${reaped} service process${reaped === 1 ? '' : 'es'} left running by a stack that was killed`);

  const children: ManagedChild[] = [];
  const stopChildren = () => Promise.all(children.map((c) => c.stop()));
  let jobs: LocalJobRunner | undefined;
  let clients: LocalClients | undefined;
  let sandboxes: LocalSandboxes | undefined;
  let billing: StartedBilling | undefined;
  try {
    const services = options.services ?? (await startOwnServices(dataDir, children, options.tableName));
    log(`DynamoDB Local on ${services.dynamoEndpoint}, s3rver on ${services.s3Endpoint}`);

    // Before the wiring, which makes the provider adapters at the sandboxes' URLs.
    if (options.http !== false && options.sandboxes !== false) sandboxes = await startLocalSandboxes({ ...options.sandboxes, dataDir, log });
    const settings: Settings = {
      region: DEFAULT_REGION,
      tableName: services.tableName,
      bucketName: services.bucketName,
      dynamoEndpoint: services.dynamoEndpoint,
      s3Endpoint: services.s3Endpoint,
      rateLimitPerMinute: options.rateLimitPerMinute ?? API_REQUESTS_PER_MINUTE,
      previewWaitS: options.previewWaitS,
      socialBaseUrls: sandboxes?.baseUrls ?? socialBaseUrlsFromEnv(localEnvironment()),
      socialSandboxUrls: sandboxes?.urls,
    };
    billing = await startLocalBilling(options.billing ?? { kind: 'local' }, { stateFile: join(dataDir, 'sandboxes', 'stripe.json'), log });
    clients = localClients(settings);
    await ensureTable(services.dynamoEndpoint, services.tableName);
    await ensureBucket(services.s3Endpoint, services.bucketName);

    // The workers get the stack's dependencies, built below; no task runs before they are.
    const tasks = inProcessTasks((error, task) => log(`background task ${task.type} failed: ${String(error)}`), () => dependencies);
    // The steps run over the stack's dependencies; each function's code (ffmpeg, engines) loads on its first step.
    jobs = createLocalJobRunner({ ...localPipeline(() => dependencies), log, renderConcurrency: options.renderConcurrency, throttle: options.lambdaThrottle });
    // Mailed links point at this server's studio: its address is known once it listens, below.
    let baseUrl = '';
    const outbox = new LocalOutbox(outboxDirOf(dataDir));
    const built = localDependencies({ jobRunner: jobs, tasks, clients, dataDir, socialBackoff: options.socialBackoff, outbox, studioUrl: () => baseUrl, updatesUrl: () => `${baseUrl.replace(/^http/, 'ws')}${LOCAL_UPDATES_PATH}`, billing: billing.billing });
    const dependencies = options.adjustDependencies ? options.adjustDependencies(built) : built;
    const demo = await seedDemoAccount(clients.table, dependencies);
    // The sweeper runs before interrupted work is resumed: a demo or avatar past its deadline fails instead.
    const sweeper = localSweeper(() => dependencies, log);
    const webhooks = localWebhookWorker(() => dependencies, log);
    watchOutboxInserts(clients.table, () => webhooks.wake());
    // Live updates: the sockets API Gateway would hold, and the pusher the table's stream would feed.
    const sockets = localUpdateSockets({ dependencies: () => dependencies });
    const updates = localUpdatePusher(() => dependencies, sockets.pusher, log);
    if (options.http !== false) watchFollowedWrites(clients.table, (changed) => updates.changed(changed));
    if (options.http !== false) {
      await sweeper.sweep();
      sweeper.start();
      webhooks.start();
    }
    await resumeInterruptedWork(clients.table, tasks, log);
    // Only a serving stack works jobs off; the CLI opens the stores briefly and must not start renders.
    const resumed = options.http === false ? 0 : await jobs.resumeActiveJobs();
    if (resumed > 0) log(`resumed ${resumed} video job${resumed === 1 ? '' : 's'} at their recorded states`);

    let closeServer = async () => {};
    if (options.http !== false) {
      const hint = sandboxes?.connectHint(demo?.accountId ?? 1);
      if (hint) log(hint);
      // Media links and upload forms point at s3rver; the pages may load and post to it, nothing else.
      const studio = options.studio === false ? undefined : studioSite({ media: [services.s3Endpoint], uploads: [services.s3Endpoint] });
      const server = createLocalApiServer({ dependencies: () => dependencies, studio, outbox });
      sockets.attach(server);
      const host = options.host ?? '127.0.0.1';
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 3000, host, () => resolve());
      });
      baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
      closeServer = () =>
        new Promise((resolve) => {
          sockets.closeAll();
          server.close(() => resolve());
          server.closeAllConnections();
        });
    }
    const apiUrl = baseUrl ? `${baseUrl}${API_PREFIX}` : '';
    if (apiUrl) billing.serving(apiUrl);
    writeRuntimeState(dataDir, {
      pid: process.pid,
      apiUrl,
      dynamoEndpoint: services.dynamoEndpoint,
      s3Endpoint: services.s3Endpoint,
      tableName: services.tableName,
      bucketName: services.bucketName,
    });

    let stopping: Promise<void> | undefined;
    const runner = jobs;
    const startedBilling = billing;
    return {
      baseUrl,
      apiUrl,
      dataDir,
      dynamoEndpoint: services.dynamoEndpoint,
      s3Endpoint: services.s3Endpoint,
      demo,
      tasks,
      jobs: runner,
      dependencies,
      settings,
      table: clients.table,
      sandboxes,
      billing: startedBilling,
      stop: () =>
        (stopping ??= (async () => {
          await closeServer();
          await updates.idle();
          sweeper.stop();
          await webhooks.stop();
          // Executions are aborted, not failed: the next start re-enters each job where it was.
          await runner.stop();
          // Unfinished work is resumed by the next start; do not wait on it forever.
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([tasks.idle(), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
          clearTimeout(timer);
          // After the background work: a task may still be talking to a provider.
          await sandboxes?.stop();
          await startedBilling.stop();
          clearRuntimeState(dataDir);
          await stopChildren();
          clearChildren(dataDir);
          clients?.destroy();
          await lock.release();
        })()),
    };
  } catch (error) {
    await sandboxes?.stop();
    await billing?.stop();
    await jobs?.stop();
    await stopChildren();
    clients?.destroy();
    throw error;
  }
}

/** The local stack's mails (adapters/mail/local-outbox.ts), in the data dir like its records. */
const outboxDirOf = (dataDir: string) => join(dataDir, 'outbox');

/** DynamoDB Local and s3rver of this stack's own, with their data under dataDir; recorded so a restart after a SIGKILL stops them. */
async function startOwnServices(dataDir: string, children: ManagedChild[], tableName = LOCAL_TABLE): Promise<SharedServices> {
  const [db, blobs] = await Promise.all([
    startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb') }).then((r) => (children.push(r.child), r)),
    startS3Local({ directory: join(dataDir, 's3') }).then((r) => (children.push(r.child), r)),
  ]);
  recordChildren(dataDir, children.map((c) => c.process.pid).filter((pid): pid is number => pid !== undefined));
  return { dynamoEndpoint: db.endpoint, s3Endpoint: blobs.endpoint, tableName, bucketName: LOCAL_BUCKET };
}

/** Demo normalisations, and sample clips being made, cut off by the last shutdown are started again. */
async function resumeInterruptedWork(table: DynamoTable, tasks: BackgroundTasks, log: (line: string) => void): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await table.client.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: '#type = :product AND demo.#status = :processing',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':product': 'product', ':processing': 'processing' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (out.Items ?? []) as Product[]) {
      const demo = item.demo!;
      log(`resuming ${demo.source === 'sample' ? 'the sample demo' : 'demo normalisation'} of product ${item.id}`);
      await tasks.dispatch(
        demo.source === 'sample'
          ? { type: 'sample-demo', accountId: item.account_id, productId: item.id }
          : { type: 'normalise-demo', accountId: item.account_id, productId: item.id, originalKey: demo.original_key },
      );
    }
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
