/**
 * Webhook deliveries in the account's partition: fanned out from an outbox event, claimed when due,
 * and settled attempt by attempt, each write conditional on the revision it was computed from. Due
 * deliveries sit in a sparse sharded index (gsi2, shards.ts); a lane item per pending delivery orders an endpoint's
 * deliveries of one order key (a job's events), and only a lane's oldest delivery is put in the due
 * index.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { DeliveryChange } from '#domain/webhook-attempts';
import type { DeliveryAttempt, WebhookDelivery, WebhookEvent } from '#domain/webhooks';
import type { DeliveryPage, DeliveryRef, WebhookStore } from '#ports/webhook-store';
import type { DynamoTable } from './table';
import { keys, webhookLanePrefix } from './keys';
import { oldestFirst, readSet, shardedPk } from './shards';
import { transact, type TransactItem } from './transactions';
import { outboxIndexKeys, updateWithEvent } from './webhook-outbox';

/** Deliveries stay readable for 30 days after they were made. */
const DELIVERY_KEPT_S = 30 * 24 * 3600;

const dueIndexKeys = (deliveryId: string, dueAt: string) => ({ gsi2pk: shardedPk(keys.webhookDueIndex, deliveryId), gsi2sk: `${dueAt}#${deliveryId}` });
/** A delivery written before the due set was sharded leaves gsi1's partition on its next write. */
const LEAVE_LEGACY = 'gsi1pk, gsi1sk';

type Deliveries = Pick<WebhookStore, 'fanOut' | 'dueDeliveries' | 'getDelivery' | 'listDeliveries' | 'claim' | 'recordAttempt'>;

export class DynamoWebhookDeliveries implements Deliveries {
  constructor(private readonly table: DynamoTable) {}

  async fanOut(event: WebhookEvent, payload: string, deliveries: WebhookDelivery[], now: Date): Promise<boolean> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.webhookEvent(event.account_id, event.id),
          UpdateExpression: 'SET fanned_out_at = :now, payload = :payload REMOVE gsi2pk, gsi2sk, gsi1pk, gsi1sk',
          // Still in the outbox: in its shard, or in the one partition of events written before the shards.
          ConditionExpression: 'gsi2pk = :outbox OR gsi1pk = :legacy',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':payload': payload, ':outbox': outboxIndexKeys(event).gsi2pk, ':legacy': keys.webhookOutboxIndex },
        },
      },
    ];
    for (const delivery of deliveries) {
      // A lane with a pending delivery in it makes this one wait for its turn.
      const waiting = await laneHead(this.table, delivery.account_id, delivery.endpoint_id, delivery.order_key);
      const due = waiting ? null : now.toISOString();
      items.push(
        { Put: { TableName: this.table.name, Item: deliveryItem({ ...delivery, next_attempt_at: due }), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.webhookLane(delivery.account_id, delivery.endpoint_id, delivery.order_key, delivery.id), type: 'webhook_lane', expires_at: ttlOf(delivery.created_at) },
          },
        },
      );
    }
    const outcome = await transact(items, this.table.client);
    return outcome.written;
  }

  /** The `limit` due longest across the shards: each shard's first `limit`, merged. */
  async dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]> {
    const { items } = await readSet(this.table, keys.webhookDueIndex, { upTo: `${now.toISOString()}#~` }, { perPartition: limit });
    return oldestFirst(items, limit).map(({ item }) => ({ accountId: item.account_id as number, endpointId: item.endpoint_id as string, deliveryId: item.id as string }));
  }

  async getDelivery(accountId: number, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const out = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.webhookDelivery(accountId, endpointId, deliveryId), ConsistentRead: true }),
    );
    return out.Item ? toDelivery(out.Item) : undefined;
  }

  async listDeliveries(accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage> {
    return pageOfDeliveries(this.table, accountId, endpointId, page, perPage);
  }

  async claim(ref: DeliveryRef, now: Date, leaseUntil: Date): Promise<WebhookDelivery | undefined> {
    const lease = leaseUntil.toISOString();
    const item = await updateWithEvent(this.table, {
      TableName: this.table.name,
      Key: keys.webhookDelivery(ref.accountId, ref.endpointId, ref.deliveryId),
      UpdateExpression: `SET next_attempt_at = :lease, claimed_until = :lease, gsi2pk = :due, gsi2sk = :sk ADD revision :one REMOVE ${LEAVE_LEGACY}`,
      ConditionExpression: '#status = :pending AND next_attempt_at <= :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':lease': lease, ':pending': 'pending', ':now': now.toISOString(), ':one': 1, ...dueValues(ref.deliveryId, lease) },
    });
    return item ? toDelivery(item) : undefined;
  }

  async recordAttempt(read: WebhookDelivery, change: DeliveryChange, now: Date): Promise<boolean> {
    const due = change.status === 'pending' ? change.next_attempt_at : null;
    const update: TransactItem = {
      Update: {
        TableName: this.table.name,
        Key: keys.webhookDelivery(read.account_id, read.endpoint_id, read.id),
        UpdateExpression:
          'SET attempt = :attempt, automatic_attempts = :automatic, manual_attempts = :manual, attempts = :attempts, #status = :status, ' +
          'response_status = :response, latency_ms = :latency, last_error = :error, next_attempt_at = :next, claimed_until = :claimed, ' +
          'updated_at = :now, revision = :revision' +
          (due ? `, gsi2pk = :due, gsi2sk = :sk REMOVE ${LEAVE_LEGACY}` : ` REMOVE gsi2pk, gsi2sk, ${LEAVE_LEGACY}`),
        // Items written before revisions were kept have none: they read as revision 0.
        ConditionExpression: read.revision === 0 ? 'attribute_exists(pk) AND (attribute_not_exists(revision) OR revision = :read)' : 'revision = :read',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':attempt': change.attempt,
          ':automatic': change.automatic_attempts,
          ':manual': change.manual_attempts,
          ':attempts': change.attempts,
          ':status': change.status,
          ':response': change.response_status,
          ':latency': change.latency_ms,
          ':error': change.last_error,
          ':next': change.next_attempt_at,
          ':claimed': change.claimed_until,
          ':now': now.toISOString(),
          ':revision': read.revision + 1,
          ':read': read.revision,
          ...(due ? dueValues(read.id, due) : {}),
        },
      },
    };
    const leavesLane = read.status === 'pending' && change.status !== 'pending';
    if (!leavesLane) return (await transact([update], this.table.client)).written;
    const laneKey = keys.webhookLane(read.account_id, read.endpoint_id, read.order_key, read.id);
    const written = (await transact([update, { Delete: { TableName: this.table.name, Key: laneKey } }], this.table.client)).written;
    if (written) await startNextInLane(this.table, read, now);
    return written;
  }
}

