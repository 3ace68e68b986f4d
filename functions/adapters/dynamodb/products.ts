import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DemoIntake } from '#domain/demo-intake';
import type { DemoVideo, Product } from '#domain/product';
import type { ProductPage, ProductStore } from '#ports/product-store';
import type { DynamoTable } from './table';
import { updateWithEvent } from './webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';
import { keys } from './keys';
import { allocateId } from './ids';
import { DynamoCollections } from './collection-counter';
import { collectionPage } from './collection-pages';
import { processingBefore, processingIndex } from './processing-index';

/** A product created with a demo to normalise is in the processing index until its demo settles. */
const processingIndexOf = (product: Product) =>
  product.demo?.status === 'processing' ? processingIndex(keys.processingDemosIndex, product.created_at, product.account_id, product.id) : {};

export class DynamoProductStore implements ProductStore {
  private readonly collections: DynamoCollections;

  constructor(private readonly table: DynamoTable) {
    this.collections = new DynamoCollections(table);
  }

  newProductId(): Promise<number> {
    return allocateId(this.table, 'product');
  }

  async create(product: Product): Promise<void> {
    await this.collections.createOne({ accountId: product.account_id, collection: 'products' }, product.id, {
      Put: {
        TableName: this.table.name,
        Item: { ...keys.product(product.account_id, product.id), type: 'product', ...processingIndexOf(product), ...product },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }

  async get(accountId: number, productId: number): Promise<Product | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.product(accountId, productId), ConsistentRead: true }));
    return out.Item ? toProduct(out.Item) : undefined;
  }

  async list(accountId: number, page: number, perPage: number): Promise<ProductPage> {
    const slice = await collectionPage(this.table, { accountId, collection: 'products' }, page, perPage);
    return { items: slice.items.map(toProduct), total: slice.total };
  }

  async update(accountId: number, productId: number, changes: { name?: string; description?: string | null }, now: Date): Promise<Product | undefined> {
    const sets = ['updated_at = :now'];
    const values: Record<string, unknown> = { ':now': now.toISOString() };
    if (changes.name !== undefined) {
      sets.push('#name = :name');
      values[':name'] = changes.name;
    }
    if (changes.description !== undefined) {
      sets.push('description = :description');
      values[':description'] = changes.description;
    }
    try {
      const out = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.product(accountId, productId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: changes.name !== undefined ? { '#name': 'name' } : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toProduct(out.Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async delete(accountId: number, productId: number): Promise<Product | undefined> {
    const product = await this.get(accountId, productId);
    if (!product) return undefined;
    const removed = await this.collections.delete({ accountId, collection: 'products' }, productId, {
      Delete: { TableName: this.table.name, Key: keys.product(accountId, productId), ConditionExpression: 'attribute_exists(pk)' },
    });
    return removed ? product : undefined;
  }

  async settleDemo(accountId: number, productId: number, demo: DemoVideo, now: Date, event?: WebhookEvent): Promise<boolean> {
    const settled = await updateWithEvent(
      this.table,
      {
        TableName: this.table.name,
        Key: keys.product(accountId, productId),
        UpdateExpression: 'SET demo = :demo, updated_at = :now REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk) AND demo.original_key = :original' + (event ? ' AND demo.#status = :processing' : ''),
        ...(event ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: { ':demo': demo, ':now': now.toISOString(), ':original': demo.original_key, ...(event ? { ':processing': 'processing' } : {}) },
      },
      event,
    );
    return settled !== undefined;
  }

  async demosProcessingBefore(cutoff: Date): Promise<{ accountId: number; productId: number }[]> {
    return (await processingBefore(this.table, keys.processingDemosIndex, cutoff)).map(({ accountId, id }) => ({ accountId, productId: id }));
  }
}

function toProduct(item: Record<string, unknown>): Product {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    name: item.name as string,
    description: (item.description as string | null | undefined) ?? null,
    demo: (item.demo as DemoVideo | null | undefined) ?? null,
    ...(item.demo_intake ? { demo_intake: item.demo_intake as DemoIntake } : {}),
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
