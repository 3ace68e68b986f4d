/**
 * Direct uploads in the account's partition. A claim is one conditional update (pending, unexpired,
 * of the purpose asked), so of concurrent requests naming one upload exactly one gets it.
 *
 * The form's expiry is kept as `valid_until`; the table's TTL attribute (`expires_at`, epoch seconds)
 * removes the record a week later, so a used id still answers 409 for a while and records do not pile up.
 */
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Upload, UploadPurpose } from '#domain/upload-record';
import type { UploadStore } from '#ports/upload-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { unlessRefused } from './conditions';
import { putNewItem } from './puts';

export class DynamoUploadStore implements UploadStore {
  constructor(private readonly table: DynamoTable) {}

  async create(upload: Upload): Promise<void> {
    await putNewItem(this.table, { ...keys.upload(upload.account_id, upload.id), type: 'upload', ...upload, valid_until: upload.expires_at, expires_at: ttlOf(upload.expires_at) });
  }

  async get(accountId: number, uploadId: string): Promise<Upload | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.upload(accountId, uploadId), ConsistentRead: true }));
    return out.Item ? toUpload(out.Item) : undefined;
  }

  claim(accountId: number, uploadId: string, purpose: UploadPurpose, now: Date): Promise<Upload | undefined> {
    return this.updateStatus(accountId, uploadId, {
      UpdateExpression: 'SET #status = :used, used_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND #status = :pending AND purpose = :purpose AND valid_until > :now',
      ExpressionAttributeValues: { ':used': 'used', ':pending': 'pending', ':purpose': purpose, ':now': now.toISOString() },
      ReturnValues: 'ALL_NEW',
    });
  }

  async release(accountId: number, uploadId: string): Promise<void> {
    // Refused when the record is gone: nothing to give back.
    await this.updateStatus(accountId, uploadId, {
      UpdateExpression: 'SET #status = :pending REMOVE used_at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':pending': 'pending' },
    });
  }

  /** The upload as the update left it when it asked for it back; undefined when the update's condition refused it. */
  private async updateStatus(accountId: number, uploadId: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<Upload | undefined> {
    const out = await unlessRefused(
      this.table.client.send(new UpdateCommand({ TableName: this.table.name, Key: keys.upload(accountId, uploadId), ExpressionAttributeNames: { '#status': 'status' }, ...update })),
    );
    return out?.Attributes ? toUpload(out.Attributes) : undefined;
  }
}

/** Kept past the form's expiry so a reused id reads as used, not unknown. */
const KEPT_AFTER_EXPIRY_S = 7 * 24 * 3600;
const ttlOf = (validUntil: string) => Math.floor(Date.parse(validUntil) / 1000) + KEPT_AFTER_EXPIRY_S;

function toUpload(item: Record<string, unknown>): Upload {
  return {
    id: item.id as string,
    account_id: item.account_id as number,
    purpose: item.purpose as Upload['purpose'],
    content_type: item.content_type as string,
    size_bytes: item.size_bytes as number,
    filename: (item.filename as string | null | undefined) ?? null,
    key: item.key as string,
    status: item.status as Upload['status'],
    created_at: item.created_at as string,
    expires_at: item.valid_until as string,
    ...(item.used_at ? { used_at: item.used_at as string } : {}),
  };
}
