import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { LedgerViolation, type ChargeRef } from '#ports/allowance-ledger';
import { AppError } from '#domain/errors';
import type { TransactItem } from '#adapters/dynamodb/transactions';
import { smallIndexPages, startTestTable, type TestTable } from '#test-support/dynamodb';

let testTable: TestTable;
let ledger: DynamoAllowanceLedger;
beforeAll(async () => {
  testTable = await startTestTable();
  // Two items a page: the reserved units' reader follows every shard's pages.
  smallIndexPages(testTable.table, 2);
  ledger = new DynamoAllowanceLedger(testTable.table);
});
afterAll(() => testTable?.stop());

let nextAccount = 1000;
const freshAccount = () => nextAccount++;
const PERIOD = '2026-11';

/** A unit reserved on its own (in the service it always comes with the record it pays for). */
async function reserve(ref: ChargeRef, period: string, limit: number, now = new Date()) {
  const outcome = await ledger.reserveWith({ ref, period, limit }, [], now);
  expect(outcome).toEqual({ written: true });
  return outcome;
}

/** A write whose condition never holds: the record a unit would pay for, refused. */
const refusedWrite = (accountId: number): TransactItem => ({
  ConditionCheck: {
    TableName: testTable.table.name,
    Key: { pk: `ACCOUNT#${accountId}`, sk: 'NOTHING' },
    ConditionExpression: 'attribute_exists(pk)',
  },
});

