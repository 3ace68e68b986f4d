/**
 * The table's key schema, read by the CDK stack and by the local provisioning alike.
 *
 * gsi1 (projection ALL) serves lookups by a secondary key (a session's user, a key's id, records stuck
 * in processing). gsi2 holds the in-flight sets every job touches (active jobs, reserved units, the
 * webhook outbox, due deliveries), each write-sharded (functions/adapters/dynamodb/shards.ts). It
 * projects only attributes that never change after an item is written, so an update that leaves the
 * index key alone (a job's progress, stage, output) writes nothing to it.
 */
import type { CreateTableCommandInput, GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';

export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: { type: 'ALL' } },
    {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      projection: { type: 'INCLUDE', attributes: ['account_id', 'id', 'created_at', 'job_id', 'charge_number', 'reserved_at', 'endpoint_id', 'event_type', 'subject', 'order_key'] },
    },
  ],
  ttlAttribute: 'expires_at',
} as const;

type IndexSchema = (typeof TABLE_SCHEMA.globalIndexes)[number];

/** One index as CreateTable and UpdateTable take it. */
export function indexDefinition(index: IndexSchema): GlobalSecondaryIndex {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' },
      { AttributeName: index.sortKey, KeyType: 'RANGE' },
    ],
    Projection: index.projection.type === 'INCLUDE' ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] } : { ProjectionType: 'ALL' },
  };
}

/**
 * The CreateTable request for the schema, on demand: the local stack's table, and the restore
 * runbook's new table (with the keys-only stream the stack's readers take).
 */
export function createTableInput(tableName: string, options: { keysOnlyStream?: boolean } = {}): CreateTableCommandInput {
  const { partitionKey, sortKey, globalIndexes } = TABLE_SCHEMA;
  const attributes = new Set<string>([partitionKey, sortKey, ...globalIndexes.flatMap((g) => [g.partitionKey, g.sortKey])]);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: globalIndexes.map(indexDefinition),
    ...(options.keysOnlyStream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' as const } } : {}),
  };
}
