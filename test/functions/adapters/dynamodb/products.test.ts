import { DynamoProductStore } from '#adapters/dynamodb/products';
import { storeOnTestTable } from '#test-support/dynamodb';
import { productStoreContract } from '#test-support/product-store-contract';

const store = storeOnTestTable((table) => new DynamoProductStore(table));

productStoreContract(store, 7000);
