/**
 * What one video job costs on AWS, from what a run measured and the list prices below (model
 * inference excluded: the local engine runs inside the render function, a hosted one bills apart).
 *
 * Prices: AWS's public price pages for us-east-1 (x86 Lambda, Step Functions Standard, DynamoDB
 * on-demand after the November 2024 cut, S3 Standard, CloudFront's first 10 TB to North America and
 * Europe, HTTP APIs), as of 2025-06, without free tiers. Not re-checked from here (no network).
 */
export const PRICES_AS_OF = '2025-06, us-east-1, list prices without free tiers';

export const AWS_PRICES = {
  lambdaGbSecond: 0.0000166667,
  /** Lambda on arm64 (Graviton): 20% less per GB-second, requests priced the same. */
  lambdaArmGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** Per GB-second of /tmp above the free 512 MB. */
  lambdaEphemeralGbSecond: 0.0000000309,
  httpApiRequest: 1.0 / 1e6,
  stateTransition: 0.025 / 1000,
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  /** PUT, COPY, POST, LIST. */
  s3ClassA: 0.005 / 1000,
  /** GET, HEAD. */
  s3ClassB: 0.0004 / 1000,
  s3GbMonth: 0.023,
  cloudFrontGb: 0.085,
  cloudFrontHttpsRequest: 0.01 / 10_000,
  // What the stack pays whether or not it makes videos, and what grows with its records (bench/cost-model.ts).
  kmsKeyMonth: 1.0,
  secretMonth: 0.4,
  alarmMonth: 0.1,
  dashboardMonth: 3.0,
  ecrGbMonth: 0.1,
  dynamoGbMonth: 0.25,
  pitrGbMonth: 0.2,
  /** AWS Backup's warm storage for DynamoDB: each daily copy is a full one. */
  backupGbMonth: 0.1,
  logsIngestedGb: 0.5,
  /** X-Ray, per trace recorded. */
  xrayTrace: 5.0 / 1e6,
  /** SQS standard, per request (a webhook delivery is a send, a receive and a delete). */
  sqsRequest: 0.4 / 1e6,
} as const;

/** One Lambda invocation as measured, with its function's configuration. */
export interface Invocation {
  fn: string;
  ms: number;
  memoryMb: number;
  ephemeralMb?: number;
}

export interface JobUsage {
  invocations: Invocation[];
  /** API requests through the HTTP API (POST /videos, approve). */
  apiRequests: number;
  stateTransitions: number;
  dynamo: { readUnits: number; writeUnits: number };
  s3: { classA: number; classB: number };
  /** What stays stored (the video and its poster), kept for `storageMonths`. */
  storedBytes: number;
  storageMonths: number;
  /** What viewers fetch through CloudFront (the video and its poster, each once). */
  delivered: { bytes: number; requests: number };
}

export interface CostLine {
  service: string;
  usage: string;
  usd: number;
}

const GB = 1024 ** 3;

/** Lambda bills each invocation's duration rounded up to the millisecond, at its configured memory. */
export function costOf(usage: JobUsage, prices: typeof AWS_PRICES = AWS_PRICES): CostLine[] {
  const gbSeconds = usage.invocations.reduce((sum, i) => sum + (Math.ceil(i.ms) / 1000) * (i.memoryMb / 1024), 0);
  const ephemeralGbSeconds = usage.invocations.reduce((sum, i) => sum + (Math.ceil(i.ms) / 1000) * (Math.max(0, (i.ephemeralMb ?? 512) - 512) / 1024), 0);
  const requests = usage.invocations.length;
  return [
    {
      service: 'Lambda compute',
      usage: `${gbSeconds.toFixed(2)} GB-s`,
      usd: gbSeconds * prices.lambdaGbSecond + ephemeralGbSeconds * prices.lambdaEphemeralGbSecond,
    },
    { service: 'Lambda requests', usage: `${requests}`, usd: requests * prices.lambdaRequest },
    { service: 'API Gateway (HTTP API)', usage: `${usage.apiRequests} requests`, usd: usage.apiRequests * prices.httpApiRequest },
    { service: 'Step Functions (Standard)', usage: `${usage.stateTransitions} transitions`, usd: usage.stateTransitions * prices.stateTransition },
    {
      service: 'DynamoDB (on-demand)',
      usage: `${usage.dynamo.readUnits.toFixed(1)} RRU, ${usage.dynamo.writeUnits.toFixed(1)} WRU`,
      usd: usage.dynamo.readUnits * prices.dynamoReadUnit + usage.dynamo.writeUnits * prices.dynamoWriteUnit,
    },
    { service: 'S3 requests', usage: `${usage.s3.classA} PUT/COPY/LIST, ${usage.s3.classB} GET/HEAD`, usd: usage.s3.classA * prices.s3ClassA + usage.s3.classB * prices.s3ClassB },
    {
      service: 'S3 storage',
      usage: `${(usage.storedBytes / 1024 ** 2).toFixed(1)} MB for ${usage.storageMonths} month(s)`,
      usd: (usage.storedBytes / GB) * usage.storageMonths * prices.s3GbMonth,
    },
    {
      service: 'CloudFront',
      usage: `${(usage.delivered.bytes / 1024 ** 2).toFixed(1)} MB in ${usage.delivered.requests} requests`,
      usd: (usage.delivered.bytes / GB) * prices.cloudFrontGb + usage.delivered.requests * prices.cloudFrontHttpsRequest,
    },
  ];
}

export const totalUsd = (lines: readonly CostLine[]) => lines.reduce((sum, l) => sum + l.usd, 0);
