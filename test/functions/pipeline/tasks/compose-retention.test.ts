/**
 * A finished video's files are written with the retention class of the plan in force (the tag the
 * media bucket's lifecycle rules select on), and the record carries the same retention and the time
 * lifecycle removes them. A later plan change leaves both as they were.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';
import { fileExpiry, RETENTION_TAG } from '#domain/video-retention';
import { compose } from '#pipeline/tasks/compose';
import { finalize } from '#pipeline/tasks/finalize';
import type { VideoComposer } from '#ports/video-composer';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryJobDurations } from '#test-doubles/memory/job-durations';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

/** Encodes nothing: the video is the segment's bytes, the poster a word. */
const composer: VideoComposer = {
  captionSegment: async ({ reactionPath, outputPath }) => {
    await writeFile(outputPath, await readFile(reactionPath));
    return { durationS: 4 };
  },
  join: async ({ segmentPath, outputPath }) => {
    await writeFile(outputPath, await readFile(segmentPath));
    return { durationS: 4, sizeBytes: 5 };
  },
  poster: async ({ outputPath }) => writeFile(outputPath, 'jpeg'),
  defaultPosterTimeS: () => 2,
};

/** The account ACCOUNT on `plan`, whose plan a test may change afterwards. */
function accountOn(plan: PlanName) {
  const accounts = new MemoryAccountStore();
  let account: Account = { id: ACCOUNT, name: 'a', plan, pending_plan: null, plan_changes_at: null, created_at: '2026-01-01T00:00:00.000Z' };
  return {
    accounts: Object.assign(accounts, { get: async (id: number) => (id === ACCOUNT ? { ...account } : undefined) }),
    changePlan: (to: PlanName) => (account = { ...account, plan: to }),
  };
}

/** An auto job at Compose, its reaction clip stored; with `enginePoster` the engine made the poster (Compose copies it). */
async function jobAtCompose(w: ReturnType<typeof pipelineWorld>, enginePoster: boolean) {
  const job = await w.queuedJob({ mode: 'auto', sound: 'none', hookText: null });
  await w.blobs.putBuffer('clip.mp4', Buffer.from('clip'), 'video/mp4');
  if (enginePoster) await w.blobs.putBuffer('engine-poster.jpg', Buffer.from('engine jpeg'), 'image/jpeg');
  await w.jobs.update(ACCOUNT, job.id, {
    status: 'processing',
    reaction: { key: 'clip.mp4', duration_s: 4, emotion: 'shocked', engine: 'local', seed: 1, ...(enginePoster ? { poster_key: 'engine-poster.jpg' } : {}) },
  });
  return job;
}

function world(plan: PlanName) {
  const owner = accountOn(plan);
  const w = pipelineWorld({ composer, accounts: owner.accounts, jobDurations: new MemoryJobDurations() });
  return { w, owner };
}

describe("a finished video's retention", () => {
  test.each([
    ['free', 30],
    ['starter', 90],
    ['pro', 365],
    ['business', 730],
  ] as const)('on the %s plan: video and poster are tagged days-%i, and the record says when lifecycle removes them', async (plan, days) => {
    const { w } = world(plan);
    const job = await jobAtCompose(w, false);
    const writtenAt = w.deps.now();
    await compose(w.payload(job, 'compose'), w.deps);
    w.advance(1000);
    await finalize(w.payload(job, 'finalize'), w.deps);

    const done = (await w.jobs.get(ACCOUNT, job.id))!;
    const video = (await w.videos.get(ACCOUNT, done.video_id!))!;
    for (const key of [video.key, video.poster_key]) expect(w.blobs.objects.get(key)!.tags).toEqual({ [RETENTION_TAG]: `days-${days}` });
    expect(video).toMatchObject({ retention_days: days, file_expires_at: fileExpiry(writtenAt, days).toISOString() });
  });

  test("the engine's poster, copied beside the video, gets the video's tag (not the working file's none)", async () => {
    const { w } = world('starter');
    const job = await jobAtCompose(w, true);
    await compose(w.payload(job, 'compose'), w.deps);
    const output = (await w.jobs.get(ACCOUNT, job.id))!.output!;
    expect(w.blobs.objects.get(output.poster_key)!.data.toString()).toBe('engine jpeg');
    expect(w.blobs.objects.get(output.poster_key)!.tags).toEqual({ [RETENTION_TAG]: 'days-90' });
    expect(w.blobs.objects.get('engine-poster.jpg')!.tags).toBeUndefined();
  });

  test('lifecycle removes a file at its creation plus the days, rounded up to the next midnight UTC (as S3 counts)', () => {
    expect(fileExpiry(new Date('2026-01-15T10:30:00Z'), 30).toISOString()).toBe('2026-02-15T00:00:00.000Z');
    expect(fileExpiry(new Date('2026-01-15T00:00:00Z'), 1).toISOString()).toBe('2026-01-17T00:00:00.000Z');
  });

  test("a plan change leaves an existing video's tag and expiry; the next video gets the new plan's", async () => {
    const { w, owner } = world('free');
    const first = await jobAtCompose(w, false);
    await compose(w.payload(first, 'compose'), w.deps);
    await finalize(w.payload(first, 'finalize'), w.deps);
    const before = (await w.videos.get(ACCOUNT, (await w.jobs.get(ACCOUNT, first.id))!.video_id!))!;

    owner.changePlan('pro');
    const second = await jobAtCompose(w, false);
    await compose(w.payload(second, 'compose'), w.deps);
    await finalize(w.payload(second, 'finalize'), w.deps);

    const after = (await w.videos.get(ACCOUNT, before.id))!;
    expect(after).toMatchObject({ retention_days: 30, file_expires_at: before.file_expires_at });
    expect(w.blobs.objects.get(after.key)!.tags).toEqual({ [RETENTION_TAG]: 'days-30' });
    const newer = (await w.videos.get(ACCOUNT, (await w.jobs.get(ACCOUNT, second.id))!.video_id!))!;
    expect(newer.retention_days).toBe(365);
    expect(w.blobs.objects.get(newer.key)!.tags).toEqual({ [RETENTION_TAG]: 'days-365' });
  });
});
