import type { Avatar } from '#domain/avatar';
import { avatarsFull, type AvatarOutcome, type AvatarStore } from '#ports/avatar-store';
import type { DynamoTable } from './table';
import { updateWithEvent } from './webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';
import { keys } from './keys';
import { allocateId } from './ids';
import { CappedItems } from './counted-items';
import { processingBefore, processingIndex } from './processing-index';

/** An avatar created to be generated is in the processing index until it settles. */
const processingIndexOf = (avatar: Avatar) =>
  avatar.status === 'processing' ? processingIndex(keys.processingAvatarsIndex, avatar.created_at, avatar.account_id, avatar.id) : {};

/** Avatars are listed whole, so the plan caps them (CappedItems). */
export class DynamoAvatarStore extends CappedItems<Avatar> implements AvatarStore {
  constructor(table: DynamoTable) {
    super(table, { collection: 'avatars', type: 'avatar', fromItem: toAvatar, indexOf: processingIndexOf }, avatarsFull);
  }

  newAvatarId(): Promise<number> {
    return allocateId(this.table, 'avatar');
  }

  async settle(accountId: number, avatarId: number, outcome: AvatarOutcome, now: Date, event?: WebhookEvent): Promise<Avatar | undefined> {
    const item = await updateWithEvent(
      this.table,
      {
        TableName: this.table.name,
        Key: keys.avatar(accountId, avatarId),
        UpdateExpression:
          'SET #status = :status, image_key = :image_key, width = :width, height = :height, engine = :engine, seed = :seed, rig = :rig, #error = :error, updated_at = :now REMOVE gsi1pk, gsi1sk',
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
      },
      event,
    );
    return item ? toAvatar(item) : undefined;
  }

  async processingBefore(cutoff: Date): Promise<{ accountId: number; avatarId: number }[]> {
    return (await processingBefore(this.table, keys.processingAvatarsIndex, cutoff)).map(({ accountId, id }) => ({ accountId, avatarId: id }));
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
