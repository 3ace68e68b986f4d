/**
 * End-to-end helpers for the social suites: finished videos seeded as the pipeline's Finalize step
 * stores them (record + MP4 + poster, so no job has to run), a local stack whose own provider
 * sandboxes serve both providers, and connections made with sandbox keys.
 */
import { readFile } from 'node:fs/promises';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { keys } from '#adapters/dynamodb/keys';
import { allocateId } from '#adapters/dynamodb/ids';
import type { LocalStack } from '#local/runtime';
import { videoObjectKeys, type Video } from '#domain/video';
import { newJob } from '#domain/job-execution';
import type { ProviderName } from '#domain/social';
import { PROVIDER_A_KEY_PREFIX, PROVIDER_B_KEY_PREFIX, type SandboxControl } from '#local/sandboxes/index';
import { makeFixture } from './media-fixtures';
import { promptRequest } from './video-jobs';
import { startTestStack, type ApiClient, type TestStack } from './local-stack';

// ---------------------------------------------------------------------------------------- videos

export interface FinishedVideoFiles {
  /** The fixture MP4 (vertical, 2 s). */
  videoPath: string;
  videoBytes: Buffer;
  /** A one-colour JPEG poster. */
  posterBytes: Buffer;
}

/** The MP4 and a poster of `background` colour, as the seeded videos use them. */
export async function finishedVideoFiles(background: { r: number; g: number; b: number }): Promise<FinishedVideoFiles> {
  const [videoPath, posterBytes] = await Promise.all([
    makeFixture('vertical-mp4'),
    sharp({ create: { width: 108, height: 192, channels: 3, background } }).jpeg().toBuffer(),
  ]);
  return { videoPath, videoBytes: await readFile(videoPath), posterBytes };
}

export interface SeededVideo {
  videoPath: string;
  posterBytes: Buffer;
  /** The record's size_bytes. */
  sizeBytes: number;
  /** The record's job_id is this plus the video's id. */
  jobIdBase: number;
  productId: number;
  /** Named as the studio names videos: its product and its job (with this hook) are stored too, in place of productId and jobIdBase. */
  named?: { product: string; hook: string | null };
}

/** A product and the finished job of a seeded video, as the studio's flow leaves them: the ids they got. */
async function seedNaming(stack: LocalStack, accountId: number, videoId: number, named: NonNullable<SeededVideo['named']>) {
  const { products, jobs } = stack.dependencies;
  const now = new Date();
  const productId = await products.newProductId();
  await products.create({ id: productId, account_id: accountId, name: named.product, description: null, demo: null, created_at: now.toISOString(), updated_at: now.toISOString() });
  const jobId = await jobs.newJobId(accountId);
  const job = { ...newJob(accountId, jobId, promptRequest(productId, { hookText: named.hook }), null, 1, now), status: 'done', video_id: videoId };
  await stack.table.client.send(new PutCommand({ TableName: stack.table.name, Item: { ...keys.job(accountId, jobId), type: 'job', ...job } }));
  return { productId, jobId };
}

/** A finished video of `accountId`, stored as Finalize stores one: MP4 and poster in the bucket, the record in the table. */
export async function seedFinishedVideo(stack: LocalStack, accountId: number, from: SeededVideo): Promise<Video> {
  const { blobs } = stack.dependencies;
  const id = await allocateId(stack.table, 'video');
  const naming = from.named ? await seedNaming(stack, accountId, id, from.named) : { productId: from.productId, jobId: from.jobIdBase + id };
  const objects = videoObjectKeys(accountId, id);
  await Promise.all([blobs.putFile(objects.video, from.videoPath, 'video/mp4'), blobs.putBuffer(objects.poster, from.posterBytes, 'image/jpeg')]);
  const video: Video = {
    id,
    account_id: accountId,
    job_id: naming.jobId,
    product_id: naming.productId,
    key: objects.video,
    poster_key: objects.poster,
    duration_s: 2,
    width: 720,
    height: 1280,
    size_bytes: from.sizeBytes,
    created_at: new Date().toISOString(),
  };
  await stack.table.client.send(new PutCommand({ TableName: stack.table.name, Item: { ...keys.video(accountId, id), type: 'video', ...video } }));
  return video;
}

// ---------------------------------------------------------------------------------------- sandboxes

export interface SandboxStack extends TestStack {
  /** The control of the sandbox serving `provider`. */
  control(provider: ProviderName): SandboxControl;
  /** Both sandboxes back to normal: no faults, no failing platform, the clock at the real time. */
  resetSandboxes(): void;
}

/**
 * A local stack whose own sandboxes serve both providers, whatever this process's environment names
 * (PROVIDER_A/B_BASE_URL are not read), publishing after `publishDelayMs`.
 */
export async function startSandboxStack(publishDelayMs: number): Promise<SandboxStack> {
  const t = await startTestStack({ sandboxes: { publishDelayMs, env: {} } });
  const stop = () => t.stop();
  try {
    expect(t.stack.sandboxes?.active).toEqual({ provider_a: true, provider_b: true });
  } catch (error) {
    await stop();
    throw error;
  }
  const control = (provider: ProviderName): SandboxControl =>
    provider === 'provider_a' ? t.stack.sandboxes!.providerA.control : t.stack.sandboxes!.providerB.control;
  return {
    ...t,
    stop,
    control,
    resetSandboxes() {
      for (const provider of ['provider_a', 'provider_b'] as const) {
        control(provider).clearFaults();
        control(provider).restorePlatform();
        control(provider).setNow(Date.now());
      }
    },
  };
}

export interface SandboxChannel {
  id: string;
  platform: string;
  active: boolean;
}

let keySeq = 0;

/**
 * Connects `provider` for the account with a sandbox key of its own (`sandbox_a_<label>_…`, so each
 * connection has its own upstream state): the key, the channels answered, and the active channel id
 * per platform.
 */
export async function connectSandbox(
  api: ApiClient,
  accountId: number,
  provider: ProviderName,
  label: string,
): Promise<{ apiKey: string; channels: SandboxChannel[]; channel: Record<string, string> }> {
  const prefix = provider === 'provider_a' ? PROVIDER_A_KEY_PREFIX : PROVIDER_B_KEY_PREFIX;
  const apiKey = `${prefix}${label}_${process.pid}_${++keySeq}_${accountId}`;
  const connected = await api.put(`/social/connections/${provider}`, { api_key: apiKey });
  expect([200, 201]).toContain(connected.status);
  const channels = connected.body.data.channels as SandboxChannel[];
  return { apiKey, channels, channel: Object.fromEntries(channels.filter((c) => c.active).map((c) => [c.platform, c.id])) };
}
