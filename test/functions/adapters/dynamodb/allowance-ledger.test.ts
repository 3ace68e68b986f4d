import { charge, getEntry, periodUsage, release, reserve } from '../../../../functions/adapters/dynamodb/allowance-ledger';
import { AppError } from '../../../../functions/domain/errors';
import { startTestTable } from '../../../support/dynamodb';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table?.stop());

let nextAccount = 1000;
const freshAccount = () => nextAccount++;
const PERIOD = '2026-11';

describe('the allowance ledger', () => {
  test('a reservation becomes a charge once: used goes up by one, reserved back to zero', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 1, chargeNumber: 1 };
    expect(await reserve(ref, PERIOD, 3)).toEqual({ state: 'reserved', changed: true });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    expect(await charge(ref)).toEqual({ state: 'charged', changed: true });
    expect(await charge(ref)).toEqual({ state: 'charged', changed: false });
    expect(await release(ref)).toEqual({ state: 'charged', changed: false });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('reserving the same (job, charge number) twice holds one unit', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 7, chargeNumber: 1 };
    await reserve(ref, PERIOD, 3);
    expect(await reserve(ref, PERIOD, 3)).toEqual({ state: 'reserved', changed: false });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('a released reservation frees its unit and can never be charged', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 2, chargeNumber: 1 };
    await reserve(ref, PERIOD, 1);
    await expect(reserve({ accountId, jobId: 3, chargeNumber: 1 }, PERIOD, 1)).rejects.toMatchObject({ code: 'allowance_exhausted' });
    expect(await release(ref)).toEqual({ state: 'released', changed: true });
    expect(await charge(ref)).toEqual({ state: 'released', changed: false });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    expect(await reserve({ accountId, jobId: 3, chargeNumber: 1 }, PERIOD, 1)).toMatchObject({ changed: true });
  });

  test('concurrent reservations never pass the limit', async () => {
    const accountId = freshAccount();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => reserve({ accountId, jobId: 100 + i, chargeNumber: 1 }, PERIOD, 10)),
    );
    const granted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(granted).toHaveLength(10);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason).toMatchObject({ status: 402, code: 'allowance_exhausted' });
    }
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 10 });
  });

  test('duplicate concurrent charges of one reservation charge once', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 9, chargeNumber: 2 };
    await reserve(ref, PERIOD, 5);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => charge(ref)));
    expect(outcomes.filter((o) => o.changed)).toHaveLength(1);
    expect(outcomes.every((o) => o.state === 'charged')).toBe(true);
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('a charge lands in the period of its reservation, even when settled in the next month', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 11, chargeNumber: 1 };
    await reserve(ref, '2026-11', 5, new Date('2026-11-30T23:59:59Z'));
    await charge(ref, new Date('2026-12-01T00:00:05Z'));
    expect(await periodUsage(accountId, '2026-11')).toEqual({ used: 1, reserved: 0 });
    expect(await periodUsage(accountId, '2026-12')).toEqual({ used: 0, reserved: 0 });
    expect(await getEntry(ref)).toEqual({ state: 'charged', period: '2026-11' });
  });

  test('settling a reservation that was never made is a programming error, not a silent no-op', async () => {
    await expect(charge({ accountId: freshAccount(), jobId: 1, chargeNumber: 1 })).rejects.toThrow(/no allowance reservation/);
  });
});
