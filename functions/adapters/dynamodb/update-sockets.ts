/**
 * Live updates' records in the table. A ticket is one item taken by a conditional delete, so two
 * connections racing for it cannot both win. A socket is one item whose `topics` string set lists its
 * subscriptions (so $disconnect knows what to remove, and the set's size caps them); each subscription
 * is an item in its record's account partition, so a record's subscribers are one Query. Every item
 * carries the TTL (`expires_at`): a socket outlives API Gateway's 2-hour limit by a margin only.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LIVE_UPDATE_LIMITS, topicKey, type UpdateTopic } from '#domain/live-updates';
import type { UpdateSocket, UpdateSocketStore } from '#ports/update-sockets';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { prefixQuery, queryItems } from './pagination';
import { unlessRefused } from './conditions';
import { putItem, putNewItem } from './puts';

/** A socket's records stay this long past its opening: API Gateway's limit and a margin for a late $disconnect. */
const SOCKET_KEPT_S = LIVE_UPDATE_LIMITS.socketMaxS + 15 * 60;
const epochS = (at: Date) => Math.ceil(at.getTime() / 1000);
const socketTtl = (socket: UpdateSocket) => epochS(new Date(socket.openedAt)) + SOCKET_KEPT_S;

export class DynamoUpdateSocketStore implements UpdateSocketStore {
  constructor(private readonly table: DynamoTable) {}

  async saveTicket(hash: string, ticket: { scopeId: number; expiresAt: Date }): Promise<void> {
    // The TTL is whole seconds, rounded up; the ticket's own expiry is kept to the millisecond it was issued with.
    const Item = { ...keys.updateTicket(hash), type: 'update_ticket', scope_id: ticket.scopeId, expires_at: epochS(ticket.expiresAt), expires_ms: ticket.expiresAt.getTime() };
    await putNewItem(this.table, Item);
  }

  async takeTicket(hash: string, at: Date): Promise<number | undefined> {
    const out = await unlessRefused(
      this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.updateTicket(hash), ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' })),
    );
    const item = out?.Attributes;
    if (!item) return undefined;
    // TTL deletion lags: an expired ticket may still be there, and is refused (and now gone) all the same.
    // A ticket saved before `expires_ms` was kept has only the TTL's whole seconds.
    const expiresMs = typeof item.expires_ms === 'number' ? item.expires_ms : (item.expires_at as number) * 1000;
    if (expiresMs < at.getTime()) return undefined;
    return item.scope_id as number;
  }

  async open(socket: UpdateSocket): Promise<void> {
    const Item = { ...keys.updateSocket(socket.connectionId), type: 'update_socket', scope_id: socket.scopeId, opened_at: socket.openedAt, expires_at: socketTtl(socket) };
    await putItem(this.table, Item);
  }

  async find(connectionId: string): Promise<UpdateSocket | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.updateSocket(connectionId), ConsistentRead: true }));
    const item = out.Item;
    return item ? { connectionId, scopeId: item.scope_id as number, openedAt: item.opened_at as string } : undefined;
  }

  async subscribe(socket: UpdateSocket, topic: UpdateTopic, limit: number): Promise<'subscribed' | 'full'> {
    const key = topicKey(topic);
    const subscribed = await unlessRefused(
      this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.updateSocket(socket.connectionId),
          UpdateExpression: 'ADD topics :topic',
          // Already followed, or room for one more; a socket closed meanwhile is not brought back.
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(topics) OR size(topics) < :limit OR contains(topics, :key))',
          ExpressionAttributeValues: { ':topic': new Set([key]), ':limit': limit, ':key': key },
        }),
      ),
    );
    if (!subscribed) return 'full';
    const Item = { ...keys.updateSubscription(socket.scopeId, key, socket.connectionId), type: 'update_subscription', connection_id: socket.connectionId, expires_at: socketTtl(socket) };
    await putItem(this.table, Item);
    return 'subscribed';
  }

  async unsubscribe(socket: UpdateSocket, topic: UpdateTopic): Promise<void> {
    const key = topicKey(topic);
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.updateSubscription(socket.scopeId, key, socket.connectionId) }));
    await unlessRefused(
      this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.updateSocket(socket.connectionId),
          UpdateExpression: 'DELETE topics :topic',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':topic': new Set([key]) },
        }),
      ),
    );
  }

  async close(connectionId: string): Promise<void> {
    const out = await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.updateSocket(connectionId), ReturnValues: 'ALL_OLD' }));
    const item = out.Attributes;
    if (!item) return;
    const topics = [...((item.topics as Set<string> | undefined) ?? [])];
    await Promise.all(
      topics.map((key) => this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.updateSubscription(item.scope_id as number, key, connectionId) }))),
    );
  }

  async subscribers(scopeId: number, topic: UpdateTopic): Promise<string[]> {
    const query = { ...prefixQuery(this.table, keys.accountPartition(scopeId), keys.updateSubscriptionPrefix(topicKey(topic))), ProjectionExpression: 'connection_id' };
    const ids: string[] = [];
    for await (const item of queryItems(this.table, query)) ids.push(item.connection_id as string);
    return ids;
  }
}
