/** The in-memory update socket store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryUpdateSocketStore } from '#test-doubles/memory/update-sockets';
import { updateSocketStoreContract } from '#test-support/update-socket-store-contract';

const store = new MemoryUpdateSocketStore();
updateSocketStoreContract(() => store, 9300);
