/** Conditional writes outside transactions: a refused condition is an answer, not an error. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** The write's answer, or undefined when DynamoDB refused it because its condition did not hold; any other error is thrown. */
export async function unlessRefused<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
