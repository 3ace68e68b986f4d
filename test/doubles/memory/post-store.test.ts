/** The in-memory post store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryPostStore } from '#test-doubles/memory/post-store';
import { postStoreContract } from '#test-support/post-store-contract';

const store = new MemoryPostStore();
postStoreContract(() => store, 6000);
