/**
 * Sessions, one item per session under its token's hash. The table's TTL attribute (`expires_at`,
 * epoch seconds) is the session's end, so sessions nobody uses again vanish; the record's own end is
 * checked on every read, since TTL deletion may lag by hours.
 */
import { DeleteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '#domain/session';
import type { SessionStore } from '#ports/session-store';
import type { DynamoTable } from './table';
import { GSI1, keys } from './keys';
import { unlessRefused } from './conditions';
import { putNewItem } from './puts';

const ttlOf = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

export class DynamoSessionStore implements SessionStore {
  constructor(private readonly table: DynamoTable) {}

  async create(hash: string, record: SessionRecord): Promise<void> {
    await putNewItem(this.table, {
      ...keys.session(hash),
      gsi1pk: keys.sessionsOfUserIndex(record.user_id),
      gsi1sk: record.created_at,
      type: 'session',
      token_hash: hash,
      ...record,
      expires_at: ttlOf(record.expires_at),
    });
  }

  async findByHash(hash: string): Promise<SessionRecord | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.session(hash), ConsistentRead: true }));
    return out.Item ? toRecord(out.Item) : undefined;
  }

  async touch(hash: string, record: SessionRecord): Promise<void> {
    // Refused when revoked between the read and this write: it stays revoked.
    await unlessRefused(
      this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.session(hash),
          UpdateExpression: 'SET last_seen_at = :seen, expires_at = :ttl',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':seen': record.last_seen_at, ':ttl': ttlOf(record.expires_at) },
        }),
      ),
    );
  }

  async revoke(hash: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.session(hash) }));
  }

  async revokeOthersOfUser(userId: number, keep: string): Promise<number> {
    const others: string[] = [];
    const query = {
      TableName: this.table.name,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :user',
      ExpressionAttributeValues: { ':user': keys.sessionsOfUserIndex(userId) },
    };
    for await (const page of paginateQuery({ client: this.table.client }, query)) {
      for (const item of page.Items ?? []) if (item.token_hash !== keep) others.push(item.token_hash as string);
    }
    await Promise.all(others.map((hash) => this.revoke(hash)));
    return others.length;
  }
}

function toRecord(item: Record<string, unknown>): SessionRecord {
  return {
    id: item.id as string,
    account_id: item.account_id as number,
    user_id: item.user_id as number,
    csrf_token: item.csrf_token as string,
    created_at: item.created_at as string,
    last_seen_at: item.last_seen_at as string,
    expires_at: new Date((item.expires_at as number) * 1000).toISOString(),
    absolute_expires_at: item.absolute_expires_at as string,
  };
}
