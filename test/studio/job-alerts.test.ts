/**
 * Telling a person a job finished while they were elsewhere (studio/src/app/job-alerts.ts) and how far
 * a running job is (studio/src/pages/jobs/job-words.ts).
 */
import { alertOf, finishedSince, showsJob, tabTitle } from '../../studio/src/app/job-alerts';
import { progressLine } from '../../studio/src/pages/jobs/job-words';

const job = (id: number, status: 'queued' | 'processing' | 'preview_ready' | 'done' | 'failed', video_id: number | null = null) => ({ id, status, video_id });

describe('finishedSince', () => {
  test('a job that ran at the last look and stopped since is news; one seen stopped, or seen first now, is not', () => {
    const before = new Map([
      [1, 'processing'],
      [2, 'queued'],
      [3, 'done'],
      [4, 'processing'],
    ] as const);
    const now = [job(1, 'done', 11), job(2, 'preview_ready'), job(3, 'done', 13), job(4, 'processing'), job(5, 'done', 15)];
    expect(finishedSince(before, now).map((j) => j.id)).toEqual([1, 2]);
  });

  test('a failure is news too', () => {
    expect(finishedSince(new Map([[1, 'queued']]), [job(1, 'failed')])).toEqual([job(1, 'failed')]);
  });
});

test('each outcome says what happened and leads to the page that shows it', () => {
  expect(alertOf(job(1, 'done', 11))).toEqual({ title: 'Your video is ready', color: 'green', path: '/videos/11' });
  expect(alertOf(job(2, 'preview_ready'))).toEqual({ title: 'A preview is ready to review', color: 'yellow', path: '/jobs/2' });
  expect(alertOf(job(3, 'failed'))).toEqual({ title: 'A video job failed', color: 'red', path: '/jobs/3' });
});

test("the job's own page, its video's page and its batch's page show it already", () => {
  expect(showsJob('/jobs/1', job(1, 'done', 11))).toBe(true);
  expect(showsJob('/videos/11', job(1, 'done', 11))).toBe(true);
  expect(showsJob('/products', job(1, 'done', 11))).toBe(false);
  expect(showsJob('/batches/4', { ...job(1, 'preview_ready'), batch_id: 4 })).toBe(true);
  expect(showsJob('/batches/5', { ...job(1, 'preview_ready'), batch_id: 4 })).toBe(false);
  expect(showsJob('/batches/4', job(1, 'preview_ready'))).toBe(false);
});

test("the tab's title counts what waits to be looked at, first", () => {
  expect(tabTitle(0)).toBe('Reaction Studio');
  expect(tabTitle(1)).toBe('(1) Job finished · Reaction Studio');
  expect(tabTitle(3)).toBe('(3) Jobs finished · Reaction Studio');
});

describe('progressLine', () => {
  test('a running job: its stage and how far the job is', () => {
    expect(progressLine({ status: 'processing', stage: 'generating_reaction', progress: 15, queue_position: null })).toBe('Generating the reaction · 15%');
  });

  test('waiting for a render slot: its place in line too', () => {
    expect(progressLine({ status: 'queued', stage: 'queued', progress: 0, queue_position: 2 })).toBe('Waiting to start · 0% · number 2 in line for a render slot');
  });

  test('a settled job: its stage alone', () => {
    expect(progressLine({ status: 'done', stage: 'done', progress: 100, queue_position: null })).toBe('Done');
    expect(progressLine({ status: 'preview_ready', stage: 'awaiting_approval', progress: 70, queue_position: null })).toBe('Preview ready: waiting for your decision');
  });
});
