/** Integration harness: an in-memory DynamoDB Local on a free port with the service's table. */
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { ensureTable } from '#local/provision';
import { freePort } from '#local/ports';
import { resetClients } from '#adapters/aws-clients';

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
