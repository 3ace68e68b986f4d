/**
 * Waiting for a video job until it settles, telling the caller each time where it is (status, stage,
 * progress, its place in the render queue) changed: pushed over the live-updates socket when the client
 * has one, else (or once the socket fails) GET /videos/jobs/{id} polled. Each read after the first
 * sends the last answer's ETag, so an unchanged job comes back as a bodiless 304.
 */
import { waitUntil, type WaitOptions } from './poll.js';
import type { LiveUpdates } from './live-updates.js';
import { unwrap } from './result.js';
import type { Job, TypedClient } from './types.js';

export interface WaitForJobOptions extends WaitOptions {
  /**
   * `final` (default) waits for `done` or `failed`. `preview_ready` also stops where a preview job
   * waits for approve or regenerate, which nothing but a caller moves on from.
   */
  until?: 'final' | 'preview_ready';
  /** Called with the first answer and then whenever status, stage, progress or queue_position changed. */
  onProgress?: (job: Job, previous: Job | undefined) => void;
}

const FINAL: ReadonlySet<Job['status']> = new Set(['done', 'failed']);

export const isSettled = (job: Job, until: WaitForJobOptions['until'] = 'final') =>
  FINAL.has(job.status) || (until === 'preview_ready' && job.status === 'preview_ready');

/** Resolves with the job once settled (a `failed` job too: read its `error`); rejects on timeout or abort. */
export function waitForJob(api: TypedClient, id: number, options: WaitForJobOptions = {}, live?: LiveUpdates): Promise<Job> {
  let previous: Job | undefined;
  let etag: string | undefined;
  return waitUntil(
    { live, resource: 'job', id },
    async (signal) => {
      const call = api.GET('/videos/jobs/{id}', { params: { path: { id }, header: etag && previous ? { 'If-None-Match': etag } : undefined }, signal });
      const { response } = await call;
      if (response.status === 304 && previous) return previous;
      const job = (await unwrap(call)).data;
      etag = response.headers.get('etag') ?? undefined;
      return job;
    },
    (job) => isSettled(job, options.until),
    {
      ...options,
      what: `video job ${id}`,
      onValue: (job) => {
        if (!previous || moved(previous, job)) options.onProgress?.(job, previous);
        previous = job;
      },
    },
  );
}

function moved(before: Job, after: Job): boolean {
  return (
    before.status !== after.status ||
    before.stage !== after.stage ||
    before.progress !== after.progress ||
    before.queue_position !== after.queue_position
  );
}
