import { rateLimitsOnStoppedClock } from '#test-support/clock';
import { expectError, startTestStack, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack({ adjustDependencies: rateLimitsOnStoppedClock });
});
afterAll(() => t?.stop());

describe('POST /hooks', () => {
  test('answers ten ideas for the product, each fit for hook_text', async () => {
    const { api } = await t.newAccount();
    const product = (await api.post('/products', { name: 'Glow Serum', description: 'A vitamin C serum that fades dark spots in 2 weeks.' })).body.data;
    const res = await api.post('/hooks', { product_id: product.id });
    expect(res.status).toBe(200);
    expect(res.body.data.product_id).toBe(product.id);
    expect(res.body.data.hooks).toHaveLength(10);
    for (const hook of res.body.data.hooks) {
      expect(hook).toEqual({ text: expect.any(String), format: expect.any(String) });
      expect(hook.text.length).toBeLessThanOrEqual(100);
    }
    expect(res.body.data.hooks.some((h: { text: string }) => h.text.includes('Glow Serum'))).toBe(true);
  });

  test('takes product_id from a form body too', async () => {
    const { api } = await t.newAccount();
    const product = (await api.post('/products', { name: 'Form Lamp' })).body.data;
    const res = await api.send('POST', '/hooks', {
      body: `product_id=${product.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
  });

  test.each([
    ['no product_id', {}],
    ['a product_id that is not an integer', { product_id: 'abc' }],
    ['a fractional product_id', { product_id: 1.5 }],
    ['a negative product_id', { product_id: -3 }],
    ['an unknown field', { product_id: 1, tone: 'funny' }],
  ])('%s is 400', async (_label, body) => {
    const { api } = await t.newAccount();
    expectError(await api.post('/hooks', body), 400, 'bad_request');
  });

  test("another account's product is 404 naming the field", async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const product = (await owner.api.post('/products', { name: 'Mine' })).body.data;
    const res = await stranger.api.post('/hooks', { product_id: product.id });
    expectError(res, 404, 'not_found');
    expect(res.body.error).toMatch(/product_id/);
  });
});

describe('the AI-helper backstops', () => {
  test('a free account gets 5 per minute, exactly, even when asked concurrently; then 429 with Retry-After', async () => {
    const { api } = await t.newAccount({ plan: 'free' });
    const product = (await api.post('/products', { name: 'Busy' })).body.data;
    const responses = await Promise.all(Array.from({ length: 9 }, () => api.post('/hooks', { product_id: product.id })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = responses.find((r) => r.status === 429)!;
    expectError(refused, 429, 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatch(/per minute/);
  });

  test('bad requests and unknown products do not use the budget', async () => {
    const { api } = await t.newAccount({ plan: 'free' });
    for (let i = 0; i < 6; i++) await api.post('/hooks', { product_id: 'nope' });
    for (let i = 0; i < 6; i++) await api.post('/hooks', { product_id: 999999 });
    const product = (await api.post('/products', { name: 'Fresh' })).body.data;
    expect((await api.post('/hooks', { product_id: product.id })).status).toBe(200);
  });
});
