/**
 * Test mode in the use cases, over the in-memory stores: keys made live or test, and a test scope's
 * jobs reserved in its own ledger, never refused for units and never touching the account's allowance.
 */
import { AppError } from '#domain/errors';
import { scopeOf } from '#domain/test-mode';
import { createKey } from '#use-cases/create-key';
import { createVideoJob, quoteVideoJob } from '#use-cases/create-video-job';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { NOW, PERIOD, promptRequest, videoJobFixture } from '#test-support/video-jobs';

describe('createKey (POST /keys)', () => {
  test('makes a test key when asked, a live one otherwise; the store keeps each mode', async () => {
    const accounts = new MemoryAccountStore();
    const apiKeys = new MemoryApiKeyStore(accounts);
    const account = await accounts.create('a', 'pro', NOW);
    const deps = { apiKeys, now: () => NOW };
    const test = await createKey(deps, account.id, { name: 'CI', mode: 'test' });
    const live = await createKey(deps, account.id, { name: 'Prod' });
    expect(test).toMatchObject({ name: 'CI', mode: 'test', key: expect.stringMatching(/^rsk_test_/) });
    expect(live).toMatchObject({ name: 'Prod', mode: 'live', key: expect.not.stringMatching(/^rsk_test_/) });
    expect((await apiKeys.listOfAccount(account.id)).map((k) => [k.name, k.mode])).toEqual([
      ['CI', 'test'],
      ['Prod', 'live'],
    ]);
  });
});

/** The free plan's fixture with its three units all reserved by other jobs, and a product in the account's test scope. */
async function fullAccountWithTestProduct() {
  const fixture = await videoJobFixture({ plan: 'free' });
  const { accountId, ledger, deps } = fixture;
  for (let jobId = 101; jobId < 104; jobId++) ledger.reserve({ ref: { accountId, jobId, chargeNumber: 1 }, period: PERIOD, limit: 3 }, NOW);
  const testScope = scopeOf(accountId, 'test');
  const at = NOW.toISOString();
  await deps.products.create({ id: 2, account_id: testScope, name: 'Test serum', description: null, demo: null, created_at: at, updated_at: at });
  return { ...fixture, testScope, testProductId: 2 };
}

const refusal = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? { status: error.status, code: error.code } : Promise.reject(error)),
  );

describe('a job in the test scope', () => {
  test('is made when the live allowance is used up, and the live allowance stays as it was', async () => {
    const { deps, accountId, productId, ledger, testScope, testProductId } = await fullAccountWithTestProduct();
    expect(await refusal(createVideoJob(deps, { accountId, request: promptRequest(productId) }))).toEqual({ status: 402, code: 'allowance_exhausted' });
    const before = await ledger.periodUsage(accountId, PERIOD);
    const job = await createVideoJob(deps, { accountId: testScope, request: promptRequest(testProductId) });
    expect(job.account_id).toBe(testScope);
    expect(await ledger.periodUsage(accountId, PERIOD)).toEqual(before);
  });

  test('is quoted without a 402, whatever the live allowance', async () => {
    const { deps, testScope, testProductId } = await fullAccountWithTestProduct();
    const quote = await quoteVideoJob(deps, { accountId: testScope, request: promptRequest(testProductId) });
    expect(quote).toMatchObject({ valid: true, units: 1 });
  });

  test('cannot name a live product, nor a live job a test product: each is 404 naming product_id', async () => {
    const { deps, accountId, productId, testScope, testProductId } = await fullAccountWithTestProduct();
    expect(await refusal(createVideoJob(deps, { accountId: testScope, request: promptRequest(productId) }))).toEqual({ status: 404, code: 'not_found' });
    expect(await refusal(createVideoJob(deps, { accountId, request: promptRequest(testProductId) }))).toEqual({ status: 404, code: 'not_found' });
  });
});
