/** The cost of a job is its measured usage times the list prices, one line per service. */
import { AWS_PRICES, costOf, totalUsd, type JobUsage } from '#bench/aws-prices';

const NOTHING: JobUsage = {
  invocations: [],
  apiRequests: 0,
  stateTransitions: 0,
  dynamo: { readUnits: 0, writeUnits: 0 },
  s3: { classA: 0, classB: 0 },
  storedBytes: 0,
  storageMonths: 1,
  delivered: { bytes: 0, requests: 0 },
};
const line = (usage: Partial<JobUsage>, service: string) => costOf({ ...NOTHING, ...usage }).find((l) => l.service === service)!.usd;

describe('costOf', () => {
  test('nothing used costs nothing', () => {
    expect(totalUsd(costOf(NOTHING))).toBe(0);
  });

  test('Lambda bills GB-seconds at the configured memory, each duration rounded up to the millisecond, and one request per invocation', () => {
    expect(line({ invocations: [{ fn: 'render', ms: 1000, memoryMb: 1024 }] }, 'Lambda compute')).toBeCloseTo(AWS_PRICES.lambdaGbSecond, 12);
    expect(line({ invocations: [{ fn: 'steps', ms: 0.2, memoryMb: 1024 }] }, 'Lambda compute')).toBeCloseTo(AWS_PRICES.lambdaGbSecond / 1000, 14);
    expect(line({ invocations: [{ fn: 'a', ms: 1, memoryMb: 128 }, { fn: 'b', ms: 1, memoryMb: 128 }] }, 'Lambda requests')).toBeCloseTo(2 * AWS_PRICES.lambdaRequest, 14);
  });

  test('/tmp is billed only above the 512 MB every function has', () => {
    const at = (ephemeralMb: number) => line({ invocations: [{ fn: 'render', ms: 1000, memoryMb: 1024, ephemeralMb }] }, 'Lambda compute');
    expect(at(512)).toBeCloseTo(AWS_PRICES.lambdaGbSecond, 12);
    expect(at(1536) - at(512)).toBeCloseTo(AWS_PRICES.lambdaEphemeralGbSecond, 14);
  });

  test('state transitions, request units, S3 requests, storage and delivery each at their price', () => {
    expect(line({ stateTransitions: 1000 }, 'Step Functions (Standard)')).toBeCloseTo(0.025, 10);
    expect(line({ dynamo: { readUnits: 1e6, writeUnits: 1e6 } }, 'DynamoDB (on-demand)')).toBeCloseTo(0.125 + 0.625, 10);
    expect(line({ s3: { classA: 1000, classB: 1000 } }, 'S3 requests')).toBeCloseTo(0.005 + 0.0004, 10);
    expect(line({ storedBytes: 1024 ** 3, storageMonths: 2 }, 'S3 storage')).toBeCloseTo(2 * 0.023, 10);
    expect(line({ delivered: { bytes: 1024 ** 3, requests: 10_000 } }, 'CloudFront')).toBeCloseTo(0.085 + 0.01, 10);
    expect(line({ apiRequests: 1e6 }, 'API Gateway (HTTP API)')).toBeCloseTo(1, 10);
  });
});
