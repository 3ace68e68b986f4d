/**
 * Lambda concurrency reserved from CDK context, so a burst queues instead of starving the API:
 * `cdk deploy -c renderConcurrency=20 -c apiConcurrency=10`.
 * - renderConcurrency caps the render function: the steps past it are throttled, and the state
 *   machine's capacity retrier waits them out for about an hour (functions/pipeline/steps.ts).
 * - apiConcurrency reserves that many concurrent executions for each API function, so renders (or a
 *   noisy tenant on one route group) cannot take the API's share of the account's pool.
 * Both are off unless set: Lambda refuses a reservation that leaves the account fewer than 100
 * unreserved executions, which a new account (quota 10) cannot give (docs/aws.md, Bursts).
 */
import type { Construct } from 'constructs';

export const CONCURRENCY_CONTEXT = { render: 'renderConcurrency', api: 'apiConcurrency' } as const;
/** Lambda's default account quota; a reservation above it cannot be granted without a raise. */
const MAX_RESERVED = 1000;

export interface ReservedConcurrency {
  render?: number;
  api?: number;
}

export function concurrencyFromContext(scope: Construct): ReservedConcurrency {
  const read = (key: string): number | undefined => {
    const raw = scope.node.tryGetContext(key) as unknown;
    if (raw === undefined) return undefined;
    // `-c renderConcurrency=20` arrives as a string, cdk.json as a number.
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(value) || value < 1 || value > MAX_RESERVED) throw new Error(`context ${key}=${String(raw)} must be a whole number of executions from 1 to ${MAX_RESERVED}`);
    return value;
  };
  return { render: read(CONCURRENCY_CONTEXT.render), api: read(CONCURRENCY_CONTEXT.api) };
}
