/** The in-memory blob store the use-case tests use answers as the S3 store does. */
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { blobStoreContract } from '#test-support/blob-store-contract';

const store = new MemoryBlobStore();
blobStoreContract(() => store, 'contract');
