/**
 * Telling a person that a job finished while they were elsewhere: which jobs did (between two looks
 * at the list), what to say, where it leads, and the tab's title while they have not looked.
 */
import type { Job } from '#client/types';

type Status = Job['status'];
type Seen = Pick<Job, 'id' | 'status' | 'video_id'> & Partial<Pick<Job, 'batch_id'>>;

const running = (status: Status) => status === 'queued' || status === 'processing';

/** Jobs that ran at the last look and stopped since (done, a preview to review, failed). A job first seen now is not news. */
export function finishedSince(before: ReadonlyMap<number, Status>, now: readonly Seen[]): Seen[] {
  return now.filter((job) => {
    const was = before.get(job.id);
    return was !== undefined && running(was) && !running(job.status);
  });
}

export interface JobAlert {
  title: string;
  color: string;
  /** The page that shows the outcome. */
  path: string;
}

export function alertOf(job: Seen): JobAlert {
  if (job.status === 'done') return { title: 'Your video is ready', color: 'green', path: job.video_id ? `/videos/${job.video_id}` : `/jobs/${job.id}` };
  if (job.status === 'preview_ready') return { title: 'A preview is ready to review', color: 'yellow', path: `/jobs/${job.id}` };
  return { title: 'A video job failed', color: 'red', path: `/jobs/${job.id}` };
}

/** Whether the page at `pathname` shows this job's outcome (its page, its video's, its batch's), so nothing needs saying. */
export const showsJob = (pathname: string, job: Seen) =>
  pathname === `/jobs/${job.id}` || (job.video_id !== null && pathname === `/videos/${job.video_id}`) || (!!job.batch_id && pathname === `/batches/${job.batch_id}`);

const STUDIO_TITLE = 'Reaction Studio';

/** The tab's title: how many finished jobs wait to be looked at, first, so a glance at the tab shows it. */
export const tabTitle = (unseen: number) => (unseen > 0 ? `(${unseen}) ${unseen === 1 ? 'Job finished' : 'Jobs finished'} · ${STUDIO_TITLE}` : STUDIO_TITLE);
