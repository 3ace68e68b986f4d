/** The API stage's throttle: every account active at once may use its whole per-account limit, up to API Gateway's own quota. */
import { App, Stack } from 'aws-cdk-lib';
import { activeAccountsFromContext, API_GATEWAY_ACCOUNT_QUOTA, DEFAULT_ACTIVE_ACCOUNTS, stageThrottle } from '#cloud/stage-throttle';
import { API_REQUESTS_PER_MINUTE } from '#functions/config';

describe('stageThrottle', () => {
  test("is the active accounts' per-account limits added up, with a burst of twice that", () => {
    // 500 accounts at 120 a minute: 1,000 requests a second.
    expect(stageThrottle(500, 120)).toEqual({ rateLimit: 1000, burstLimit: 2000 });
    expect(stageThrottle(1, 120)).toEqual({ rateLimit: 2, burstLimit: 4 });
    // A fraction of a request a second rounds up: the throttle never refuses an account under its own limit.
    expect(stageThrottle(1, 90)).toEqual({ rateLimit: 2, burstLimit: 4 });
  });

  test("follows the contract's per-account limit by default", () => {
    expect(stageThrottle(DEFAULT_ACTIVE_ACCOUNTS)).toEqual(stageThrottle(DEFAULT_ACTIVE_ACCOUNTS, API_REQUESTS_PER_MINUTE));
  });

  test("never asks for more than API Gateway's account-level quota", () => {
    expect(stageThrottle(1_000_000, 120)).toEqual(API_GATEWAY_ACCOUNT_QUOTA);
    expect(stageThrottle(4_000, 120)).toEqual({ rateLimit: 8_000, burstLimit: API_GATEWAY_ACCOUNT_QUOTA.burstLimit });
  });
});

describe('context apiActiveAccounts', () => {
  const read = (value?: unknown) => activeAccountsFromContext(new Stack(new App({ context: value === undefined ? {} : { apiActiveAccounts: value } }), 'S'));

  test('is a positive whole number; unset is the default', () => {
    expect(read()).toBe(DEFAULT_ACTIVE_ACCOUNTS);
    expect(read('2000')).toBe(2000);
    expect(read(50)).toBe(50);
    for (const bad of ['0', '-3', '2.5', 'many']) expect(() => read(bad)).toThrow('context apiActiveAccounts must be a positive whole number');
  });
});
