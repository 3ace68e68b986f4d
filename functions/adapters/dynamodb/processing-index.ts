/**
 * The sparse "still processing" indexes (keys.processingDemosIndex, keys.processingAvatarsIndex): an
 * item carries the gsi1 attributes from the write that starts its work until the write that settles
 * it, sorted by when the work started, so the records started before a cutoff are one Query.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { GSI1, padId } from './keys';
import type { DynamoTable } from './table';

export interface ProcessingRef {
  accountId: number;
  id: number;
}

/** The gsi1 attributes of an item whose work started at `startedAt` (ISO time, so keys sort by time). */
export const processingIndex = (index: string, startedAt: string, accountId: number, id: number) => ({
  gsi1pk: index,
  gsi1sk: `${startedAt}#${padId(accountId)}#${padId(id)}`,
});

/** The items of the index whose work started before `cutoff`, oldest first. */
export async function processingBefore(table: DynamoTable, index: string, cutoff: Date): Promise<ProcessingRef[]> {
  const found: ProcessingRef[] = [];
  const query = {
    TableName: table.name,
    IndexName: GSI1,
    KeyConditionExpression: 'gsi1pk = :index AND gsi1sk < :cutoff',
    ExpressionAttributeValues: { ':index': index, ':cutoff': cutoff.toISOString() },
  };
  for await (const out of paginateQuery({ client: table.client }, query)) {
    for (const item of out.Items ?? []) found.push({ accountId: item.account_id as number, id: item.id as number });
  }
  return found;
}
