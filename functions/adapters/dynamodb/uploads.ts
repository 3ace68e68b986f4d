/**
 * Direct uploads in the account's partition. A claim is one conditional update (pending, unexpired,
 * of the purpose asked), so of concurrent requests naming one upload exactly one gets it.
 *
 * The form's expiry is kept as `valid_until`; the table's TTL attribute (`expires_at`, epoch seconds)
 * removes the record a week later, so a used id still answers 409 for a while and records do not pile up.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Upload, UploadPurpose } from '#domain/upload-record';
import type { UploadStore } from '#ports/upload-store';
import type { DynamoTable } from './table';
import { keys } from './keys';

export class DynamoUploadStore implements UploadStore {
  constructor(private readonly table: DynamoTable) {}

  async create(upload: Upload): Promise<void> {
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.upload(upload.account_id, upload.id), type: 'upload', ...upload, valid_until: upload.expires_at, expires_at: ttlOf(upload.expires_at) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(accountId: number, uploadId: string): Promise<Upload | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.upload(accountId, uploadId), ConsistentRead: true }));
    return out.Item ? toUpload(out.Item) : undefined;
  }

  async claim(accountId: number, uploadId: string, purpose: UploadPurpose, now: Date): Promise<Upload | undefined> {
    try {
      const out = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.upload(accountId, uploadId),
          UpdateExpression: 'SET #status = :used, used_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND #status = :pending AND purpose = :purpose AND valid_until > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':used': 'used', ':pending': 'pending', ':purpose': purpose, ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toUpload(out.Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async release(accountId: number, uploadId: string): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.upload(accountId, uploadId),
          UpdateExpression: 'SET #status = :pending REMOVE used_at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending' },
        }),
      );
    } catch (error) {
      // Nothing to give back: the record is gone.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
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
