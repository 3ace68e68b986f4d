/** `npm start` reads its settings once, before anything starts, and names the one that is wrong. */
import { serveConfig } from '#local/config';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';

describe('serveConfig', () => {
  test('unset (or empty) is port 3000, the contract rate limit and the full 30-day preview wait', () => {
    for (const env of [{}, { PORT: '', RATE_LIMIT_PER_MINUTE: '', PREVIEW_EXPIRY_SECONDS: ' ' }]) {
      expect(serveConfig(env)).toEqual({
        port: 3000,
        dataDir: undefined,
        rateLimitPerMinute: 120,
        previewWaitS: PREVIEW_WAIT_MAX_S,
        billing: { kind: 'local' },
        renderConcurrency: undefined,
        lambdaThrottle: false,
        tableName: undefined,
      });
    }
    expect(PREVIEW_WAIT_MAX_S).toBe(30 * 24 * 3600);
  });

  test('takes what is set; a preview wait past 30 days is capped at what the state machine waits', () => {
    const env = { PORT: '0', DATA_DIR: '/tmp/rs', RATE_LIMIT_PER_MINUTE: '100000', PREVIEW_EXPIRY_SECONDS: '3', LOCAL_RENDER_CONCURRENCY: '2', LOCAL_LAMBDA_THROTTLE: '1', TABLE_NAME: 'restored-20261130' };
    expect(serveConfig(env)).toEqual({
      port: 0,
      dataDir: '/tmp/rs',
      rateLimitPerMinute: 100000,
      previewWaitS: 3,
      billing: { kind: 'local' },
      renderConcurrency: 2,
      lambdaThrottle: true,
      tableName: 'restored-20261130',
    });
    expect(serveConfig({ PREVIEW_EXPIRY_SECONDS: String(PREVIEW_WAIT_MAX_S * 2) }).previewWaitS).toBe(PREVIEW_WAIT_MAX_S);
  });

  test.each([
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'http' }, /PORT must be a whole number, not http/],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE/],
    [{ PREVIEW_EXPIRY_SECONDS: 'soon' }, /PREVIEW_EXPIRY_SECONDS must be a whole number, not soon/],
    [{ BILLING: 'paypal' }, /BILLING must be local, stripe-sandbox or stripe/],
    [{ LOCAL_RENDER_CONCURRENCY: '0' }, /LOCAL_RENDER_CONCURRENCY/],
    [{ LOCAL_LAMBDA_THROTTLE: 'yes' }, /LOCAL_LAMBDA_THROTTLE must be 0 or 1, not yes/],
    [{ TABLE_NAME: 'my table' }, /TABLE_NAME must be a DynamoDB table name/],
    [{ BILLING: 'stripe' }, /BILLING=stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_IDS/],
    [{ BILLING: 'stripe', STRIPE_SECRET_KEY: 'pk_live_x' }, /STRIPE_SECRET_KEY must be a Stripe secret key/],
    [{ BILLING: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICE_IDS: 'starter=price_a,pro=price_b' }, /STRIPE_PRICE_IDS names no price for business/],
  ])('%j stops the start, naming the variable', (env, message) => {
    expect(() => serveConfig(env)).toThrow(message);
  });

  test('BILLING picks what paid plans go through: stripe-sandbox needs nothing more, stripe its key, signing secret and a price per paid plan', () => {
    expect(serveConfig({ BILLING: 'stripe-sandbox' }).billing).toEqual({ kind: 'stripe-sandbox' });
    expect(
      serveConfig({
        BILLING: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_PRICE_IDS: 'starter=price_a, pro=price_b,business=price_c',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      }).billing,
    ).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      prices: { starter: 'price_a', pro: 'price_b', business: 'price_c' },
      apiUrl: 'http://127.0.0.1:12111',
    });
  });
});
