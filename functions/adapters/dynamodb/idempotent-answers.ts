/**
 * Idempotency-Key answers, one item per key in the account's partition. A claim is a conditional put
 * that only wins over no item, an in-progress item whose lease has run out, or an answer past its
 * keeping; the table's TTL (`expires_at`, epoch seconds) removes old ones, and every read checks the
 * times itself since TTL deletion may lag by hours.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AnswerClaim, IdempotentAnswerStore, RecordedAnswer } from '#ports/idempotent-answers';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { unlessRefused } from './conditions';

const epochS = (at: Date) => Math.ceil(at.getTime() / 1000);
/** A claim that lost to an item gone by the time it is read (released, expired) tries again; twice is plenty. */
const CLAIM_TRIES = 3;

export class DynamoIdempotentAnswers implements IdempotentAnswerStore {
  constructor(private readonly table: DynamoTable) {}

  async claim(accountId: number, keyHash: string, requestHash: string, now: Date, leaseUntil: Date): Promise<AnswerClaim> {
    const key = keys.idempotentAnswer(accountId, keyHash);
    for (let attempt = 1; ; attempt++) {
      const claimed = await unlessRefused(
        this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: { ...key, type: 'idempotent_answer', request_hash: requestHash, lease_until: leaseUntil.getTime(), keep_until: leaseUntil.getTime(), expires_at: epochS(leaseUntil) },
            ConditionExpression: 'attribute_not_exists(pk) OR keep_until < :now',
            ExpressionAttributeValues: { ':now': now.getTime() },
          }),
        ),
      );
      if (claimed) return { kind: 'claimed' };
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

  /** Answers only while the claim is still this request's (refused otherwise: another request took the key over after this one's lease ran out, and its record stands). */
  async record(accountId: number, keyHash: string, requestHash: string, answer: RecordedAnswer, keepUntil: Date): Promise<void> {
    await unlessRefused(
      this.table.client.send(
        new UpdateCommand({
          ...this.heldClaim(accountId, keyHash),
          UpdateExpression: 'SET answer = :answer, keep_until = :keep, expires_at = :ttl REMOVE lease_until',
          ExpressionAttributeValues: { ':answer': answer, ':keep': keepUntil.getTime(), ':ttl': epochS(keepUntil), ':hash': requestHash },
        }),
      ),
    );
  }

  /** Like `record`, gives the key up only while the claim is still this request's. */
  async release(accountId: number, keyHash: string, requestHash: string): Promise<void> {
    await unlessRefused(this.table.client.send(new DeleteCommand({ ...this.heldClaim(accountId, keyHash), ExpressionAttributeValues: { ':hash': requestHash } })));
  }

  /** The key's item, on condition that `requestHash` still holds it unanswered (`:hash` is the caller's to bind). */
  private heldClaim(accountId: number, keyHash: string) {
    return { TableName: this.table.name, Key: keys.idempotentAnswer(accountId, keyHash), ConditionExpression: 'request_hash = :hash AND attribute_not_exists(answer)' };
  }
}
