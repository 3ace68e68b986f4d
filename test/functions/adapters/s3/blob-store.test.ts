/** The S3 blob store against s3rver (the local stack's storage) keeps the blob store's contract. */
import type { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { createS3Client } from '#adapters/aws-clients';
import { DEFAULT_REGION } from '#functions/config';
import { ensureBucket } from '#local/provision';
import { sharedEndpoints, uniqueName } from '#test-support/services';
import { blobStoreContract } from '#test-support/blob-store-contract';

let client: S3Client;
let store: S3BlobStore;
beforeAll(async () => {
  const { s3Endpoint } = sharedEndpoints();
  const bucket = uniqueName('blob-contract');
  await ensureBucket(s3Endpoint, bucket);
  client = createS3Client({ region: DEFAULT_REGION, s3Endpoint });
  store = new S3BlobStore(client, bucket);
});
afterAll(() => client?.destroy());

blobStoreContract(() => store, 'contract', { fetchLink: (url, init) => fetch(url, init) });
