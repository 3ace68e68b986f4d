/** The in-memory music store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryMusicStore } from '#test-doubles/memory/music-store';
import { musicStoreContract } from '#test-support/music-store-contract';

const store = new MemoryMusicStore();
musicStoreContract(() => store, 9100);
