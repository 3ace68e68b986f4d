import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { Avatar } from '#domain/avatar';
import { AppError } from '#domain/errors';
import { keys } from './keys';
import { nextId } from './ids';
import { allOfPrefix } from './pagination';
import { createOne, deleteFromCollection } from './collection-counter';
import { readCounter } from './collection-state';
import { seedCollection } from './collection-seed';

export const newAvatarId = () => nextId('avatar');

/**
 * Avatars are listed whole, so the plan caps them: the counter that admits a new one moves in the
 * same transaction as it, so concurrent creates never pass the cap (402 `avatars_full`).
 */
export async function putNewAvatar(avatar: Avatar, cap: number): Promise<void> {
  await createOne(
    { accountId: avatar.account_id, collection: 'avatars' },
    avatar.id,
    {
      Put: {
        TableName: config.tableName,
        Item: { ...keys.avatar(avatar.account_id, avatar.id), type: 'avatar', ...avatar },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { limit: cap, refusal: () => avatarsFull(cap) },
  );
}

export function avatarsFull(cap: number): AppError {
  return new AppError(
    'avatars_full',
    `This plan keeps at most ${cap} avatars and all ${cap} are in use; delete one (DELETE /avatars/{id}) or upgrade the plan to add more`,
  );
}

/** The avatars counted against the cap (one read; a set never counted is counted once first). */
export async function countAvatars(accountId: number): Promise<number> {
  const state = await readCounter({ accountId, collection: 'avatars' });
  return state.seeded ? state.count : (await seedCollection({ accountId, collection: 'avatars' })).count;
}

export async function getAvatar(accountId: number, avatarId: number): Promise<Avatar | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.avatar(accountId, avatarId), ConsistentRead: true }),
  );
  return out.Item ? toAvatar(out.Item) : undefined;
}

/** The whole set, newest first: avatars are listed without pagination (API.md §2). */
export async function listAvatars(accountId: number): Promise<Avatar[]> {
  return (await allOfPrefix(keys.accountPartition(accountId), keys.avatarPrefix, { newestFirst: true })).map(toAvatar);
}

/** Returns the deleted record, or undefined when there was none (or a concurrent delete won). */
export async function deleteAvatar(accountId: number, avatarId: number): Promise<Avatar | undefined> {
  const avatar = await getAvatar(accountId, avatarId);
  if (!avatar) return undefined;
  const removed = await deleteFromCollection({ accountId, collection: 'avatars' }, avatarId, {
    Delete: { TableName: config.tableName, Key: keys.avatar(accountId, avatarId), ConditionExpression: 'attribute_exists(pk)' },
  });
  return removed ? avatar : undefined;
}

/**
 * Records a finished (or failed) generation, only while the avatar still exists and is still
 * processing: a deleted avatar is not resurrected, and a late duplicate does not overwrite.
 */
export async function settleAvatar(
  accountId: number,
  avatarId: number,
  outcome: Pick<Avatar, 'status' | 'image_key' | 'width' | 'height' | 'engine' | 'seed' | 'error'> & { rig?: unknown },
  now = new Date(),
): Promise<Avatar | undefined> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.avatar(accountId, avatarId),
        UpdateExpression:
          'SET #status = :status, image_key = :image_key, width = :width, height = :height, engine = :engine, seed = :seed, rig = :rig, #error = :error, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :processing',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':image_key': outcome.image_key,
          ':width': outcome.width,
          ':height': outcome.height,
          ':engine': outcome.engine,
          ':seed': outcome.seed,
          ':rig': outcome.rig ?? null,
          ':error': outcome.error,
          ':now': now.toISOString(),
          ':processing': 'processing',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toAvatar(out.Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

function toAvatar(item: Record<string, unknown>): Avatar {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    source: item.source as Avatar['source'],
    prompt: (item.prompt as string | null) ?? null,
    status: item.status as Avatar['status'],
    image_key: (item.image_key as string | null) ?? null,
    width: (item.width as number | null) ?? null,
    height: (item.height as number | null) ?? null,
    engine: (item.engine as string | null) ?? null,
    seed: (item.seed as number | null) ?? null,
    rig: item.rig ?? undefined,
    error: (item.error as Avatar['error']) ?? null,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
