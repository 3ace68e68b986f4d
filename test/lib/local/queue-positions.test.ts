/** Queue positions on job records: written only when they change, one write in flight per job. */
import { queuePositions } from '#local/queue-positions';

function recorder() {
  const writes: [string, number | null][] = [];
  const pending: (() => void)[] = [];
  const write = (key: string, position: number | null) =>
    new Promise<void>((resolve) => {
      writes.push([key, position]);
      pending.push(resolve);
    });
  const finishAll = async () => {
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { writes, write, finishAll };
}

describe('queuePositions', () => {
  test('a job that never waits costs no write', async () => {
    const r = recorder();
    const positions = queuePositions(r.write);
    positions.set('1/1', null);
    await positions.settled('1/1');
    expect(r.writes).toEqual([]);
  });

  test('changes made while a write is in flight are coalesced into one write of the latest value', async () => {
    const r = recorder();
    const positions = queuePositions(r.write);
    positions.set('1/2', 3);
    positions.set('1/2', 2);
    positions.set('1/2', 1);
    positions.set('1/2', null);
    const settled = positions.settled('1/2');
    await r.finishAll();
    await settled;
    expect(r.writes).toEqual([['1/2', 3], ['1/2', null]]);
  });

  test('a value the record already holds is not written again', async () => {
    const r = recorder();
    const positions = queuePositions(r.write);
    positions.set('1/3', 2);
    await r.finishAll();
    positions.set('1/3', 2);
    await r.finishAll();
    expect(r.writes).toEqual([['1/3', 2]]);
  });

  test('a stale position known from the record is cleared', async () => {
    const r = recorder();
    const positions = queuePositions(r.write);
    positions.known('1/4', 5);
    positions.set('1/4', null);
    await r.finishAll();
    expect(r.writes).toEqual([['1/4', null]]);
  });

  test('a failing write is reported and does not hold back settled()', async () => {
    const errors: string[] = [];
    const positions = queuePositions(
      () => Promise.reject(new Error('store down')),
      (key, error) => errors.push(`${key}: ${(error as Error).message}`),
    );
    positions.set('1/5', 1);
    await expect(positions.settled('1/5')).resolves.toBeUndefined();
    expect(errors).toEqual(['1/5: store down']);
  });
});
