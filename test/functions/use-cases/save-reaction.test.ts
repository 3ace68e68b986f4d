import type { StoredJob } from '#domain/job-execution';
import type { JobStore } from '#ports/job-store';
import { saveReaction } from '#use-cases/save-reaction';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-03-01T10:00:00Z');

function previewJob(accountId: number, id: number, changes: Partial<StoredJob> = {}): StoredJob {
  return {
    id,
    account_id: accountId,
    status: 'preview_ready',
    method: 'prompt',
    avatar_id: 3,
    prompt: 'shocked by the price',
    reaction: { key: `accounts/${accountId}/jobs/${id}/reaction.mp4`, duration_s: 4, emotion: 'shocked' },
    ...changes,
  } as StoredJob;
}

async function setup() {
  const accounts = new MemoryAccountStore();
  const { id: accountId } = await accounts.create('test', 'free', NOW);
  const reactions = new MemoryReactionStore();
  const blobs = new MemoryBlobStore();
  const jobs = new Map<number, StoredJob>();
  const jobStore = { get: async (_accountId: number, jobId: number) => jobs.get(jobId) } as unknown as JobStore;
  const deps = testDependencies({ accounts, reactions, library: reactions, blobs, jobs: jobStore, now: () => NOW });
  const addJob = async (id: number, changes: Partial<StoredJob> = {}) => {
    const job = previewJob(accountId, id, changes);
    jobs.set(id, job);
    if (job.reaction) await blobs.putBuffer(job.reaction.key, Buffer.from('clip'), 'video/mp4');
    return job;
  };
  return { deps, accountId, reactions, blobs, addJob };
}

describe('saveReaction', () => {
  test("copies the job's clip into the library and records where it came from", async () => {
    const { deps, accountId, blobs, addJob } = await setup();
    await addJob(11);
    const { reaction, created } = await saveReaction(deps, { accountId, jobId: 11 });
    expect(created).toBe(true);
    expect(reaction).toMatchObject({ job_id: 11, method: 'prompt', avatar_id: 3, duration_s: 4, emotion: 'shocked', created_at: NOW.toISOString() });
    expect(blobs.objects.has(reaction.clip_key)).toBe(true);
  });

  test('keeps where the clip’s face is, for the captions of its reuses', async () => {
    const { deps, accountId, addJob } = await setup();
    const face = { x: 380, y: 650, width: 320, height: 300 };
    const job = await addJob(12);
    await addJob(13, { reaction: { ...job.reaction!, face_box: face } });
    expect((await saveReaction(deps, { accountId, jobId: 13 })).reaction.face_box).toEqual(face);
    expect((await saveReaction(deps, { accountId, jobId: 12 })).reaction.face_box).toBeNull();
  });

  test('a repeat answers the reaction saved first, whatever the job is now', async () => {
    const { deps, accountId, addJob } = await setup();
    await addJob(11);
    const first = await saveReaction(deps, { accountId, jobId: 11 });
    await addJob(11, { status: 'done' });
    expect(await saveReaction(deps, { accountId, jobId: 11 })).toEqual({ reaction: first.reaction, created: false });
  });

  test('only a job at preview_ready with a clip can be saved', async () => {
    const { deps, accountId, addJob } = await setup();
    await addJob(11, { status: 'processing' });
    await expect(saveReaction(deps, { accountId, jobId: 11 })).rejects.toMatchObject({ code: 'conflict' });
    await addJob(12, { reaction: null });
    await expect(saveReaction(deps, { accountId, jobId: 12 })).rejects.toMatchObject({ code: 'conflict' });
    await expect(saveReaction(deps, { accountId, jobId: 99 })).rejects.toMatchObject({ code: 'not_found' });
  });

  test("a full library refuses before copying (the free plan keeps 3)", async () => {
    const { deps, accountId, blobs, addJob } = await setup();
    for (const id of [1, 2, 3, 4]) await addJob(id);
    for (const id of [1, 2, 3]) await saveReaction(deps, { accountId, jobId: id });
    const before = blobs.objects.size;
    await expect(saveReaction(deps, { accountId, jobId: 4 })).rejects.toMatchObject({ code: 'library_full' });
    expect(blobs.objects.size).toBe(before);
  });

  test('a clip already cleaned up is a conflict the client can act on', async () => {
    const { deps, accountId, blobs, addJob } = await setup();
    const job = await addJob(11);
    await blobs.deleteKeys([job.reaction!.key]);
    await expect(saveReaction(deps, { accountId, jobId: 11 })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('no longer available') });
  });

  test('when another request saved the job first, ours is discarded and theirs answered', async () => {
    const { deps, accountId, blobs, addJob } = await setup();
    const job = await addJob(11);
    const theirs = { id: 500, account_id: accountId, job_id: 11, method: job.method, avatar_id: 3, prompt: job.prompt, clip_key: `accounts/${accountId}/reactions/500/clip.mp4`, duration_s: 4, emotion: 'shocked', created_at: NOW.toISOString() };
    await blobs.putBuffer(theirs.clip_key, Buffer.from('clip'), 'video/mp4');
    // The race: the other save lands between our marker check and our own save.
    class Raced extends MemoryReactionStore {
      override async saveFromJob(...args: Parameters<MemoryReactionStore['saveFromJob']>) {
        await super.saveFromJob(theirs, args[1]);
        return super.saveFromJob(...args);
      }
    }
    const answer = await saveReaction({ ...deps, reactions: new Raced() }, { accountId, jobId: 11 });
    expect(answer).toEqual({ reaction: theirs, created: false });
    expect([...blobs.objects.keys()].filter((key) => key.includes('/reactions/'))).toEqual([theirs.clip_key]);
  });
});
