/**
 * The table the stack runs on after a restore (docs/aws.md, Restoring the table): from CDK context,
 * `cdk deploy -c restoredTableName=NAME -c restoredTableStreamArn=ARN`. A restore always makes a new
 * table (PITR, AWS Backup, an import, or `npm run restore`), so instead of its own the stack then
 * takes that one by name, with the stream its job starter and webhook dispatcher read. The table the
 * stack made stays where it is (RETAIN, deletion protection) for comparison until removed by hand.
 */
import type { Construct } from 'constructs';

export const RESTORED_TABLE_CONTEXT = { name: 'restoredTableName', streamArn: 'restoredTableStreamArn' } as const;

export interface RestoredTable {
  tableName: string;
  tableStreamArn: string;
}

/** DynamoDB's own rule for a table name. */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

export function restoredTableFromContext(scope: Construct): RestoredTable | undefined {
  const name = scope.node.tryGetContext(RESTORED_TABLE_CONTEXT.name) as unknown;
  const streamArn = scope.node.tryGetContext(RESTORED_TABLE_CONTEXT.streamArn) as unknown;
  if (name === undefined && streamArn === undefined) return undefined;
  if (typeof name !== 'string' || !TABLE_NAME.test(name)) {
    throw new Error(`context ${RESTORED_TABLE_CONTEXT.name}=${String(name)} must be a DynamoDB table name (3 to 255 letters, digits, _ . -)`);
  }
  // The job starter and the webhook dispatcher run on the stream: without it the stack would deploy
  // and then start no job written by a dead API process and deliver no webhook.
  const ofTable = `:table/${name}/stream/`;
  if (typeof streamArn !== 'string' || !streamArn.startsWith('arn:') || !streamArn.includes(ofTable)) {
    throw new Error(`context ${RESTORED_TABLE_CONTEXT.streamArn}=${String(streamArn)} must be the ARN of ${name}'s stream (…${ofTable}…; npm run restore prints it)`);
  }
  return { tableName: name, tableStreamArn: streamArn };
}
