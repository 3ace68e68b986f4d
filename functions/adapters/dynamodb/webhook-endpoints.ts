/**
 * Webhook endpoints in the account's partition. The per-account cap is a count item moved in the
 * same transaction as each create and delete, so concurrent creates cannot pass it.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEndpoint } from '#domain/webhooks';
import type { EndpointChanges, WebhookStore } from '#ports/webhook-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { transact } from './transactions';
import { updateWithEvent } from './webhook-outbox';

const ENDPOINT_ATTRIBUTES = [
  'id',
  'account_id',
  'url',
  'events',
  'description',
  'enabled',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
  'failing_since',
  'disabled_reason',
  'created_at',
  'updated_at',
] as const;

type Endpoints = Pick<WebhookStore, 'createEndpoint' | 'listEndpoints' | 'getEndpoint' | 'updateEndpoint' | 'deleteEndpoint'>;

export class DynamoWebhookEndpoints implements Endpoints {
  constructor(private readonly table: DynamoTable) {}

  async createEndpoint(endpoint: WebhookEndpoint, cap: { limit: number; refusal: () => Error }): Promise<void> {
    const outcome = await transact(
      [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.webhookCount(endpoint.account_id),
            UpdateExpression: 'SET endpoints = if_not_exists(endpoints, :zero) + :one',
            ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :limit',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': cap.limit },
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.webhookEndpoint(endpoint.account_id, endpoint.id), type: 'webhook_endpoint', ...endpoint },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
      this.table.client,
    );
    if (outcome.written) return;
    if (outcome.failed.includes(0)) throw cap.refusal();
    throw new Error(`webhook endpoint ${endpoint.id} exists already`);
  }

  async listEndpoints(accountId: number): Promise<WebhookEndpoint[]> {
    const out = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.accountPartition(accountId), ':prefix': keys.webhookEndpointPrefix },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).map(toEndpoint).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async getEndpoint(accountId: number, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.webhookEndpoint(accountId, endpointId), ConsistentRead: true }));
    return out.Item ? toEndpoint(out.Item) : undefined;
  }

  async updateEndpoint(accountId: number, endpointId: string, changes: EndpointChanges, now: Date, ifSecret?: string): Promise<WebhookEndpoint | undefined> {
    const fields = { ...changes, updated_at: now.toISOString() };
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => {
        names[`#${name}`] = name;
        values[`:${name}`] = value;
        return `#${name} = :${name}`;
      });
    if (ifSecret !== undefined) {
      names['#current'] = 'secret';
      values[':current'] = ifSecret;
    }
    const item = await updateWithEvent(this.table, {
      TableName: this.table.name,
      Key: keys.webhookEndpoint(accountId, endpointId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: ifSecret === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #current = :current',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return item ? toEndpoint(item) : undefined;
  }

  async deleteEndpoint(accountId: number, endpointId: string): Promise<boolean> {
    const outcome = await transact(
      [
        { Delete: { TableName: this.table.name, Key: keys.webhookEndpoint(accountId, endpointId), ConditionExpression: 'attribute_exists(pk)' } },
        {
          Update: {
            TableName: this.table.name,
            Key: keys.webhookCount(accountId),
            UpdateExpression: 'SET endpoints = endpoints - :one',
            ConditionExpression: 'endpoints > :zero',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          },
        },
      ],
      this.table.client,
    );
    return outcome.written;
  }
}

function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  return Object.fromEntries(ENDPOINT_ATTRIBUTES.map((name) => [name, item[name] ?? null])) as unknown as WebhookEndpoint;
}
