import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { storeOnTestTable } from '#test-support/dynamodb';
import { postStoreContract } from '#test-support/post-store-contract';

const store = storeOnTestTable((table) => new DynamoPostStore(table));

postStoreContract(store, 6000);
