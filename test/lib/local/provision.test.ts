/**
 * The local stack's table, made on the first start and given the indexes added since on a later one
 * (a data dir outlives versions), and its bucket, made on every start against the run's shared s3rver: a bucket that is
 * there is kept, and a first look that fails for another reason (the server just started, a socket
 * reset under load after a SIGKILL) does not stop the start when the bucket turns out to exist.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureBucket, ensureTable } from '#local/provision';
import { deleteTable, sharedEndpoints, uniqueName } from '#test-support/services';

/** A proxy to s3rver that resets the connection of the first `failHeads` HEAD requests and passes everything else on. */
async function flakyProxy(target: string, failHeads: number): Promise<{ url: string; server: Server; resets: () => number }> {
  const upstream = new URL(target);
  let resets = 0;
  const server = createServer((req, res) => {
    if (req.method === 'HEAD' && resets < failHeads) {
      resets++;
      req.socket.destroy();
      return;
    }
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, resets: () => resets };
}

async function bucketExists(endpoint: string, bucket: string): Promise<boolean> {
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

describe('ensureBucket', () => {
  const { s3Endpoint } = sharedEndpoints();

  test('makes the bucket on the first start and keeps it on the next', async () => {
    const bucket = uniqueName('provision');
    await ensureBucket(s3Endpoint, bucket);
    await ensureBucket(s3Endpoint, bucket);
    expect(await bucketExists(s3Endpoint, bucket)).toBe(true);
  });

  test('a look that fails although the bucket is there still starts: the bucket is ours', async () => {
    const bucket = uniqueName('provision');
    await ensureBucket(s3Endpoint, bucket);
    // Every HEAD fails: the SDK retries its look, then the create answers that the bucket exists.
    const proxy = await flakyProxy(s3Endpoint, Number.POSITIVE_INFINITY);
    try {
      await expect(ensureBucket(proxy.url, bucket)).resolves.toBeUndefined();
      expect(proxy.resets()).toBeGreaterThan(0);
    } finally {
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
    expect(await bucketExists(s3Endpoint, bucket)).toBe(true);
  });
});

describe('ensureTable', () => {
  const { dynamoEndpoint } = sharedEndpoints();

  test('a table kept from before gsi2 existed gets it on the next start', async () => {
    const tableName = uniqueName('provision');
    const client = new DynamoDBClient({ endpoint: dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: [
            {
              IndexName: 'gsi1',
              KeySchema: [
                { AttributeName: 'gsi1pk', KeyType: 'HASH' },
                { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          ],
        }),
      );
      expect(await ensureTable(dynamoEndpoint, tableName)).toBe(false);
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      const gsi2 = Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === 'gsi2');
      expect(gsi2?.Projection?.ProjectionType).toBe('INCLUDE');
      expect(await ensureTable(dynamoEndpoint, tableName)).toBe(false);
    } finally {
      client.destroy();
      await deleteTable(dynamoEndpoint, tableName);
    }
  });
});
