/** Integration harness: an in-memory DynamoDB Local on a free port with the service's table. */
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { ensureTable } from '#local/provision';
import { freePort } from '#local/free-port';
import { createDynamoTable } from '#adapters/aws-clients';
import { DEFAULT_REGION } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';

export interface TestTable {
  /** The table, for the adapters under test: `new DynamoXStore(t.table)`. */
  table: DynamoTable;
  stop(): Promise<void>;
}

const TABLE_NAME = 'test-table';

export async function startTestTable(): Promise<TestTable> {
  const db = await startDynamoDbLocal({ port: await freePort() });
  await ensureTable(db.endpoint, TABLE_NAME);
  const table = createDynamoTable({ region: DEFAULT_REGION, tableName: TABLE_NAME, dynamoEndpoint: db.endpoint });
  return {
    table,
    async stop() {
      table.client.destroy();
      await db.child.stop();
    },
  };
}
