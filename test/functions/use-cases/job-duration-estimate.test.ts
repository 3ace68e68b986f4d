import { DURATION_SLOTS, durationKind, medianSeconds } from '#domain/job-durations';
import { estimatedSeconds } from '#domain/quote';
import type { StoredJob } from '#domain/job-execution';
import { estimateSeconds, recordJobDuration } from '#use-cases/job-duration-estimate';
import { MemoryJobDurations } from '#test-doubles/memory/job-durations';

const T0 = Date.parse('2026-11-30T12:00:00.000Z');
const job = (id: number, fields: Partial<StoredJob> = {}) =>
  ({ id, method: 'prompt', mode: 'auto', regenerations: 0, created_at: new Date(T0).toISOString(), ...fields }) as StoredJob;
const after = (s: number) => new Date(T0 + s * 1000);

describe('the median of recent samples', () => {
  test('is rounded up to whole seconds, and null below five samples', () => {
    expect(medianSeconds([4, 9, 5, 6])).toBeNull();
    expect(medianSeconds([4, 9, 5, 6, 12])).toBe(6);
    expect(medianSeconds([4.2, 9, 5.1, 6, 12, 4.9])).toBe(6);
    expect(medianSeconds([0.2, 0.3, 0.1, 0.2, 0.2])).toBe(1);
  });

  test('kinds part methods, modes and a hook over the demo (a preview stops before composing)', () => {
    expect(durationKind('prompt', 'auto')).toBe('prompt/auto');
    expect(durationKind('prompt', 'auto', 'full')).toBe('prompt/auto_full');
    expect(durationKind('motion', 'preview', 'full')).toBe('motion/preview');
  });
});

describe('estimated_seconds from this stack’s jobs', () => {
  test('follows the jobs once a kind has five samples, the table before', async () => {
    const deps = { jobDurations: new MemoryJobDurations() };
    const request = { method: 'prompt' as const, mode: 'auto' as const };
    expect(await estimateSeconds(deps, [request])).toEqual([estimatedSeconds('prompt', 'auto')]);
    for (const [id, s] of [[1, 9], [2, 11], [3, 14], [4, 8], [5, 12]] as const) await recordJobDuration(deps, job(id), 'done', after(s));
    expect(await estimateSeconds(deps, [request, { method: 'motion', mode: 'auto' }])).toEqual([11, estimatedSeconds('motion', 'auto')]);
  });

  test('keeps the latest sample per slot, so old jobs fall out', async () => {
    const deps = { jobDurations: new MemoryJobDurations() };
    for (let id = 1; id <= DURATION_SLOTS; id++) await recordJobDuration(deps, job(id), 'done', after(60));
    for (let id = DURATION_SLOTS + 1; id <= 2 * DURATION_SLOTS; id++) await recordJobDuration(deps, job(id), 'done', after(5));
    expect(await estimateSeconds(deps, [{ method: 'prompt', mode: 'auto' }])).toEqual([5]);
  });

  test('samples only a time nobody waited on: not an approved preview’s done, not a regenerated round', async () => {
    const deps = { jobDurations: new MemoryJobDurations() };
    for (let id = 1; id <= 5; id++) {
      await recordJobDuration(deps, job(id, { mode: 'preview' }), 'done', after(3600));
      await recordJobDuration(deps, job(id + 10, { mode: 'preview', regenerations: 1 }), 'preview_ready', after(900));
    }
    expect(await deps.jobDurations.samples('prompt/auto')).toEqual([]);
    expect(await deps.jobDurations.samples('prompt/preview')).toEqual([]);
    await recordJobDuration(deps, job(30, { mode: 'preview' }), 'preview_ready', after(7));
    expect(await deps.jobDurations.samples('prompt/preview')).toEqual([7]);
  });

  test('a store that cannot be read or written costs nothing: the table answers, the step goes on', async () => {
    const broken = { jobDurations: { record: () => Promise.reject(new Error('down')), samples: () => Promise.reject(new Error('down')) } };
    await expect(recordJobDuration(broken, job(1), 'done', after(5))).resolves.toBeUndefined();
    expect(await estimateSeconds(broken, [{ method: 'reuse', mode: 'preview' }])).toEqual([estimatedSeconds('reuse', 'preview')]);
  });
});
