/**
 * A fixture for the video-job use cases over in-memory stores: an account on a plan, a product, a
 * ready avatar, a runner that records what it was asked (or fails as told), a clip on disk.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Avatar } from '#domain/avatar';
import { newJob, type StoredJob, type JobDecision, type JobExecutionInput } from '#domain/job-execution';
import { JOB_STATE } from '#domain/job-states';
import { jobObjectKeys } from '#domain/jobs';
import { takeOfRound, withTake } from '#domain/takes';
import type { PlanName } from '#domain/plans';
import type { VideoRequest } from '#domain/schemas/video';
import type { JobRunner } from '#ports/job-runner';
import type { FaceFinder } from '#ports/face-finder';
import type { MediaInspector } from '#ports/media-inspector';
import type { ReferenceResolver } from '#ports/reference-resolver';
import { faceFinder } from '#test-doubles/faces';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryJobStore } from '#test-doubles/memory/job-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { MemoryMusicStore } from '#test-doubles/memory/music-store';
import { testDependencies } from './wiring';

export const NOW = new Date('2026-03-01T10:00:00Z');
export const PERIOD = '2026-03';

class RecordingRunner implements JobRunner {
  readonly started: JobExecutionInput[] = [];
  readonly decisions: { token: string; decision: JobDecision }[] = [];
  /** What the next calls throw, until cleared. */
  failStart?: Error;
  failDecision?: Error;
  /** Runs inside start, before it answers: an execution that moves the job at once. */
  onStart?: (input: JobExecutionInput) => Promise<void>;

  async start(input: JobExecutionInput): Promise<void> {
    await this.onStart?.(input);
    if (this.failStart) throw this.failStart;
    this.started.push(input);
  }

  async sendDecision(token: string, decision: JobDecision): Promise<void> {
    if (this.failDecision) throw this.failDecision;
    this.decisions.push({ token, decision });
  }
}

export const promptRequest = (productId: number, changes: Partial<VideoRequest> = {}): VideoRequest => ({
  productId,
  method: 'prompt',
  mode: 'preview',
  hookText: null,
  hookPosition: 'top',
  hookSize: 'medium',
  hookStyle: 'outline',
  hookDuration: 'reaction',
  prompt: 'amazed by the glow',
  avatarId: null,
  videoSource: null,
  referenceUrl: null,
  reactionId: null,
  sound: 'auto',
  musicId: null,
  voiceLine: null,
  ...changes,
});

/** A motion job whose reference is a link (video_source=link). */
export const linkedMotionRequest = (productId: number, avatarId: number, referenceUrl: string): VideoRequest =>
  promptRequest(productId, { method: 'motion', prompt: null, avatarId, videoSource: 'link', referenceUrl });

const inspectsAsMp4: MediaInspector = { inspectReference: async () => ({ contentType: 'video/mp4', durationS: 4 }) };

/** `references`: what serves reference links (unwired without it: a request without a link must not fetch). */
export async function videoJobFixture(options: { plan?: PlanName; media?: MediaInspector; faces?: FaceFinder; references?: ReferenceResolver } = {}) {
  const accounts = new MemoryAccountStore();
  const account = await accounts.create('test', options.plan ?? 'free', NOW);
  const products = new MemoryProductStore();
  const at = NOW.toISOString();
  await products.create({ id: 1, account_id: account.id, name: 'Glow Serum', description: null, demo: null, created_at: at, updated_at: at });
  const avatars = new MemoryAvatarStore();
  const avatar: Avatar = {
    id: 1,
    account_id: account.id,
    source: 'prompt',
    prompt: 'a chef',
    status: 'ready',
    image_key: 'accounts/1/avatars/1/image.png',
    width: 720,
    height: 1280,
    engine: 'local',
    seed: 1,
    error: null,
    created_at: at,
    updated_at: at,
  };
  await avatars.create(avatar, 10);
  const jobs = new MemoryJobStore();
  const blobs = new MemoryBlobStore();
  const runner = new RecordingRunner();
  const music = new MemoryMusicStore();
  const deps = testDependencies({
    music,
    accounts,
    products,
    avatars,
    reactions: new MemoryReactionStore(),
    jobs,
    ledger: jobs.ledger,
    blobs,
    jobRunner: runner,
    media: options.media ?? inspectsAsMp4,
    faces: options.faces ?? faceFinder(),
    ...(options.references ? { references: options.references } : {}),
    now: () => NOW,
  });
  return { deps, accountId: account.id, productId: 1, avatarId: 1, jobs, ledger: jobs.ledger, blobs, runner, music };
}

/** A job as the pipeline leaves it at preview_ready: its first unit charged, a token pending. */
export function previewReadyJob(accountId: number, id: number, changes: Partial<StoredJob> = {}): StoredJob {
  return {
    ...newJob(accountId, id, promptRequest(1, { prompt: 'amazed' }), null, 7, NOW),
    status: 'preview_ready',
    stage: 'awaiting_approval',
    progress: 70,
    charged_units: 1,
    reaction: { key: 'r.mp4', duration_s: 4, emotion: null, engine: 'local', seed: 7 },
    preview: { key: `accounts/${accountId}/jobs/${id}/preview-0.mp4`, duration_s: 4, caption: null },
    preview_expires_at: NOW.toISOString(),
    task_token: 'token-1',
    resume_at: JOB_STATE.AwaitDecision,
    ...changes,
  };
}

/**
 * A preview job at preview_ready on its last round, having made one take per prompt (round 0 first,
 * a minute apart), each recorded as RenderPreview records it.
 */
export function previewReadyJobWithTakes(accountId: number, id: number, prompts: readonly string[], changes: Partial<StoredJob> = {}): StoredJob {
  let job = previewReadyJob(accountId, id, { reaction: null, preview: null, ...changes });
  prompts.forEach((prompt, round) => {
    const keys = jobObjectKeys(accountId, id, round);
    const reaction = { key: keys.reaction, duration_s: 4, emotion: null, engine: 'local', seed: 7 + round };
    const preview = { key: keys.preview, duration_s: 4 + round / 10, caption: null, still_key: keys.previewStill };
    job = { ...job, regenerations: round, charged_units: round + 1, prompt, reaction };
    job = { ...job, preview, takes: withTake(job, takeOfRound(job, reaction, preview, new Date(NOW.getTime() + round * 60_000).toISOString())) };
  });
  return job;
}

/** A scratch file standing for an uploaded clip; removed by `cleanup`. */
export async function clipOnDisk(bytes = 'clip bytes'): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'clip-'));
  const path = join(dir, 'reference');
  await writeFile(path, bytes);
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
