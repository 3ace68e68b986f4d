/**
 * The saved-reaction library. A save writes three items in one transaction: the reaction, a marker
 * per job (so a job is saved once, however many requests race), and the account's library counter,
 * whose condition is the cap. Counting items instead would let two concurrent saves both see room.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedReaction } from '#domain/reaction';
import { libraryFull, type ReactionStore, type SaveOutcome } from '#ports/reaction-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { cancellationCodes } from './transactions';
import { allocateId } from './ids';
import { queryAll } from './pagination';

/** Transactions touching one counter item conflict under load; a few quick retries settle them. */
const MAX_ATTEMPTS = 6;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 10 * 2 ** attempt + Math.random() * 20));

export class DynamoReactionStore implements ReactionStore {
  constructor(private readonly table: DynamoTable) {}

  newReactionId(): Promise<number> {
    return allocateId(this.table, 'reaction');
  }

  async saveFromJob(reaction: SavedReaction, cap: number): Promise<SaveOutcome> {
    const accountId = reaction.account_id;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.table.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table.name,
                  Item: { ...keys.reaction(accountId, reaction.id), type: 'reaction', ...reaction },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: this.table.name,
                  Item: {
                    ...keys.reactionOfJob(accountId, reaction.job_id),
                    type: 'reaction_of_job',
                    job_id: reaction.job_id,
                    reaction_id: reaction.id,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Update: {
                  TableName: this.table.name,
                  Key: keys.libraryCounter(accountId),
                  UpdateExpression: 'ADD #count :one SET #type = :type',
                  ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
                  ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
                  ExpressionAttributeValues: { ':one': 1, ':cap': cap, ':type': 'library_counter' },
                },
              },
            ],
          }),
        );
        return { created: true };
      } catch (error) {
        const reasons = cancellationCodes(error);
        if (!reasons) throw error;
        // The job's marker wins over the cap: a repeat save of a saved job is answered, never refused.
        if (reasons[1] === 'ConditionalCheckFailed') {
          const existingId = await this.idForJob(accountId, reaction.job_id);
          // Our own earlier attempt may have landed before its answer was lost.
          if (existingId === reaction.id) return { created: true };
          if (existingId !== undefined) return { created: false, existingId };
          // Deleted between our write and this read: the job is free again, so try once more.
        } else if (reasons[2] === 'ConditionalCheckFailed') {
          throw libraryFull(cap);
        } else if (!reasons.includes('TransactionConflict')) {
          throw error;
        }
        if (attempt + 1 >= MAX_ATTEMPTS) throw error;
        await pause(attempt);
      }
    }
  }

  async get(accountId: number, reactionId: number): Promise<SavedReaction | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.reaction(accountId, reactionId), ConsistentRead: true }),
    );
    return out.Item ? toReaction(out.Item) : undefined;
  }

  async list(accountId: number): Promise<SavedReaction[]> {
    return (await queryAll(this.table, keys.accountPartition(accountId), keys.reactionPrefix, { newestFirst: true })).map(toReaction);
  }

  async idForJob(accountId: number, jobId: number): Promise<number | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.reactionOfJob(accountId, jobId), ConsistentRead: true }),
    );
    return out.Item ? (out.Item.reaction_id as number) : undefined;
  }

  /**
   * Removes the reaction, its job marker (the job may be saved again) and its slot in the counter,
   * together. Returns the deleted record, or undefined when there was none (or a concurrent delete won).
   */
  async delete(accountId: number, reactionId: number): Promise<SavedReaction | undefined> {
    const reaction = await this.get(accountId, reactionId);
    if (!reaction) return undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.table.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: this.table.name,
                  Key: keys.reaction(accountId, reactionId),
                  ConditionExpression: 'attribute_exists(pk)',
                },
              },
              {
                Delete: {
                  TableName: this.table.name,
                  Key: keys.reactionOfJob(accountId, reaction.job_id),
                  ConditionExpression: 'attribute_not_exists(pk) OR reaction_id = :id',
                  ExpressionAttributeValues: { ':id': reactionId },
                },
              },
              {
                Update: {
                  TableName: this.table.name,
                  Key: keys.libraryCounter(accountId),
                  UpdateExpression: 'ADD #count :minus',
                  ExpressionAttributeNames: { '#count': 'count' },
                  ExpressionAttributeValues: { ':minus': -1 },
                },
              },
            ],
          }),
        );
        return reaction;
      } catch (error) {
        const reasons = cancellationCodes(error);
        if (reasons?.[0] === 'ConditionalCheckFailed') return undefined;
        if (!reasons?.includes('TransactionConflict') || attempt + 1 >= MAX_ATTEMPTS) throw error;
        await pause(attempt);
      }
    }
  }
}

function toReaction(item: Record<string, unknown>): SavedReaction {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    job_id: item.job_id as number,
    method: item.method as SavedReaction['method'],
    avatar_id: (item.avatar_id as number | null | undefined) ?? null,
    prompt: (item.prompt as string | null | undefined) ?? null,
    clip_key: item.clip_key as string,
    duration_s: item.duration_s as number,
    emotion: (item.emotion as string | null | undefined) ?? null,
    // Reactions saved before face boxes have none: read back as they were written.
    ...(item.face_box ? { face_box: item.face_box as SavedReaction['face_box'] } : {}),
    created_at: item.created_at as string,
  };
}
