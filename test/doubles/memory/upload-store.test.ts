/** The in-memory upload store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { uploadStoreContract } from '#test-support/upload-store-contract';

const store = new MemoryUploadStore();
uploadStoreContract(() => store);
