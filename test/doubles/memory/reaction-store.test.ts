/** The in-memory saved-reaction library the use-case tests use keeps the DynamoDB store's conditions, and counts as its counter does. */
import { MemoryReactionStore } from '#test-doubles/memory/reaction-store';
import { reactionStoreContract } from '#test-support/reaction-store-contract';

const store = new MemoryReactionStore();
reactionStoreContract(() => store, () => store, 2000);
