/**
 * The run's shared DynamoDB Local and s3rver (started by jest's global setup, test/support/global/services.ts)
 * and names that keep each suite's data apart in them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { resolve } from 'node:path';
import type { SharedServices } from '#local/runtime';

export const SERVICES_ENV = { dynamoEndpoint: 'RS_TEST_DYNAMODB_ENDPOINT', s3Endpoint: 'RS_TEST_S3_ENDPOINT' } as const;

export function sharedEndpoints(): { dynamoEndpoint: string; s3Endpoint: string } {
  const dynamoEndpoint = process.env[SERVICES_ENV.dynamoEndpoint];
  const s3Endpoint = process.env[SERVICES_ENV.s3Endpoint];
  if (!dynamoEndpoint || !s3Endpoint) {
    throw new Error(`${SERVICES_ENV.dynamoEndpoint} and ${SERVICES_ENV.s3Endpoint} are unset: run the tests through jest (npm test), whose global setup starts the shared services`);
  }
  return { dynamoEndpoint, s3Endpoint };
}

/** A table and bucket name of its own for each data dir: a stack restarted on the same dir finds its data again. */
export function servicesFor(dataDir: string): SharedServices {
  const id = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 20);
  return { ...sharedEndpoints(), tableName: `stack-${id}`, bucketName: `stack-${id}` };
}

/** A name no other suite of the run uses (tables and buckets alike: lowercase, digits, hyphens). */
export const uniqueName = (prefix: string) => `${prefix}-${randomUUID()}`;

/** Drops a table of the shared DynamoDB Local, so a long run does not hold every suite's data in memory. */
export async function deleteTable(dynamoEndpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint: dynamoEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  } finally {
    client.destroy();
  }
}
