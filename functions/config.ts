/** Environment read through one helper that names what is missing. */

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value ? value : undefined;
}

export const config = {
  get tableName() {
    return requiredEnv('TABLE_NAME');
  },
  get bucketName() {
    return requiredEnv('BUCKET_NAME');
  },
  /** Set locally to DynamoDB Local; unset on AWS. */
  get dynamoEndpoint() {
    return optionalEnv('DYNAMODB_ENDPOINT');
  },
  /** Set locally to s3rver; unset on AWS. */
  get s3Endpoint() {
    return optionalEnv('S3_ENDPOINT');
  },
  /**
   * Requests per rolling minute per account (the contract's 120). A local testing setting: load and
   * scale runs raise it to fill an account quickly; deployed stacks do not set it.
   */
  get rateLimitPerMinute() {
    const raw = optionalEnv('RATE_LIMIT_PER_MINUTE');
    if (raw === undefined) return 120;
    if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw new Error(`RATE_LIMIT_PER_MINUTE must be a positive integer, not ${raw}`);
    return Number(raw);
  },
  get region() {
    return optionalEnv('AWS_REGION') ?? 'us-east-1';
  },
};
