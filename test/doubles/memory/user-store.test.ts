/** The in-memory user store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryUserStore } from '#test-doubles/memory/user-store';
import { userStoreContract } from '#test-support/user-store-contract';

const accounts = new MemoryAccountStore();
const users = new MemoryUserStore(accounts);
userStoreContract(() => ({ users, accounts }));
