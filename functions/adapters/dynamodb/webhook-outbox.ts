/**
 * The outbox: a webhook event is written in the same transaction as the state change that raised it,
 * so an event exists exactly when its change does. Pending events sit in a sparse sharded index (gsi2,
 * shards.ts) until the dispatcher fans them out (`putEvent` and `pendingEvents` are the webhook store's outbox part).
 */
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { SentEvent, WebhookEvent } from '#domain/webhooks';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { prefixQuery, queryItems } from './pagination';
import { oldestFirst, readSet, shardedPk } from './shards';
import { transact, type TransactItem } from './transactions';

/** An event is kept a week after it was raised: long enough to read it back, then the TTL removes it. */
const EVENT_KEPT_S = 7 * 24 * 3600;

export const outboxIndexKeys = (event: Pick<WebhookEvent, 'id' | 'created_at'>) => ({
  gsi2pk: shardedPk(keys.webhookOutboxIndex, event.id),
  gsi2sk: `${event.created_at}#${event.id}`,
});

export function outboxPut(table: DynamoTable, event: WebhookEvent): TransactItem {
  return {
    Put: {
      TableName: table.name,
      Item: {
        ...keys.webhookEvent(event.account_id, event.id),
        ...outboxIndexKeys(event),
        ...event,
        // `type` names the item's kind in this table, so the event's type is kept as `event_type`.
        type: 'webhook_event',
        event_type: event.type,
        expires_at: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_KEPT_S,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

type ConditionalUpdate = Omit<UpdateCommandInput, 'ReturnValues'>;

/**
 * Applies a conditional update, with `event` written in the same transaction when there is one. The
 * item as it is after the update, or undefined when the update's condition refused it.
 */
export async function updateWithEvent(table: DynamoTable, update: ConditionalUpdate, event?: WebhookEvent): Promise<Record<string, unknown> | undefined> {
  if (!event) {
    try {
      const out = await table.client.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return out.Attributes;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
  const outcome = await transact([{ Update: update as NonNullable<TransactItem['Update']> }, outboxPut(table, event)], table.client);
  if (!outcome.written) {
    if (outcome.failed.includes(0)) return undefined;
    throw new Error(`webhook event ${event.id} was written already`);
  }
  const out = await table.client.send(new GetCommand({ TableName: update.TableName, Key: update.Key, ConsistentRead: true }));
  return out.Item;
}

type WriteInput = { Item?: Record<string, unknown>; TransactItems?: { Put?: { Item?: Record<string, unknown> } }[] };

/** Whether a write request puts an outbox event (its item joins the outbox index), native or marshalled. */
function putsOutboxEvent(input: WriteInput): boolean {
  const items = input.TransactItems ? input.TransactItems.map((t) => t.Put?.Item) : [input.Item];
  return items.some((item) => {
    const pk = item?.gsi2pk as string | { S?: string } | undefined;
    return (typeof pk === 'string' ? pk : pk?.S)?.startsWith(`${keys.webhookOutboxIndex}#`) ?? false;
  });
}

/**
 * Calls `onInsert` after every successful write that put an outbox event: on the local stack, the
 * stand-in for the table stream filtered to outbox inserts that starts the dispatcher on AWS.
 */
export function watchOutboxInserts(table: DynamoTable, onInsert: () => void): void {
  table.client.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      if (putsOutboxEvent(args.input as WriteInput)) onInsert();
      return out;
    },
    { step: 'initialize', name: 'watchOutboxInserts' },
  );
}

/** The webhook store's outbox: an event written on its own, the pending events in raising order, and the account's sent events. */
export class DynamoWebhookOutbox {
  constructor(private readonly table: DynamoTable) {}

  async putEvent(event: WebhookEvent): Promise<void> {
    await transact([outboxPut(this.table, event)], this.table.client);
  }

  /** The oldest `limit` across the shards: each shard's oldest `limit`, merged. */
  async pendingEvents(limit: number): Promise<WebhookEvent[]> {
    const { items } = await readSet(this.table, keys.webhookOutboxIndex, {}, { perPartition: limit });
    return oldestFirst(items, limit).map(({ item }) => toEvent(item));
  }

  async sentEvents(accountId: number, query: { after?: string; limit: number }): Promise<SentEvent[]> {
    return query.after === undefined ? newestSent(this.table, accountId, query.limit) : sentAfter(this.table, accountId, query.after, query.limit);
  }
}

/** Pings go to one endpoint and are not the account's events; events fanned out before bodies were kept have none. */
const listed = (item: Record<string, unknown>) => !item.endpoint_id && typeof item.payload === 'string';
const sentEvent = (item: Record<string, unknown>): SentEvent => ({ id: item.id as string, payload: item.payload as string });
const waiting = (item: Record<string, unknown>) => !item.endpoint_id && item.fanned_out_at === undefined;

/** Oldest first after `after`, stopping before the first event still in the outbox. */
async function sentAfter(table: DynamoTable, accountId: number, after: string, limit: number): Promise<SentEvent[]> {
  const found: SentEvent[] = [];
  const query = {
    TableName: table.name,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':from': `${keys.webhookEventPrefix}${after}`, ':to': `${keys.webhookEventPrefix}~` },
    ConsistentRead: true,
    Limit: limit + 1,
  };
  for await (const item of queryItems(table, query)) {
    if (item.id === after) continue;
    if (waiting(item)) return found;
    if (listed(item)) found.push(sentEvent(item));
    if (found.length === limit) return found;
  }
  return found;
}

/** The newest `limit` sent events, oldest first (one still in the outbox is left out). */
async function newestSent(table: DynamoTable, accountId: number, limit: number): Promise<SentEvent[]> {
  const found: SentEvent[] = [];
  const query = { ...prefixQuery(table, keys.accountPartition(accountId), keys.webhookEventPrefix), ScanIndexForward: false, ConsistentRead: true, Limit: limit + 1 };
  for await (const item of queryItems(table, query)) {
    if (listed(item) && !waiting(item)) found.push(sentEvent(item));
    if (found.length === limit) break;
  }
  return found.reverse();
}

function toEvent(item: Record<string, unknown>): WebhookEvent {
  return {
    id: item.id as string,
    account_id: item.account_id as number,
    type: item.event_type as WebhookEvent['type'],
    subject: item.subject as WebhookEvent['subject'],
    order_key: item.order_key as string,
    ...(item.endpoint_id ? { endpoint_id: item.endpoint_id as string } : {}),
    created_at: item.created_at as string,
  };
}
