/**
 * A video whose file is past its plan's retention, as the API answers it (over the in-memory stores,
 * through the API handler): the list keeps the record and says `expired: true`; fetching it for
 * fresh links is 410 Gone `video_expired` in the error envelope (publishing it: publish-post.test.ts).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApiHandler } from '#http/api-handler';
import { finishedVideoOperations } from '#api/finished-videos';
import type { Video } from '#domain/video';
import { testDependencies } from '#test-support/wiring';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryApiKeyStore } from '#test-doubles/memory/api-key-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { MemoryVideoLibrary } from '#test-doubles/memory/video-library';
import { MemoryAllowanceLedger } from '#test-doubles/memory/allowance-ledger';
import { MemoryJobStore } from '#test-doubles/memory/job-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const NOW = new Date('2026-06-01T12:00:00Z');

function event(key: string, route: string, pathParameters?: Record<string, string>): APIGatewayProxyEventV2 {
  const [method, path] = route.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey: route,
    rawPath: path.replace('{id}', pathParameters?.id ?? ''),
    rawQueryString: '',
    headers: { authorization: `Bearer ${key}` },
    ...(pathParameters ? { pathParameters } : {}),
    requestContext: { requestId: 'req-1', http: { method, path } } as never,
    isBase64Encoded: false,
  };
}

const videoOf = (accountId: number, id: number, expiresAt: string | undefined): Video => ({
  id,
  account_id: accountId,
  job_id: 100 + id,
  product_id: 1,
  key: `accounts/${accountId}/videos/${id}/video.mp4`,
  poster_key: `accounts/${accountId}/videos/${id}/poster.jpg`,
  duration_s: 9,
  width: 1080,
  height: 1920,
  size_bytes: 1000,
  ...(expiresAt ? { retention_days: 30, file_expires_at: expiresAt } : {}),
  created_at: '2026-04-01T10:00:00.000Z',
});

async function setup() {
  const accounts = new MemoryAccountStore();
  const apiKeys = new MemoryApiKeyStore(accounts);
  const videos = new MemoryVideoLibrary();
  const ledger = new MemoryAllowanceLedger();
  const account = await accounts.create('a', 'free', NOW);
  const key = (await apiKeys.create(account.id, ['read', 'write'])).key;
  // Expired yesterday; expires tomorrow; made before retention existed.
  videos.putNew(videoOf(account.id, 1, '2026-05-31T00:00:00.000Z'));
  videos.putNew(videoOf(account.id, 2, '2026-06-02T00:00:00.000Z'));
  videos.putNew(videoOf(account.id, 3, undefined));
  const deps = testDependencies({
    accounts,
    apiKeys,
    videos,
    rateLimits: new MemoryRateLimiter(() => NOW.getTime()),
    jobs: new MemoryJobStore(ledger, videos),
    products: new MemoryProductStore(),
    blobs: new MemoryBlobStore(),
    now: () => NOW,
  });
  const handler = createApiHandler(finishedVideoOperations as never, () => deps);
  const call = async (route: string, pathParameters?: Record<string, string>) => {
    const result = (await handler(event(key, route, pathParameters), context)) as { statusCode: number; body: string };
    return { status: result.statusCode, body: JSON.parse(result.body) };
  };
  return { call };
}

describe('a video whose file expired', () => {
  test('GET /videos/{id} is 410 Gone with code video_expired, saying when and why, in the error envelope', async () => {
    const { call } = await setup();
    const answer = await call('GET /api/v1/videos/{id}', { id: '1' });
    expect(answer.status).toBe(410);
    expect(answer.body).toMatchObject({ code: 'video_expired', request_id: expect.any(String), doc_url: expect.stringContaining('#video_expired') });
    expect(answer.body.error).toMatch(/2026-05-31T00:00:00.000Z.*kept 30 days/);
  });

  test('a video still within retention, and one made before retention, answer 200 with expires_at and expired: false', async () => {
    const { call } = await setup();
    expect((await call('GET /api/v1/videos/{id}', { id: '2' })).body.data).toMatchObject({ id: 2, expires_at: '2026-06-02T00:00:00.000Z', expired: false, url: expect.any(String) });
    expect((await call('GET /api/v1/videos/{id}', { id: '3' })).body.data).toMatchObject({ id: 3, expires_at: null, expired: false });
  });

  test('GET /videos keeps listing it, with expired: true, until it is deleted', async () => {
    const { call } = await setup();
    const list = await call('GET /api/v1/videos');
    expect(list.status).toBe(200);
    expect(list.body.data.map((v: { id: number; expired: boolean }) => [v.id, v.expired]).sort()).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(list.body.meta).toMatchObject({ total: 3 });
  });
});
