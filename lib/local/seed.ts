/** The first start creates the `demo` account (plan pro) and one key, whose raw value is shown once. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { keys } from '#adapters/dynamodb/keys';
import { ALL_SCOPES } from '#domain/api-keys';
import type { Dependencies } from '#ports/dependencies';

export interface SeededDemo {
  accountId: number;
  key: string;
}

export async function seedDemoAccount(
  table: DynamoTable,
  deps: Pick<Dependencies, 'accounts' | 'apiKeys' | 'now'>,
): Promise<SeededDemo | undefined> {
  const marker = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.seedMarker('demo') }));
  if (marker.Item) return undefined;
  const account = await deps.accounts.create('demo', 'pro', deps.now());
  const key = await deps.apiKeys.create(account.id, ALL_SCOPES, deps.now());
  await table.client.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...keys.seedMarker('demo'), account_id: account.id, created_at: deps.now().toISOString() },
    }),
  );
  return { accountId: account.id, key: key.key };
}
