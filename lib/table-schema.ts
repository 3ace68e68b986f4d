/** The table's key schema, read by the CDK stack and by the local provisioning alike. */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  ttlAttribute: 'expires_at',
} as const;
