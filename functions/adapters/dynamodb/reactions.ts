/**
 * The saved-reaction library. A save writes three items in one transaction: the reaction, a marker
 * per job (so a job is saved once, however many requests race), and the account's library counter,
 * whose condition is the cap. Counting items instead would let two concurrent saves both see room.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedReaction } from '#domain/reaction';
import { libraryFull, type ReactionStore, type SaveOutcome } from '#ports/reaction-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { transact, type TransactItem } from './transactions';
import { allocateId } from './ids';
import { queryAll } from './pagination';

/** Saves that find the job's marker gone again (saved and deleted meanwhile) before giving up; conflicts are transact's to retry. */
const MAX_RESAVES = 6;

export class DynamoReactionStore implements ReactionStore {
  constructor(private readonly table: DynamoTable) {}

  newReactionId(): Promise<number> {
    return allocateId(this.table, 'reaction');
  }

  async saveFromJob(reaction: SavedReaction, cap: number): Promise<SaveOutcome> {
    const accountId = reaction.account_id;
    const items: TransactItem[] = [
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
    ];
    for (let attempt = 1; ; attempt++) {
      const outcome = await transact(items, this.table.client);
      if (outcome.written) return { created: true };
      // The job's marker wins over the cap: a repeat save of a saved job is answered, never refused.
      if (outcome.failed.includes(1)) {
        const existingId = await this.idForJob(accountId, reaction.job_id);
        // Our own earlier attempt may have landed before its answer was lost.
        if (existingId === reaction.id) return { created: true };
        if (existingId !== undefined) return { created: false, existingId };
        // Deleted between our write and this read: the job is free again, so try once more.
        if (attempt >= MAX_RESAVES) throw new Error(`job ${reaction.job_id} of account ${accountId} kept being saved and deleted; reaction ${reaction.id} not saved`);
      } else if (outcome.failed.includes(2)) {
        throw libraryFull(cap);
      } else {
        throw new Error(`reaction ${reaction.id} of account ${accountId} already exists`);
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
    const outcome = await transact(
      [
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
      this.table.client,
    );
    if (outcome.written) return reaction;
    if (outcome.failed.includes(0)) return undefined;
    throw new Error(`the job marker of reaction ${reactionId} of account ${accountId} names another reaction`);
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
