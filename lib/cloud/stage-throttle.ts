/**
 * The API stage's throttle, sized by a formula instead of a guess. The per-account limit (the
 * contract's requests a minute, counted in DynamoDB by the handlers) is what keeps one account from
 * crowding out the others; the stage throttle is the backstop above it, so it must let every account
 * that is active at once use its whole limit:
 *
 *   rate  = min(active accounts × per-account requests a second, the account-level API Gateway quota)
 *   burst = min(2 × rate, the account-level burst quota)
 *
 * `cdk deploy -c apiActiveAccounts=N` says how many accounts the service expects at its busiest minute.
 */
import type { Construct } from 'constructs';
import { API_REQUESTS_PER_MINUTE } from '#functions/config';

/** API Gateway's default account-level throttle per region (a quota AWS can raise). */
export const API_GATEWAY_ACCOUNT_QUOTA = { rateLimit: 10_000, burstLimit: 5_000 } as const;
export const DEFAULT_ACTIVE_ACCOUNTS = 500;
const ACTIVE_ACCOUNTS_CONTEXT = 'apiActiveAccounts';

export function stageThrottle(activeAccounts: number, perAccountPerMinute = API_REQUESTS_PER_MINUTE): { rateLimit: number; burstLimit: number } {
  const rateLimit = Math.min(API_GATEWAY_ACCOUNT_QUOTA.rateLimit, Math.ceil((activeAccounts * perAccountPerMinute) / 60));
  return { rateLimit, burstLimit: Math.min(API_GATEWAY_ACCOUNT_QUOTA.burstLimit, 2 * rateLimit) };
}

/** CDK context `apiActiveAccounts`: a positive whole number; unset is the default. */
export function activeAccountsFromContext(scope: Construct): number {
  const raw: unknown = scope.node.tryGetContext(ACTIVE_ACCOUNTS_CONTEXT);
  if (raw === undefined || raw === '') return DEFAULT_ACTIVE_ACCOUNTS;
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`context ${ACTIVE_ACCOUNTS_CONTEXT} must be a positive whole number, not ${JSON.stringify(raw)}`);
  return value;
}
