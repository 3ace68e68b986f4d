/** Integration harness: a table of the service's schema, of its own, in the run's shared DynamoDB Local. */
import { ensureTable } from '#local/provision';
import { createDynamoTable } from '#adapters/aws-clients';
import { DEFAULT_REGION } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { deleteTable, sharedEndpoints, uniqueName } from './services';

export interface TestTable {
  /** The table, for the adapters under test: `new DynamoXStore(t.table)`. */
  table: DynamoTable;
  stop(): Promise<void>;
}

export async function startTestTable(): Promise<TestTable> {
  const { dynamoEndpoint } = sharedEndpoints();
  const tableName = uniqueName('table');
  await ensureTable(dynamoEndpoint, tableName);
  const table = createDynamoTable({ region: DEFAULT_REGION, tableName, dynamoEndpoint });
  return {
    table,
    async stop() {
      table.client.destroy();
      await deleteTable(dynamoEndpoint, tableName);
    },
  };
}
