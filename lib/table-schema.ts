/**
 * The table's key schema, read by the CDK stack and by the local provisioning alike.
 *
 * gsi1 (projection ALL) serves lookups by a secondary key (a session's user, a key's id, records stuck
 * in processing). gsi2 holds the in-flight sets every job touches (active jobs, reserved units, the
 * webhook outbox, due deliveries), each write-sharded (functions/adapters/dynamodb/shards.ts). It
 * projects only attributes that never change after an item is written, so an update that leaves the
 * index key alone (a job's progress, stage, output) writes nothing to it.
 */
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
