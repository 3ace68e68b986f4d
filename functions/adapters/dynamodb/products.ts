import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DemoIntake } from '#domain/demo-intake';
import type { DemoVideo, Product } from '#domain/product';
import type { ProductStore } from '#ports/product-store';
import type { DynamoTable } from './table';
import { updateWithEvent } from './webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';
import { keys } from './keys';
import { allocateId } from './ids';
import { PagedItems } from './counted-items';
import { processingBefore, processingIndex } from './processing-index';

/** A product created with a demo to normalise is in the processing index until its demo settles. */
const processingIndexOf = (product: Product) =>
  product.demo?.status === 'processing' ? processingIndex(keys.processingDemosIndex, product.created_at, product.account_id, product.id) : {};

export class DynamoProductStore extends PagedItems<Product> implements ProductStore {
  constructor(table: DynamoTable) {
    super(table, { collection: 'products', type: 'product', fromItem: toProduct, indexOf: processingIndexOf });
  }

  newProductId(): Promise<number> {
    return allocateId(this.table, 'product');
  }

  create(product: Product): Promise<void> {
    return this.createCounted(product);
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

  delete(accountId: number, productId: number): Promise<Product | undefined> {
    return this.deleteCounted(accountId, productId);
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
