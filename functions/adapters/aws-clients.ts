/**
 * AWS SDK clients, made from a runtime's Settings by its wiring module (Lambda builds them once per
 * execution environment and reuses them across invocations). Locally the same clients point at
 * DynamoDB Local and s3rver through the endpoints in Settings.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { config, type Settings } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';

const localCredentials = (id: string) => ({ accessKeyId: id, secretAccessKey: id });

function createDynamoClient(settings: Pick<Settings, 'region' | 'dynamoEndpoint'>): DynamoDBDocumentClient {
  const endpoint = settings.dynamoEndpoint;
  const client = new DynamoDBClient({
    region: settings.region,
    ...(endpoint ? { endpoint, credentials: localCredentials('local') } : {}),
  });
  if (endpoint) awaitLocalTransactionCommits(client);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function createDynamoTable(settings: Pick<Settings, 'region' | 'dynamoEndpoint' | 'tableName'>): DynamoTable {
  return { client: createDynamoClient(settings), name: settings.tableName };
}

/**
 * DynamoDB Local answers TransactWriteItems before the transaction's commit reaches its files: killed
 * with SIGKILL right after the answer, it loses about half of such transactions (measured here), so a
 * 202 for a job could outlive the job. Any next request waits for that commit, so locally each
 * transaction is followed by the cheapest request there is before its answer is trusted.
 */
function awaitLocalTransactionCommits(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'TransactWriteItemsCommand') await client.send(new ListTablesCommand({ Limit: 1 }));
      return result;
    },
    { step: 'initialize', name: 'awaitLocalTransactionCommits' },
  );
}

export function createS3Client(settings: Pick<Settings, 'region' | 's3Endpoint'>): S3Client {
  const endpoint = settings.s3Endpoint;
  return new S3Client({
    region: settings.region,
    // s3rver predates the SDK's default streaming checksums (aws-chunked bodies) and would store the framing.
    ...(endpoint
      ? {
          endpoint,
          forcePathStyle: true,
          credentials: localCredentials('S3RVER'),
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
}

// Transitional, until the hosted engine's media helpers are handed the wiring's BlobStore: an S3 client from the environment.
let s3Client: S3Client | undefined;

export function s3(): S3Client {
  return (s3Client ??= createS3Client({ region: config.region, s3Endpoint: config.s3Endpoint }));
}

export function resetClients(): void {
  s3Client?.destroy();
  s3Client = undefined;
}
