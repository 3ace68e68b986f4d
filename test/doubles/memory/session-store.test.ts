/** The in-memory session store the use-case tests use behaves as the DynamoDB store does. */
import { MemorySessionStore } from '#test-doubles/memory/session-store';
import { sessionStoreContract } from '#test-support/session-store-contract';

const store = new MemorySessionStore();
sessionStoreContract(() => store);
