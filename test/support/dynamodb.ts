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

/**
 * A store built on a table of its own for the suite (made before its tests, dropped after): the
 * getter is what a contract suite takes, e.g. `productStoreContract(storeOnTestTable((t) => new DynamoProductStore(t)), 7000)`.
 */
export function storeOnTestTable<S>(make: (table: DynamoTable) => S): () => S {
  let testTable: TestTable | undefined;
  let store: S | undefined;
  beforeAll(async () => {
    testTable = await startTestTable();
    store = make(testTable.table);
  });
  afterAll(() => testTable?.stop());
  return () => {
    if (store === undefined) throw new Error('the store is made in beforeAll: read it inside a test');
    return store;
  };
}