describe('the allowance ledger', () => {
  test('a reservation becomes a charge once: used goes up by one, reserved back to zero', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 1, chargeNumber: 1 };
    await reserve(ref, PERIOD, 3);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
    expect(await ledger.charge(ref)).toEqual({ state: 'charged', changed: true });
    expect(await ledger.charge(ref)).toEqual({ state: 'charged', changed: false });
    expect(await ledger.release(ref)).toEqual({ state: 'charged', changed: false });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('reserving a (job, charge number) that already holds a unit is refused loudly and holds one unit', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 7, chargeNumber: 1 };
    await reserve(ref, PERIOD, 3);
    await expect(ledger.reserveWith({ ref, period: PERIOD, limit: 3 }, [])).rejects.toBeInstanceOf(LedgerViolation);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('when the record a unit pays for is refused, no unit is reserved', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 8, chargeNumber: 1 };
    const outcome = await ledger.reserveWith({ ref, period: PERIOD, limit: 3 }, [refusedWrite(accountId), refusedWrite(accountId)]);
    expect(outcome).toEqual({ written: false, failed: [0, 1] });
    expect(await ledger.entry(ref)).toBeUndefined();
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
  });

  test('a refused record is reported before a full allowance (the request was not going to use a unit)', async () => {
    const accountId = freshAccount();
    await reserve({ accountId, jobId: 1, chargeNumber: 1 }, PERIOD, 1);
    const outcome = await ledger.reserveWith({ ref: { accountId, jobId: 2, chargeNumber: 1 }, period: PERIOD, limit: 1 }, [refusedWrite(accountId)]);
    expect(outcome).toEqual({ written: false, failed: [0] });
  });

  test('a released reservation frees its unit and charging it afterwards fails loudly', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 2, chargeNumber: 1 };
    await reserve(ref, PERIOD, 1);
    await expect(ledger.reserveWith({ ref: { accountId, jobId: 3, chargeNumber: 1 }, period: PERIOD, limit: 1 }, [])).rejects.toMatchObject({
      code: 'allowance_exhausted',
    });
    expect(await ledger.release(ref)).toEqual({ state: 'released', changed: true });
    await expect(ledger.charge(ref)).rejects.toBeInstanceOf(LedgerViolation);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    await reserve({ accountId, jobId: 3, chargeNumber: 1 }, PERIOD, 1);
  });

  test('a released entry is reserved again only through the limit check', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 4, chargeNumber: 2 };
    await reserve(ref, PERIOD, 1);
    await ledger.release(ref);
    await reserve({ accountId, jobId: 5, chargeNumber: 1 }, PERIOD, 1);
    await expect(ledger.reserveWith({ ref, period: PERIOD, limit: 1 }, [])).rejects.toMatchObject({ code: 'allowance_exhausted' });
    expect(await ledger.entry(ref)).toMatchObject({ state: 'released' });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 1 });
  });

  test('a withdrawn reservation is gone, its unit is free, and its record write is undone with it', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 6, chargeNumber: 1 };
    await reserve(ref, PERIOD, 1);
    expect(await ledger.withdrawWith({ ref, period: PERIOD }, [])).toEqual({ written: true });
    expect(await ledger.entry(ref)).toBeUndefined();
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 0 });
    // Withdrawing is only for a unit still reserved: a charged one stays charged.
    await reserve(ref, PERIOD, 1);
    await ledger.charge(ref);
    expect(await ledger.withdrawWith({ ref, period: PERIOD }, [])).toEqual({ written: false, failed: [0] });
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('units still reserved are listed by age until they are settled', async () => {
    const accountId = freshAccount();
    const old = { accountId, jobId: 20, chargeNumber: 1 };
    const settled = { accountId, jobId: 21, chargeNumber: 1 };
    const recent = { accountId, jobId: 22, chargeNumber: 1 };
    await reserve(old, PERIOD, 9, new Date('2020-01-01T00:00:00Z'));
    await reserve(settled, PERIOD, 9, new Date('2020-01-01T00:00:01Z'));
    await ledger.charge(settled);
    await reserve(recent, PERIOD, 9, new Date('2030-01-01T00:00:00Z'));
    const listed = [];
    for await (const unit of ledger.reservedBefore(new Date('2025-01-01T00:00:00Z'))) if (unit.accountId === accountId) listed.push(unit);
    expect(listed).toEqual([{ ...old, reservedAt: '2020-01-01T00:00:00.000Z' }]);
  });

  test('every unit still reserved is listed, across the shards and their pages', async () => {
    const accountId = freshAccount();
    const refs = Array.from({ length: 30 }, (_, i) => ({ accountId, jobId: 300 + i, chargeNumber: 1 }));
    for (const ref of refs) await reserve(ref, PERIOD, 99, new Date('2020-02-01T00:00:00Z'));
    const listed: number[] = [];
    for await (const unit of ledger.reservedBefore(new Date('2025-01-01T00:00:00Z'))) if (unit.accountId === accountId) listed.push(unit.jobId);
    expect(listed.sort((a, b) => a - b)).toEqual(refs.map((ref) => ref.jobId));
  });

  test('concurrent reservations never pass the limit', async () => {
    const accountId = freshAccount();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => ledger.reserveWith({ ref: { accountId, jobId: 100 + i, chargeNumber: 1 }, period: PERIOD, limit: 10 }, [])),
    );
    const granted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(granted).toHaveLength(10);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect(r.reason).toMatchObject({ status: 402, code: 'allowance_exhausted' });
    }
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 0, reserved: 10 });
  });

  test('duplicate concurrent charges of one reservation charge once', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 9, chargeNumber: 2 };
    await reserve(ref, PERIOD, 5);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => ledger.charge(ref)));
    expect(outcomes.filter((o) => o.changed)).toHaveLength(1);
    expect(outcomes.every((o) => o.state === 'charged')).toBe(true);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual({ used: 1, reserved: 0 });
  });

  test('a charge lands in the period of its reservation, even when settled in the next month', async () => {
    const accountId = freshAccount();
    const ref = { accountId, jobId: 11, chargeNumber: 1 };
    await reserve(ref, '2026-11', 5, new Date('2026-11-30T23:59:59Z'));
    await ledger.charge(ref, new Date('2026-12-01T00:00:05Z'));
    expect(await ledger.periodUsage(accountId, '2026-11')).toEqual({ used: 1, reserved: 0 });
    expect(await ledger.periodUsage(accountId, '2026-12')).toEqual({ used: 0, reserved: 0 });
    expect(await ledger.entry(ref)).toEqual({ state: 'charged', period: '2026-11' });
  });

  test('settling a reservation that was never made is a programming error, not a silent no-op', async () => {
    await expect(ledger.charge({ accountId: freshAccount(), jobId: 1, chargeNumber: 1 })).rejects.toThrow(LedgerViolation);
  });
});
