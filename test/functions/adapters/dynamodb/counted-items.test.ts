import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CollectionName } from '#domain/collections';
import { CountedItems } from '#adapters/dynamodb/counted-items';
import { keys } from '#adapters/dynamodb/keys';

// Key and item shapes only: nothing here is sent, so the client is never called.
const table = { client: {} as DynamoDBDocumentClient, name: 'reaction-studio' };
const record = { id: 42, account_id: 7, name: 'Demo' };
type Demo = typeof record;

/** The keying a store keeps to itself, opened up to be read. */
class ItemsUnderTest extends CountedItems<Demo> {
  constructor(collection: CollectionName, type: string, indexOf?: (record: Demo) => Record<string, unknown>) {
    super(table, { collection, type, fromItem: (item) => item as Demo, indexOf });
  }

  override key(accountId: number, id: number) {
    return super.key(accountId, id);
  }

  override put(demo: Demo) {
    return super.put(demo);
  }

  override ref(accountId: number) {
    return super.ref(accountId);
  }
}

describe('the records of a counted collection', () => {
  it.each([
    ['products', keys.product(7, 42)],
    ['videos', keys.video(7, 42)],
    ['avatars', keys.avatar(7, 42)],
    ['music', keys.musicTrack(7, 42)],
  ] as const)('key %s where the rest of the table looks for them', (collection, key) => {
    expect(new ItemsUnderTest(collection, 'x').key(7, 42)).toEqual(key);
  });

  it('keys posts in the account partition by their padded id', () => {
    expect(new ItemsUnderTest('posts', 'post').key(7, 42)).toEqual({ pk: 'ACCOUNT#7', sk: 'POST#000000000042' });
  });

  it("puts a new record only where no item is, with its type and the kind's index attributes, the record winning over both", () => {
    const put = new ItemsUnderTest('products', 'product', () => ({ gsi1pk: 'PROCESSING_DEMOS', name: 'index loses' })).put(record);
    expect(put).toEqual({
      Put: {
        TableName: 'reaction-studio',
        Item: { ...keys.product(7, 42), type: 'product', gsi1pk: 'PROCESSING_DEMOS', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });

  it('puts a record of a kind without an index with its type only', () => {
    expect(new ItemsUnderTest('music', 'music').put(record).Put?.Item).toEqual({ ...keys.musicTrack(7, 42), type: 'music', ...record });
  });

  it('counts against its own collection', () => {
    expect(new ItemsUnderTest('music', 'music').ref(7)).toEqual({ accountId: 7, collection: 'music' });
  });
});
