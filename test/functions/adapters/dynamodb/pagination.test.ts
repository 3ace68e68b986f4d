import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { prefixQuery, queryItems, takeItems } from '#adapters/dynamodb/pagination';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
  for (const n of [1, 2, 3, 4, 5]) {
    await table.table.client.send(new PutCommand({ TableName: table.table.name, Item: { pk: 'PAGED', sk: `ITEM#${n}`, n } }));
  }
});
afterAll(() => table?.stop());

const newestFirst = () => ({ ...prefixQuery(table.table, 'PAGED', 'ITEM#'), ScanIndexForward: false });

describe('reading a Query part of the way', () => {
  it('takes as many items as asked and says where to go on from', async () => {
    const read = await takeItems(table.table, newestFirst(), 3);
    expect(read.items.map((item) => item.n)).toEqual([5, 4, 3]);
    const rest = await takeItems(table.table, { ...newestFirst(), ExclusiveStartKey: read.lastKey }, 3);
    expect(rest.items.map((item) => item.n)).toEqual([2, 1]);
    expect(rest.lastKey).toBeUndefined();
  });

  it('goes on across pages, however small, until the caller stops or the Query ends', async () => {
    const seen: unknown[] = [];
    for await (const item of queryItems(table.table, { ...newestFirst(), Limit: 2 })) {
      seen.push(item.n);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([5, 4, 3]);
    const all: unknown[] = [];
    for await (const item of queryItems(table.table, { ...newestFirst(), Limit: 2 })) all.push(item.n);
    expect(all).toEqual([5, 4, 3, 2, 1]);
  });
});
