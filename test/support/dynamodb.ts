/** Integration harness: an in-memory DynamoDB Local on a free port with the service's table. */
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTable } from '../../lib/local/provision';
import { freePort } from '../../lib/local/ports';
import { resetClients } from '../../functions/adapters/aws-clients';

export async function startTestTable(): Promise<{ stop(): Promise<void> }> {
  const db = await startDynamoDbLocal({ port: await freePort() });
  process.env.TABLE_NAME = 'test-table';
  process.env.DYNAMODB_ENDPOINT = db.endpoint;
  resetClients();
  await ensureTable(db.endpoint, 'test-table');
  return {
    async stop() {
      resetClients();
      await db.child.stop();
    },
  };
}
