import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { storeOnTestTable } from '#test-support/dynamodb';
import { avatarStoreContract } from '#test-support/avatar-store-contract';

const store = storeOnTestTable((table) => new DynamoAvatarStore(table));

avatarStoreContract(store, 8000);
