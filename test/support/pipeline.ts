/**
 * A world for pipeline steps without Java or S3: the in-memory job store, ledger, video library and
 * blob store, the records a job names, and a fixed clock. Ports a step must not reach stay unwired.
 */
import type { Ports } from '#ports/ports';
import type { Product } from '#domain/product';
import type { Avatar } from '#domain/avatar';
import type { SavedReaction } from '#domain/reaction';
import { billingPeriodOf } from '#domain/billing-period';
import { newJob, type StoredJob } from '#domain/job-execution';
import type { VideoRequest } from '#domain/schemas/video';
import type { PipelineStep, StepPayload } from '#pipeline/steps';
import { MemoryAllowanceLedger } from '#test-doubles/memory/allowance-ledger';
import { MemoryJobStore } from '#test-doubles/memory/job-store';
import { MemoryVideoLibrary } from '#test-doubles/memory/video-library';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { testDependencies } from './wiring';
const { floor, random } = Math;

export const ACCOUNT = 7;
export const ALLOWANCE = 10;

export function pipelineWorld(overrides: Partial<Ports> = {}) {
  let clock = new Date('2026-11-25T12:00:00Z');
  const ledger = new MemoryAllowanceLedger();
  const videos = new MemoryVideoLibrary();
  const jobs = new MemoryJobStore(ledger, videos);
  const blobs = new MemoryBlobStore();
  const products = new MemoryProductStore();
  const avatars = new MemoryAvatarStore();
  const reactions = new MemoryReactionStore();
  const deps = testDependencies({
    jobs,
    ledger,
    videos,
    blobs,
    products,
    avatars,
    reactions,
    now: () => clock,
    ...overrides,
  });

  const product = async (fields: Partial<Product> = {}): Promise<Product> => {
    const at = clock.toISOString();
    const made: Product = { id: await products.newProductId(), account_id: ACCOUNT, name: 'Glow serum', description: null, demo: null, created_at: at, updated_at: at, ...fields };
    await products.create(made);
    return made;
  };

  /** A ready avatar of the account, with its image. */
  const avatar = async (fields: Partial<Avatar> = {}): Promise<Avatar> => {
    const at = clock.toISOString();
    const made: Avatar = {
      id: await avatars.newAvatarId(),
      account_id: ACCOUNT,
      source: 'upload',
      prompt: null,
      status: 'ready',
      image_key: 'avatar.png',
      width: 720,
      height: 1280,
      engine: 'local',
      seed: 1,
      error: null,
      created_at: at,
      updated_at: at,
      ...fields,
    };
    await avatars.create(made, 100);
    return made;
  };

  /** A clip in the account's saved-reaction library. */
  const savedReaction = async (fields: Partial<SavedReaction> = {}): Promise<SavedReaction> => {
    const made: SavedReaction = {
      id: await reactions.newReactionId(),
      account_id: ACCOUNT,
      job_id: 1000 + floor(random() * 1000),
      method: 'prompt',
      avatar_id: null,
      prompt: 'x',
      clip_key: 'saved.mp4',
      duration_s: 4,
      emotion: 'shocked',
      created_at: clock.toISOString(),
      ...fields,
    };
    await reactions.saveFromJob(made, 100);
    return made;
  };

  /** A job as POST /videos writes it, with its first unit reserved in the same write. */
  const queuedJob = async (request: Partial<VideoRequest> = {}): Promise<StoredJob> => {
    const id = await jobs.newJobId();
    const productId = request.productId ?? (await product()).id;
    const job = newJob(
      ACCOUNT,
      id,
      {
        productId,
        method: 'prompt',
        mode: 'auto',
        hookText: null,
        hookPosition: 'top',
        hookSize: 'medium',
        hookStyle: 'outline',
        hookDuration: 'reaction',
        prompt: 'OMG',
        avatarId: null,
        videoSource: null,
        referenceUrl: null,
        reactionId: null,
        sound: 'auto',
        musicId: null,
        voiceLine: null,
        ...request,
      },
      null,
      42,
      clock,
    );
    const unit = { ref: { accountId: ACCOUNT, jobId: id, chargeNumber: 1 }, period: billingPeriodOf(clock).id, limit: ALLOWANCE };
    await jobs.create(job, undefined, unit, clock);
    return job;
  };

  return {
    deps,
    jobs,
    ledger,
    videos,
    blobs,
    product,
    avatar,
    savedReaction,
    queuedJob,
    period: () => billingPeriodOf(clock).id,
    advance: (ms: number) => (clock = new Date(clock.getTime() + ms)),
    payload: (job: Pick<StoredJob, 'account_id' | 'id'>, step: PipelineStep, extra: Partial<StepPayload> = {}): StepPayload => ({
      step,
      account_id: job.account_id,
      job_id: job.id,
      ...extra,
    }),
  };
}
