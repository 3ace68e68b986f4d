/**
 * Idempotency-Key answers, one item per key in the account's partition. A claim is a conditional put
 * that only wins over no item, an in-progress item whose lease has run out, or an answer past its
 * keeping; the table's TTL (`expires_at`, epoch seconds) removes old ones, and every read checks the
 * times itself since TTL deletion may lag by hours.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AnswerClaim, IdempotentAnswerStore, RecordedAnswer } from '#ports/idempotent-answers';
import type { DynamoTable } from './table';
import { keys } from './keys';

const epochS = (at: Date) => Math.ceil(at.getTime() / 1000);
/** A claim that lost to an item gone by the time it is read (released, expired) tries again; twice is plenty. */
const CLAIM_TRIES = 3;

export class DynamoIdempotentAnswers implements IdempotentAnswerStore {
  constructor(private readonly table: DynamoTable) {}

  async claim(accountId: number, keyHash: string, requestHash: string, now: Date, leaseUntil: Date): Promise<AnswerClaim> {
    const key = keys.idempotentAnswer(accountId, keyHash);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: { ...key, type: 'idempotent_answer', request_hash: requestHash, lease_until: leaseUntil.getTime(), keep_until: leaseUntil.getTime(), expires_at: epochS(leaseUntil) },
            ConditionExpression: 'attribute_not_exists(pk) OR keep_until < :now',
            ExpressionAttributeValues: { ':now': now.getTime() },
          }),
        );
        return { kind: 'claimed' };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
      const item = out.Item;
      if (item && (item.keep_until as number) >= now.getTime()) {
        const held = item.request_hash as string;
        return item.answer ? { kind: 'answered', requestHash: held, answer: item.answer as RecordedAnswer } : { kind: 'in_progress', requestHash: held };
      }
      // Claims racing through expiring items this long: say so as a request in progress, to retry.
      if (attempt >= CLAIM_TRIES) return { kind: 'in_progress', requestHash };
    }
  }

  async record(accountId: number, keyHash: string, requestHash: string, answer: RecordedAnswer, keepUntil: Date): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.idempotentAnswer(accountId, keyHash),
          UpdateExpression: 'SET answer = :answer, keep_until = :keep, expires_at = :ttl REMOVE lease_until',
          ConditionExpression: 'request_hash = :hash AND attribute_not_exists(answer)',
          ExpressionAttributeValues: { ':answer': answer, ':keep': keepUntil.getTime(), ':ttl': epochS(keepUntil), ':hash': requestHash },
        }),
      );
    } catch (error) {
      // Another request took the key over after this one's lease ran out: its record stands.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async release(accountId: number, keyHash: string, requestHash: string): Promise<void> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.idempotentAnswer(accountId, keyHash),
          ConditionExpression: 'request_hash = :hash AND attribute_not_exists(answer)',
          ExpressionAttributeValues: { ':hash': requestHash },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
