import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CountedItems } from '#adapters/dynamodb/counted-items';
import { keys } from '#adapters/dynamodb/keys';

// Key and item shapes only: nothing here is sent, so the client is never called.
const table = { client: {} as DynamoDBDocumentClient, name: 'reaction-studio' };
const record = { id: 42, account_id: 7, name: 'Demo' };
const itemsOf = (collection: 'products' | 'videos' | 'posts' | 'avatars' | 'music', type: string) =>
  new CountedItems(table, { collection, type, fromItem: (item) => item as typeof record });

describe('the records of a counted collection', () => {
  it.each([
    ['products', keys.product(7, 42)],
    ['videos', keys.video(7, 42)],
    ['avatars', keys.avatar(7, 42)],
    ['music', keys.musicTrack(7, 42)],
  ] as const)('key %s where the rest of the table looks for them', (collection, key) => {
    expect(itemsOf(collection, 'x').key(7, 42)).toEqual(key);
  });

  it('keys posts in the account partition by their padded id', () => {
    expect(itemsOf('posts', 'post').key(7, 42)).toEqual({ pk: 'ACCOUNT#7', sk: 'POST#000000000042' });
  });

  it('puts a new record only where no item is, with its type and index attributes, the record winning over both', () => {
    const put = itemsOf('products', 'product').put(record, { gsi1pk: 'PROCESSING_DEMOS', name: 'index loses' });
    expect(put).toEqual({
      Put: {
        TableName: 'reaction-studio',
        Item: { ...keys.product(7, 42), type: 'product', gsi1pk: 'PROCESSING_DEMOS', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });

  it('counts against its own collection', () => {
    expect(itemsOf('music', 'music').ref(7)).toEqual({ accountId: 7, collection: 'music' });
  });
});
