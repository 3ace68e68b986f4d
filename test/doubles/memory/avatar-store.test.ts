/** The in-memory avatar store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryAvatarStore } from '#test-doubles/memory/avatar-store';
import { avatarStoreContract } from '#test-support/avatar-store-contract';

const store = new MemoryAvatarStore();
avatarStoreContract(() => store, 8000);
