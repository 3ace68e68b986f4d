/**
 * The write capacity model (test/support/capacity-model.ts, docs/aws.md "Capacity"): every kind of job,
 * driven through the real use cases, tasks and DynamoDB stores, leaves the service at 500 jobs a
 * second or more before any partition key that jobs of every account share reaches 1,000 WCU a second.
 */
import { JOB_KINDS, measureCapacity, type KindCapacity } from '#test-support/capacity-model';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

const TARGET_JOBS_PER_S = 500;

let t: TestTable;
let capacity: KindCapacity[];
beforeAll(async () => {
  t = await startTestTable();
  capacity = await measureCapacity(t.table);
}, 120_000);
afterAll(() => t?.stop());

describe('write capacity per partition key', () => {
  test.each(JOB_KINDS)(`%s jobs: ${TARGET_JOBS_PER_S} a second or more before a shared key reaches 1,000 WCU/s`, (kind) => {
    const measured = capacity.find((c) => c.kind === kind)!;
    expect(measured.jobs).toBeGreaterThan(0);
    expect({ kind, hottest: measured.hottest.pk, jobsPerSecond: measured.jobsPerSecond }).toEqual({ kind, hottest: measured.hottest.pk, jobsPerSecond: expect.any(Number) });
    expect(measured.jobsPerSecond).toBeGreaterThanOrEqual(TARGET_JOBS_PER_S);
  });

  test('no in-flight set is one key: every write to gsi2 lands on a shard', () => {
    const gsi2 = capacity.flatMap((c) => c.keys).filter((load) => load.where === 'gsi2');
    expect(gsi2.length).toBeGreaterThan(0);
    for (const load of gsi2) expect(load.pk).toMatch(/#<shard>$/);
  });

  test('no job writes to gsi1 (its partitions are per record: sessions, key ids, stuck demos and avatars)', () => {
    expect(capacity.flatMap((c) => c.keys).filter((load) => load.where === 'gsi1')).toEqual([]);
  });
});
