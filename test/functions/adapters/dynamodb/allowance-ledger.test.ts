import {
  charge,
  getEntry,
  LedgerViolation,
  periodUsage,
  release,
  reservedBefore,
  reserveWith,
  withdrawWith,
  type ChargeRef,
} from '#adapters/dynamodb/allowance-ledger';
import { config } from '#functions/config';
import { AppError } from '#domain/errors';
import type { TransactItem } from '#adapters/dynamodb/transactions';
import { startTestTable } from '#test-support/dynamodb';

let table: { stop(): Promise<void> };
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table?.stop());

let nextAccount = 1000;
const freshAccount = () => nextAccount++;
const PERIOD = '2026-11';

/** A unit reserved on its own (in the service it always comes with the record it pays for). */
async function reserve(ref: ChargeRef, period: string, limit: number, now = new Date()) {
  const outcome = await reserveWith({ ref, period, limit }, [], now);
  expect(outcome).toEqual({ written: true });
  return outcome;
}

/** A write whose condition never holds: the record a unit would pay for, refused. */
const refusedWrite = (accountId: number): TransactItem => ({
  ConditionCheck: {
    TableName: config.tableName,
    Key: { pk: `ACCOUNT#${accountId}`, sk: 'NOTHING' },
    ConditionExpression: 'attribute_exists(pk)',
  },
});

describe('the allowance ledger', () => {
  test('a reservation becomes a charge once: used goes up by one, reserved back to zero', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 1, chargeNumber: 1 };
    await reserve(ref, PERIOD, 3);
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    expect(await charge(ref)).toEqual({ state: 'charged', changed: true });
    expect(await charge(ref)).toEqual({ state: 'charged', changed: false });
    expect(await release(ref)).toEqual({ state: 'charged', changed: false });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('reserving a (job, charge number) that already holds a unit is refused loudly and holds one unit', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 7, chargeNumber: 1 };
    await reserve(ref, PERIOD, 3);
    await expect(reserveWith({ ref, period: PERIOD, limit: 3 }, [])).rejects.toBeInstanceOf(LedgerViolation);
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('when the record a unit pays for is refused, no unit is reserved', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 8, chargeNumber: 1 };
    const outcome = await reserveWith({ ref, period: PERIOD, limit: 3 }, [refusedWrite(accountId), refusedWrite(accountId)]);
    expect(outcome).toEqual({ written: false, failed: [0, 1] });
    expect(await getEntry(ref)).toBeUndefined();
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a refused record is reported before a full allowance (the request was not going to use a unit)', async () => {
    const accountId = freshAccount();
    await reserve({ accountId, jobId: 1, chargeNumber: 1 }, PERIOD, 1);
    const outcome = await reserveWith({ ref: { accountId, jobId: 2, chargeNumber: 1 }, period: PERIOD, limit: 1 }, [refusedWrite(accountId)]);
    expect(outcome).toEqual({ written: false, failed: [0] });
  });

  test('a released reservation frees its unit and charging it afterwards fails loudly', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 2, chargeNumber: 1 };
    await reserve(ref, PERIOD, 1);
    await expect(reserveWith({ ref: { accountId, jobId: 3, chargeNumber: 1 }, period: PERIOD, limit: 1 }, [])).rejects.toMatchObject({
      code: 'allowance_exhausted',
    });
    expect(await release(ref)).toEqual({ state: 'released', changed: true });
    await expect(charge(ref)).rejects.toBeInstanceOf(LedgerViolation);
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    await reserve({ accountId, jobId: 3, chargeNumber: 1 }, PERIOD, 1);
  });

  test('a released entry is reserved again only through the limit check', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 4, chargeNumber: 2 };
    await reserve(ref, PERIOD, 1);
    await release(ref);
    await reserve({ accountId, jobId: 5, chargeNumber: 1 }, PERIOD, 1);
    await expect(reserveWith({ ref, period: PERIOD, limit: 1 }, [])).rejects.toMatchObject({ code: 'allowance_exhausted' });
    expect(await getEntry(ref)).toMatchObject({ state: 'released' });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('a withdrawn reservation is gone, its unit is free, and its record write is undone with it', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 6, chargeNumber: 1 };
    await reserve(ref, PERIOD, 1);
    expect(await withdrawWith({ ref, period: PERIOD }, [])).toEqual({ written: true });
    expect(await getEntry(ref)).toBeUndefined();
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    // Withdrawing is only for a unit still reserved: a charged one stays charged.
    await reserve(ref, PERIOD, 1);
    await charge(ref);
    expect(await withdrawWith({ ref, period: PERIOD }, [])).toEqual({ written: false, failed: [0] });
    expect(await periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('units still reserved are listed by age until they are settled', async () => {
    const accountId = freshAccount();
    const old = { accountId, jobId: 20, chargeNumber: 1 };
    const settled = { accountId, jobId: 21, chargeNumber: 1 };
    const recent = { accountId, jobId: 22, chargeNumber: 1 };
    await reserve(old, PERIOD, 9, new Date('2020-01-01T00:00:00Z'));
    await reserve(settled, PERIOD, 9, new Date('2020-01-01T00:00:01Z'));
    await charge(settled);
    await reserve(recent, PERIOD, 9, new Date('2030-01-01T00:00:00Z'));
    const listed = [];
    for await (const unit of reservedBefore(new Date('2025-01-01T00:00:00Z'))) if (unit.accountId === accountId) listed.push(unit);
    expect(listed).toEqual([{ ...old, reservedAt: '2020-01-01T00:00:00.000Z' }]);
  });

  test('concurrent reservations never pass the limit', async () => {
    const accountId = freshAccount();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => reserveWith({ ref: { accountId, jobId: 100 + i, chargeNumber: 1 }, period: PERIOD, limit: 10 }, [])),
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
    await expect(charge({ accountId: freshAccount(), jobId: 1, chargeNumber: 1 })).rejects.toThrow(LedgerViolation);
  });
});
