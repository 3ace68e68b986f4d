import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws-clients';
import { config } from '../../config';
import { keys } from './keys';

export const REACTION_PREFIX = 'REACTION#';

/** Saved reactions in the account's library (the video-jobs work adds them). */
export async function countLibrary(accountId: number): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':prefix': REACTION_PREFIX },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    total += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return total;
}
