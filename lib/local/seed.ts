/** The first start creates the `demo` account (plan pro) and one key, whose raw value is shown once. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { keys } from '#adapters/dynamodb/keys';
import { createAccount } from '#adapters/dynamodb/accounts';
import { createApiKey } from '#adapters/dynamodb/api-keys';
import { ALL_SCOPES } from '#domain/api-keys';

export interface SeededDemo {
  accountId: number;
  key: string;
}

export async function seedDemoAccount(): Promise<SeededDemo | undefined> {
  const marker = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: keys.seedMarker('demo') }));
  if (marker.Item) return undefined;
  const account = await createAccount('demo', 'pro');
  const key = await createApiKey(account.id, ALL_SCOPES);
  await dynamo().send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...keys.seedMarker('demo'), account_id: account.id, created_at: new Date().toISOString() },
    }),
  );
  return { accountId: account.id, key: key.key };
}
