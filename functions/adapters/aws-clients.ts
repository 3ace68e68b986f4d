/**
 * AWS SDK clients, created once per process (Lambda reuses them across invocations). Locally the
 * same clients point at DynamoDB Local and s3rver through the *_ENDPOINT variables.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '#functions/config';

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

const localCredentials = (id: string) => ({ accessKeyId: id, secretAccessKey: id });

export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const endpoint = config.dynamoEndpoint;
    const client = new DynamoDBClient({
      region: config.region,
      ...(endpoint ? { endpoint, credentials: localCredentials('local') } : {}),
    });
    if (endpoint) awaitLocalTransactionCommits(client);
    documentClient = DynamoDBDocumentClient.from(client, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return documentClient;
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

export function s3(): S3Client {
  if (!s3Client) {
    const endpoint = config.s3Endpoint;
    s3Client = new S3Client({
      region: config.region,
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
  return s3Client;
}

/** Tests and the local runtime swap endpoints at run time; this drops the cached clients. */
export function resetClients(): void {
  documentClient?.destroy();
  s3Client?.destroy();
  documentClient = undefined;
  s3Client = undefined;
}
