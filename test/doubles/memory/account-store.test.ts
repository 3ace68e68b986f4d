/** The in-memory account store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { accountStoreContract } from '#test-support/account-store-contract';

accountStoreContract(() => ({ accounts: new MemoryAccountStore() }));
