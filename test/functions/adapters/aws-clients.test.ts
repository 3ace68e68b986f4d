/**
 * The local twin's DynamoDB client: a transaction it reports written survives DynamoDB Local being
 * killed with SIGKILL right after the answer (DynamoDB Local alone answers before it commits).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoTable } from '#adapters/aws-clients';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { DEFAULT_REGION } from '#functions/config';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { ensureTable } from '#local/provision';

const ROUNDS = 6;
const TABLE = 'durability-table';

async function withDynamoDbLocal<T>(dbPath: string, use: (table: DynamoTable) => Promise<T>): Promise<T> {
  const db = await startDynamoDbLocal({ dbPath });
  const table = createDynamoTable({ region: DEFAULT_REGION, tableName: TABLE, dynamoEndpoint: db.endpoint });
  try {
    await ensureTable(db.endpoint, TABLE);
    return await use(table);
  } finally {
    table.client.destroy();
    // No stop, no flush: the process is gone the moment the answer is in.
    db.child.process.kill('SIGKILL');
    await new Promise((r) => db.child.process.once('exit', r));
  }
}

test(`a transaction answered as written survives SIGKILL of DynamoDB Local right after the answer (${ROUNDS} rounds)`, async () => {
  const dbPath = mkdtempSync(join(tmpdir(), 'rs-ddb-durable-'));
  const missing: string[] = [];
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      await withDynamoDbLocal(dbPath, async ({ client }) => {
        if (round > 0) {
          const previous = await client.send(new GetCommand({ TableName: TABLE, Key: { pk: `TX#${round - 1}`, sk: 'A' }, ConsistentRead: true }));
          if (!previous.Item) missing.push(`TX#${round - 1}`);
        }
        if (round === ROUNDS) return;
        await client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: TABLE, Item: { pk: `TX#${round}`, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } },
              { Update: { TableName: TABLE, Key: { pk: 'COUNTER', sk: 'A' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
            ],
          }),
        );
      });
    }
  } finally {
    rmSync(dbPath, { recursive: true, force: true });
  }
  expect(missing).toEqual([]);
}, 180_000);
