import { DynamoMusicStore } from '#adapters/dynamodb/music';
import { storeOnTestTable } from '#test-support/dynamodb';
import { musicStoreContract } from '#test-support/music-store-contract';

const store = storeOnTestTable((table) => new DynamoMusicStore(table));

musicStoreContract(store, 9100);
