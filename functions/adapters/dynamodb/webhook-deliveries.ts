/**
 * Webhook deliveries in the account's partition: fanned out from an outbox event, claimed when due,
 * and settled attempt by attempt. Due deliveries sit in a sparse gsi1 index; a lane item per pending
 * delivery orders an endpoint's deliveries of one order key (a job's events), and only a lane's
 * oldest delivery is put in the due index.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AttemptOutcome, WebhookDelivery, WebhookEvent } from '#domain/webhooks';
import type { DeliveryPage, DeliveryRef, WebhookStore } from '#ports/webhook-store';
import type { DynamoTable } from './table';
import { GSI1, keys, webhookLanePrefix } from './keys';
import { transact, type TransactItem } from './transactions';
import { outboxIndexKeys, updateWithEvent } from './webhook-outbox';

/** Deliveries stay readable for 30 days after they were made. */
const DELIVERY_KEPT_S = 30 * 24 * 3600;

const dueIndexKeys = (deliveryId: string, dueAt: string) => ({ gsi1pk: keys.webhookDueIndex, gsi1sk: `${dueAt}#${deliveryId}` });

type Deliveries = Pick<WebhookStore, 'fanOut' | 'dueDeliveries' | 'getDelivery' | 'listDeliveries' | 'claim' | 'recordAttempt' | 'requeue'>;

export class DynamoWebhookDeliveries implements Deliveries {
  constructor(private readonly table: DynamoTable) {}

  async fanOut(event: WebhookEvent, deliveries: WebhookDelivery[], now: Date): Promise<boolean> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.webhookEvent(event.account_id, event.id),
          UpdateExpression: 'SET fanned_out_at = :now REMOVE gsi1pk, gsi1sk',
          ConditionExpression: 'gsi1pk = :outbox',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':outbox': outboxIndexKeys(event).gsi1pk },
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

  async dueDeliveries(now: Date, limit: number): Promise<DeliveryRef[]> {
    const out = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :due AND gsi1sk <= :now',
        ExpressionAttributeValues: { ':due': keys.webhookDueIndex, ':now': `${now.toISOString()}#~` },
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map((item) => ({ accountId: item.account_id as number, endpointId: item.endpoint_id as string, deliveryId: item.id as string }));
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
      UpdateExpression: 'SET next_attempt_at = :lease, gsi1pk = :due, gsi1sk = :sk',
      ConditionExpression: '#status = :pending AND next_attempt_at <= :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':lease': lease, ':pending': 'pending', ':now': now.toISOString(), ...dueValues(ref.deliveryId, lease) },
    });
    return item ? toDelivery(item) : undefined;
  }

  async recordAttempt(delivery: WebhookDelivery, outcome: AttemptOutcome['delivery'], now: Date): Promise<boolean> {
    const due = outcome.next_attempt_at;
    const update: TransactItem = {
      Update: {
        TableName: this.table.name,
        Key: keys.webhookDelivery(delivery.account_id, delivery.endpoint_id, delivery.id),
        UpdateExpression:
          'SET attempt = :attempt, #status = :status, response_status = :response, latency_ms = :latency, last_error = :error, next_attempt_at = :next, updated_at = :now' +
          (due ? ', gsi1pk = :due, gsi1sk = :sk' : ' REMOVE gsi1pk, gsi1sk'),
        ConditionExpression: 'attempt = :before AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':attempt': outcome.attempt,
          ':status': outcome.status,
          ':response': outcome.response_status,
          ':latency': outcome.latency_ms,
          ':error': outcome.last_error,
          ':next': due,
          ':now': now.toISOString(),
          ':before': delivery.attempt,
          ':pending': 'pending',
          ...(due ? dueValues(delivery.id, due) : {}),
        },
      },
    };
    if (outcome.status === 'pending') return (await transact([update], this.table.client)).written;
    const laneKey = keys.webhookLane(delivery.account_id, delivery.endpoint_id, delivery.order_key, delivery.id);
    const written = (await transact([update, { Delete: { TableName: this.table.name, Key: laneKey } }], this.table.client)).written;
    if (written) await startNextInLane(this.table, delivery, now);
    return written;
  }

  async requeue(accountId: number, endpointId: string, deliveryId: string, now: Date): Promise<WebhookDelivery | undefined> {
    const at = now.toISOString();
    const item = await updateWithEvent(this.table, {
      TableName: this.table.name,
      Key: keys.webhookDelivery(accountId, endpointId, deliveryId),
      UpdateExpression: 'SET #status = :pending, next_attempt_at = :now, updated_at = :now, gsi1pk = :due, gsi1sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':now': at, ...dueValues(deliveryId, at) },
    });
    return item ? toDelivery(item) : undefined;
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
    UpdateExpression: 'SET next_attempt_at = :now, gsi1pk = :due, gsi1sk = :sk',
    ConditionExpression: '#status = :pending AND next_attempt_at = :null',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending', ':now': at, ':null': null, ...dueValues(next, at) },
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
  return { ':due': index.gsi1pk, ':sk': index.gsi1sk };
};
const ttlOf = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + DELIVERY_KEPT_S;

function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  return {
    id: item.id as string,
    account_id: item.account_id as number,
    endpoint_id: item.endpoint_id as string,
    event_id: item.event_id as string,
    type: item.event_type as WebhookDelivery['type'],
    order_key: item.order_key as string,
    payload: item.payload as string,
    attempt: item.attempt as number,
    status: item.status as WebhookDelivery['status'],
    response_status: (item.response_status as number | null | undefined) ?? null,
    latency_ms: (item.latency_ms as number | null | undefined) ?? null,
    last_error: (item.last_error as string | null | undefined) ?? null,
    next_attempt_at: (item.next_attempt_at as string | null | undefined) ?? null,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
