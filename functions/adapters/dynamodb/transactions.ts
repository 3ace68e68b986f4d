import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Why each item of a cancelled transaction failed, in item order (`ConditionalCheckFailed`,
 * `TransactionConflict`, `None`...), or undefined when the error is not a cancelled transaction.
 */
export function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((r) => r.Code);
}
