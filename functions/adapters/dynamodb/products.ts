import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { DemoVideo, Product } from '#domain/product';
import { keys } from './keys';
import { nextId } from './ids';
import type { PageSlice } from './pagination';
import { createOne, deleteFromCollection } from './collection-counter';
import { pageOfCollection } from './collection-pages';

export const newProductId = () => nextId('product');

export async function putNewProduct(product: Product): Promise<void> {
  await createOne({ accountId: product.account_id, collection: 'products' }, product.id, {
    Put: {
      TableName: config.tableName,
      Item: { ...keys.product(product.account_id, product.id), type: 'product', ...product },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
}

export async function getProduct(accountId: number, productId: number): Promise<Product | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: config.tableName, Key: keys.product(accountId, productId), ConsistentRead: true }),
  );
  return out.Item ? toProduct(out.Item) : undefined;
}

export async function listProducts(accountId: number, page: number, perPage: number): Promise<PageSlice<Product>> {
  const slice = await pageOfCollection({ accountId, collection: 'products' }, page, perPage);
  return { items: slice.items.map(toProduct), total: slice.total };
}

export async function updateProduct(
  accountId: number,
  productId: number,
  changes: { name?: string; description?: string | null },
  now = new Date(),
): Promise<Product | undefined> {
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
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
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

/** Returns the deleted record, or undefined when there was none (or a concurrent delete won). */
export async function deleteProduct(accountId: number, productId: number): Promise<Product | undefined> {
  const product = await getProduct(accountId, productId);
  if (!product) return undefined;
  const removed = await deleteFromCollection({ accountId, collection: 'products' }, productId, {
    Delete: { TableName: config.tableName, Key: keys.product(accountId, productId), ConditionExpression: 'attribute_exists(pk)' },
  });
  return removed ? product : undefined;
}

/**
 * Records the outcome of normalisation, but only on the upload it was made from: a product deleted
 * (or given another demo) meanwhile is left alone, and the caller learns it must discard its output.
 */
export async function settleDemo(accountId: number, productId: number, demo: DemoVideo, now = new Date()): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.product(accountId, productId),
        UpdateExpression: 'SET demo = :demo, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND demo.original_key = :original',
        ExpressionAttributeValues: { ':demo': demo, ':now': now.toISOString(), ':original': demo.original_key },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

function toProduct(item: Record<string, unknown>): Product {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    name: item.name as string,
    description: (item.description as string | null | undefined) ?? null,
    demo: (item.demo as DemoVideo | null | undefined) ?? null,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
}
