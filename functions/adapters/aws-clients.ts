/**
 * AWS SDK clients, made from a runtime's Settings by its wiring module (Lambda builds them once per
 * execution environment and reuses them across invocations). Locally the same clients point at
 * DynamoDB Local and s3rver through the endpoints in Settings.
 */
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import type { Settings } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';

const localCredentials = (id: string) => ({ accessKeyId: id, secretAccessKey: id });

/** Given each client as it is made, before first use: X-Ray capture in the functions that pay for it (adapters/xray). */
export type ClientInstrument = <C extends object>(client: C) => C;
const asMade: ClientInstrument = (client) => client;

function createDynamoClient(settings: Pick<Settings, 'region' | 'dynamoEndpoint'>, instrument: ClientInstrument): DynamoDBDocumentClient {
  const endpoint = settings.dynamoEndpoint;
  // The document client shares this client's middleware, so capturing it captures both.
  const client = instrument(
    new DynamoDBClient({
      region: settings.region,
      ...(endpoint ? { endpoint, credentials: localCredentials('local') } : {}),
    }),
  );
  if (endpoint) awaitLocalTransactionCommits(client);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function createDynamoTable(settings: Pick<Settings, 'region' | 'dynamoEndpoint' | 'tableName'>, instrument: ClientInstrument = asMade): DynamoTable {
  return { client: createDynamoClient(settings, instrument), name: settings.tableName };
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

export function createS3Client(settings: Pick<Settings, 'region' | 's3Endpoint'>, instrument: ClientInstrument = asMade): S3Client {
  const endpoint = settings.s3Endpoint;
  return instrument(new S3Client({
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
  }));
}
