import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { keys } from './keys';

/**
 * Saved reactions in the account's library, read from the counter that saves are admitted by
 * (adapters/dynamodb/reactions.ts), so GET /usage and the cap never disagree.
 */
export async function countLibrary(accountId: number): Promise<number> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.libraryCounter(accountId), ConsistentRead: true }),
  );
  return Math.max(0, Number(out.Item?.count ?? 0));
}
