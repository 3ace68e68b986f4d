import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { storeOnTestTable } from '#test-support/dynamodb';
import { accountStoreContract } from '#test-support/account-store-contract';

const accounts = storeOnTestTable((table) => new DynamoAccountStore(table));

accountStoreContract(() => ({ accounts: accounts() }));
