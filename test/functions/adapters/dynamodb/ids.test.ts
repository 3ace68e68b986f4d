/** Ids of records made per job: drawn from per-account shards a block at a time, unique, rising per account. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { allocateShardedId, ID_BLOCK, lastAllocatedId } from '#adapters/dynamodb/ids';
import { keys } from '#adapters/dynamodb/keys';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
const { max, min } = Math;

let t: TestTable;
beforeAll(async () => {
  t = await startTestTable();
});
afterAll(() => t?.stop());

describe('sharded ids', () => {
  test("an account's ids rise in the order they were asked for", async () => {
    const ids: number[] = [];
    for (let i = 0; i < ID_BLOCK + 20; i++) ids.push(await allocateShardedId(t.table, 'rising', 7));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('many accounts asking at once get distinct positive ids', async () => {
    const asks = Array.from({ length: 400 }, (_, i) => allocateShardedId(t.table, 'crowd', 1 + (i % 37)));
    const ids = await Promise.all(asks);
    expect(new Set(ids).size).toBe(ids.length);
    expect(min(...ids)).toBeGreaterThan(0);
    // Every id lies within what the entity's counter handed out, as for unsharded ids.
    expect(max(...ids)).toBeLessThanOrEqual(await lastAllocatedId(t.table, 'crowd'));
  });

  test('the entity counter takes one write per block, not per id', async () => {
    for (let i = 0; i < 2 * ID_BLOCK; i++) await allocateShardedId(t.table, 'blocks', 3);
    expect(await lastAllocatedId(t.table, 'blocks')).toBe(2 * ID_BLOCK);
  });

  test('ids continue above every id the single counter handed out before the shards', async () => {
    await t.table.client.send(
      new UpdateCommand({ TableName: t.table.name, Key: keys.counter('legacy'), UpdateExpression: 'SET #v = :v', ExpressionAttributeNames: { '#v': 'value' }, ExpressionAttributeValues: { ':v': 5000 } }),
    );
    expect(await allocateShardedId(t.table, 'legacy', 11)).toBe(5001);
    expect(await allocateShardedId(t.table, 'legacy', 11)).toBe(5002);
  });
});
