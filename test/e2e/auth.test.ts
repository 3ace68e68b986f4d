import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { apiClient, expectError, startTestStack, type TestStack } from '#test-support/local-stack';

let t: TestStack;
beforeAll(async () => {
  t = await startTestStack();
});
afterAll(() => t?.stop());
const apiKeys = () => t.stack.dependencies.apiKeys;

describe('authentication', () => {
  test('a request without a key is 401 unauthorized', async () => {
    expectError(await apiClient(t.stack.apiUrl).get('/products'), 401, 'unauthorized');
  });

  test.each([
    ['no scheme', 'rsk_abc'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bearer token of the wrong shape', 'Bearer not-a-key'],
    ['an empty bearer', 'Bearer '],
  ])('a malformed Authorization header (%s) is 401', async (_label, header) => {
    expectError(await apiClient(t.stack.apiUrl).get('/products', { authorization: header }), 401, 'unauthorized');
  });

  test('a well-formed key that was never issued is 401', async () => {
    const fake = `rsk_${'A'.repeat(43)}`;
    expectError(await apiClient(t.stack.apiUrl, fake).get('/products'), 401, 'unauthorized');
  });

  test('a revoked key is refused on the very next request', async () => {
    const { accountId, api } = await t.newAccount();
    const second = await apiKeys().create(accountId, ['read']);
    const other = apiClient(t.stack.apiUrl, second.key);
    expect((await other.get('/products')).status).toBe(200);
    await apiKeys().revoke(second.id);
    const res = await other.get('/products');
    expectError(res, 401, 'unauthorized');
    expect(res.body.error).toMatch(/revoked/);
    // The account's other key is untouched.
    expect((await api.get('/products')).status).toBe(200);
  });

  test("a key's last use is recorded by the time the response arrives; the raw key is never stored", async () => {
    const { accountId, api, key } = await t.newAccount();
    expect((await apiKeys().listOfAccount(accountId))[0]!.last_used_at).toBeNull();
    const before = Date.now();
    await api.get('/usage');
    const [record] = await apiKeys().listOfAccount(accountId);
    expect(Date.parse(record!.last_used_at!)).toBeGreaterThanOrEqual(before - 1000);
    const everything = await t.stack.table.client.send(new ScanCommand({ TableName: t.stack.table.name }));
    expect(JSON.stringify(everything.Items)).not.toContain(key);
  });

  test('a key without the write scope may read but gets 403 forbidden on writes', async () => {
    const { api } = await t.newAccount({ scopes: ['read'] });
    expect((await api.get('/products')).status).toBe(200);
    expectError(await api.post('/products', { name: 'x' }), 403, 'forbidden');
  });

  test("another account's product is 404, never 403", async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    const created = await owner.api.post('/products', { name: 'Private' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expectError(await stranger.api.get(`/products/${id}`), 404, 'not_found');
    expectError(await stranger.api.patch(`/products/${id}`, { name: 'mine' }), 404, 'not_found');
    expectError(await stranger.api.delete(`/products/${id}`), 404, 'not_found');
    expect((await stranger.api.get('/products')).body.meta.total).toBe(0);
    expect((await owner.api.get(`/products/${id}`)).body.data.name).toBe('Private');
  });
});
