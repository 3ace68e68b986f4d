/**
 * Creates the table and the bucket when absent, with the same schema the CDK stack deploys; a table
 * kept in a data dir from before an index existed gets the index added.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { BucketAlreadyExists, BucketAlreadyOwnedByYou, CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { UPLOAD_CORS_RULE } from '#lib/upload-cors';
import { createTableInput, indexDefinition, TABLE_SCHEMA } from '#lib/table-schema';

const credentials = (id: string) => ({ accessKeyId: id, secretAccessKey: id });

/** Returns true when the table was created now (a first start). */
export async function ensureTable(endpoint: string, tableName: string): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: credentials('local') });
  try {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      await addMissingIndexes(client, tableName, Table);
      return false;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true } }),
    );
    return true;
  } finally {
    client.destroy();
  }
}

/** A data dir's table made before an index of the schema existed: the index is added (as a deploy adds it on AWS). */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription | undefined): Promise<void> {
  const present = new Set((table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of TABLE_SCHEMA.globalIndexes.filter((g) => !present.has(g.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [{ Create: indexDefinition(index) }],
      }),
    );
  }
}

export async function ensureBucket(endpoint: string, bucket: string): Promise<void> {
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: credentials('S3RVER') });
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch {
      // The look can fail for reasons other than a missing bucket (the server just started, a socket
      // reset under load); then the bucket may be there, and in this stack's own server it is ours.
      await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((error: unknown) => {
        if (!(error instanceof BucketAlreadyOwnedByYou || error instanceof BucketAlreadyExists)) throw error;
      });
    }
    // Set on every start, so a data dir made before the studio existed takes browser uploads too.
    await client.send(
      new PutBucketCorsCommand({
        Bucket: bucket,
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedMethods: [...UPLOAD_CORS_RULE.allowedMethods],
              AllowedOrigins: [...UPLOAD_CORS_RULE.allowedOrigins],
              AllowedHeaders: [...UPLOAD_CORS_RULE.allowedHeaders],
              MaxAgeSeconds: UPLOAD_CORS_RULE.maxAgeSeconds,
            },
          ],
        },
      }),
    );
  } finally {
    client.destroy();
  }
}
