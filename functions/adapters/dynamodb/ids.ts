import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import { keys } from './keys';

/** Positive integer ids from an atomic counter per entity type (DESIGN §2). */
export async function nextId(entity: string): Promise<number> {
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.value);
}

/** The last id handed out for `entity` (0 before the first): every id of it lies in 1..this. */
export async function lastId(entity: string): Promise<number> {
  const out = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: keys.counter(entity), ConsistentRead: true }));
  return Number(out.Item?.value ?? 0);
}
