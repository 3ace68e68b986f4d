/** The in-memory product store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { productStoreContract } from '#test-support/product-store-contract';

const store = new MemoryProductStore();
productStoreContract(() => store, 7000);
