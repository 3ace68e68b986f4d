import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteItems call (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Why each item of a cancelled transaction failed, in item order (`ConditionalCheckFailed`,
 * `TransactionConflict`, `None`...), or undefined when the error is not a cancelled transaction.
 */
function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((r) => r.Code);
}

/** The outcome of a transaction whose conditions may fail: which items refused, by index. */
export type TransactOutcome = { written: true } | { written: false; failed: number[] };

/** Transactions touching one hot item (a counter, a job) conflict under load; a few quick retries settle them. */
const MAX_ATTEMPTS = 6;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 10 * 2 ** attempt + Math.random() * 20));

/**
 * Writes the items all or nothing. A condition that fails is an answer, not an error: the indexes of
 * the refusing items come back. Conflicts with concurrent transactions are retried (the SDK does not
 * retry a cancelled transaction), and anything else is thrown.
 */
export async function transact(items: TransactItem[], client: DynamoDBDocumentClient): Promise<TransactOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.send(new TransactWriteCommand({ TransactItems: items }));
      return { written: true };
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (!reasons) throw error;
      const failed = reasons.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
      if (failed.length > 0) return { written: false, failed };
      if (!reasons.includes('TransactionConflict') || attempt + 1 >= MAX_ATTEMPTS) throw error;
      await pause(attempt);
    }
  }
}
