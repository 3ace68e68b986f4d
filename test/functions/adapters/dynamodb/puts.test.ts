import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { putItem, putNewItem } from '#adapters/dynamodb/puts';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

let table: TestTable;
beforeAll(async () => {
  table = await startTestTable();
});
afterAll(() => table?.stop());

const read = async (key: { pk: string; sk: string }) =>
  (await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: key, ConsistentRead: true }))).Item;

describe('single-item puts', () => {
  it('replaces whatever the key held with a plain put', async () => {
    const key = { pk: 'PUTS#1', sk: 'ITEM' };
    await putItem(table.table, { ...key, type: 'probe', version: 1, dropped: true });
    await putItem(table.table, { ...key, type: 'probe', version: 2 });
    expect(await read(key)).toEqual({ ...key, type: 'probe', version: 2 });
  });

  it('writes a new item where the key is free, and refuses a taken key, leaving the first item', async () => {
    const key = { pk: 'PUTS#2', sk: 'ITEM' };
    await putNewItem(table.table, { ...key, type: 'probe', version: 1 });
    await expect(putNewItem(table.table, { ...key, type: 'probe', version: 2 })).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(await read(key)).toEqual({ ...key, type: 'probe', version: 1 });
  });
});
