import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from './table';
import { keys } from './keys';

/** Positive integer ids from an atomic counter per entity type: short, ordered, never reused. */
export async function allocateId(table: DynamoTable, entity: string): Promise<number> {
  const out = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
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
export async function lastAllocatedId(table: DynamoTable, entity: string): Promise<number> {
  const out = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.counter(entity), ConsistentRead: true }));
  return Number(out.Item?.value ?? 0);
}
