/** What every JobDurationStore must do, run against the DynamoDB store and the in-memory double. */
import { randomUUID } from 'node:crypto';
import type { JobDurationStore } from '#ports/job-durations';

export function jobDurationsContract(store: () => JobDurationStore): void {
  describe('the job duration store', () => {
    test('a kind with nothing recorded has no samples', async () => {
      expect(await store().samples(`prompt/auto-${randomUUID()}`)).toEqual([]);
    });

    test('each slot holds its latest sample, kinds apart', async () => {
      const kind = `prompt/auto-${randomUUID()}`;
      const other = `motion/preview-${randomUUID()}`;
      await store().record(kind, 0, 4.5);
      await store().record(kind, 1, 6.25);
      await store().record(kind, 0, 5);
      await store().record(other, 0, 30);
      expect((await store().samples(kind)).sort()).toEqual([5, 6.25]);
      expect(await store().samples(other)).toEqual([30]);
    });

    test('concurrent samples into different slots are all kept', async () => {
      const kind = `reuse/auto-${randomUUID()}`;
      await Promise.all(Array.from({ length: 21 }, (_, slot) => store().record(kind, slot, slot + 1)));
      expect((await store().samples(kind)).sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    });
  });
}
