/** The in-memory API key store the unit tests use keeps the DynamoDB store's conditions. */
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { apiKeyStoreContract } from '#test-support/api-key-store-contract';

const accounts = new MemoryAccountStore();
const keys = new MemoryApiKeyStore(accounts);
apiKeyStoreContract(() => ({ keys, accounts }));
