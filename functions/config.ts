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
  get region() {
    return optionalEnv('AWS_REGION') ?? 'us-east-1';
  },
};
