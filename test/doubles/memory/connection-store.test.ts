/** The in-memory connection store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryConnectionStore } from '#test-doubles/memory/connection-store';
import { connectionStoreContract } from '#test-support/connection-store-contract';

const store = new MemoryConnectionStore();
connectionStoreContract(() => store, 5500);
