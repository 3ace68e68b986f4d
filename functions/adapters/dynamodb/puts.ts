/** Single-item Puts outside transactions: the two ways the stores write a whole item. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from './table';

/** Writes the item, replacing whatever its key held (a cache entry, a socket, a subscription). */
export async function putItem(table: DynamoTable, item: Record<string, unknown>): Promise<void> {
  await table.client.send(new PutCommand({ TableName: table.name, Item: item }));
}

/** Writes a new item only where its key is free; a taken key throws ConditionalCheckFailedException. */
export async function putNewItem(table: DynamoTable, item: Record<string, unknown>): Promise<void> {
  await table.client.send(new PutCommand({ TableName: table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
}