/** The oldest pending delivery id of a lane, if any. */
async function laneHead(table: DynamoTable, accountId: number, endpointId: string, orderKey: string): Promise<string | undefined> {
  const prefix = webhookLanePrefix(endpointId, orderKey);
  const out = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':prefix': prefix },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const sk = out.Items?.[0]?.sk as string | undefined;
  return sk?.slice(prefix.length);
}

/** The lane's next delivery, waiting for this one, becomes due now. */
async function startNextInLane(table: DynamoTable, settled: WebhookDelivery, now: Date): Promise<void> {
  const next = await laneHead(table, settled.account_id, settled.endpoint_id, settled.order_key);
  if (!next) return;
  const at = now.toISOString();
  await updateWithEvent(table, {
    TableName: table.name,
    Key: keys.webhookDelivery(settled.account_id, settled.endpoint_id, next),
    // A new revision, so a manual retry's outcome computed while it waited cannot set it waiting again.
    UpdateExpression: `SET next_attempt_at = :now, gsi2pk = :due, gsi2sk = :sk ADD revision :one REMOVE ${LEAVE_LEGACY}`,
    ConditionExpression: '#status = :pending AND next_attempt_at = :null',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending', ':now': at, ':null': null, ':one': 1, ...dueValues(next, at) },
  });
}

/** An endpoint's deliveries, newest first: the total counted, then the page read. */
async function pageOfDeliveries(table: DynamoTable, accountId: number, endpointId: string, page: number, perPage: number): Promise<DeliveryPage> {
  const query = {
    TableName: table.name,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':prefix': keys.webhookDeliveryPrefix(endpointId) },
  };
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const counted = await table.client.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }));
    total += counted.Count ?? 0;
    start = counted.LastEvaluatedKey;
  } while (start);
  // Deliveries expire after 30 days, so reading past the earlier pages stays bounded.
  const wanted = page * perPage;
  const items: Record<string, unknown>[] = [];
  do {
    const out: QueryCommandOutput = await table.client.send(new QueryCommand({ ...query, ScanIndexForward: false, Limit: wanted - items.length, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return { items: items.slice((page - 1) * perPage, wanted).map(toDelivery), total };
}

function deliveryItem(delivery: WebhookDelivery): Record<string, unknown> {
  return {
    ...keys.webhookDelivery(delivery.account_id, delivery.endpoint_id, delivery.id),
    ...delivery,
    type: 'webhook_delivery',
    event_type: delivery.type,
    ...(delivery.next_attempt_at ? dueIndexKeys(delivery.id, delivery.next_attempt_at) : {}),
    expires_at: ttlOf(delivery.created_at),
  };
}

const dueValues = (deliveryId: string, dueAt: string) => {
  const index = dueIndexKeys(deliveryId, dueAt);
  return { ':due': index.gsi2pk, ':sk': index.gsi2sk };
};
const ttlOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + DELIVERY_KEPT_S;

/** A delivery as read back; one written before attempts were logged reads as automatic attempts with no log. */
function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  const attempt = item.attempt as number;
  return {
    id: item.id as string,
    account_id: item.account_id as number,
    endpoint_id: item.endpoint_id as string,
    event_id: item.event_id as string,
    type: item.event_type as WebhookDelivery['type'],
    order_key: item.order_key as string,
    payload: item.payload as string,
    attempt,
    automatic_attempts: (item.automatic_attempts as number | undefined) ?? attempt,
    manual_attempts: (item.manual_attempts as number | undefined) ?? 0,
    attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
    status: item.status as WebhookDelivery['status'],
    response_status: (item.response_status as number | null | undefined) ?? null,
    latency_ms: (item.latency_ms as number | null | undefined) ?? null,
    last_error: (item.last_error as string | null | undefined) ?? null,
    next_attempt_at: (item.next_attempt_at as string | null | undefined) ?? null,
    claimed_until: (item.claimed_until as string | null | undefined) ?? null,
    revision: (item.revision as number | undefined) ?? 0,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
