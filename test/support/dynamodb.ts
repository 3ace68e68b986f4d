/** Integration harness: a table of the service's schema, of its own, in the run's shared DynamoDB Local. */
import { ensureTable } from '#local/provision';
import { createDynamoTable } from '#adapters/aws-clients';
import { DEFAULT_REGION } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { deleteTable, sharedEndpoints, uniqueName } from './services';
const { min } = Math;

export interface TestTable {
  /** The table, for the adapters under test: `new DynamoXStore(t.table)`. */
  table: DynamoTable;
  stop(): Promise<void>;
}

/**
 * Makes every index Query of the table's client ask for pages of at most `items`: DynamoDB pages at
 * 1 MB, which a test would need thousands of items to reach, so readers that follow LastEvaluatedKey
 * are held to it with a few.
 */
export function smallIndexPages(table: DynamoTable, items: number): void {
  table.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { IndexName?: string; Limit?: number };
      if (context.commandName === 'QueryCommand' && input.IndexName) input.Limit = min(input.Limit ?? items, items);
      return next(args);
    },
    { step: 'initialize', name: 'smallIndexPages' },
  );
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
