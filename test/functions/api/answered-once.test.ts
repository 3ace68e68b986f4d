import { ROUTES, routeKey, type HandlerGroup } from '#functions/routes';
import { answeredOnce, isAnsweredOnce } from '#api/answered-once';
import { productOperations } from '#api/products';
import { avatarOperations } from '#api/avatars';
import { musicOperations } from '#api/music';
import { reactionOperations } from '#api/reactions';
import { socialConnectionOperations } from '#api/social-connections';
import { socialPostOperations } from '#api/social-posts';
import { uploadOperations } from '#api/uploads';
import { webhookOperations } from '#api/webhooks';
import { apiKeyOperations } from '#api/api-keys';
import { authOperations } from '#api/auth';
import { finishedVideoOperations } from '#api/finished-videos';
import { videoJobOperations } from '#api/video-jobs';
import type { AuthenticatedRequest } from '#http/api-types';
import { MemoryIdempotentAnswers } from '#test-doubles/memory/idempotent-answers';

/** The operation tables of the groups with creating POSTs, as their handler modules merge them. */
const TABLES: Partial<Record<HandlerGroup, Record<string, unknown>>> = {
  products: productOperations,
  avatars: avatarOperations,
  music: musicOperations,
  reactions: reactionOperations,
  social: { ...socialConnectionOperations, ...socialPostOperations },
  uploads: uploadOperations,
  webhooks: webhookOperations,
  accounts: { ...authOperations, ...apiKeyOperations },
  videos: { ...finishedVideoOperations, ...videoJobOperations },
};

test('every route that records its answer for an Idempotency-Key runs an operation wrapped to do so, and no other route does', () => {
  const answered = ROUTES.filter((r) => r.idempotencyKey === 'answer').map(routeKey);
  expect(answered).toEqual([
    'POST /api/v1/products',
    'POST /api/v1/products/sample',
    'POST /api/v1/avatars',
    'POST /api/v1/music',
    'POST /api/v1/reactions',
    'POST /api/v1/social/posts',
    'POST /api/v1/uploads',
    'POST /api/v1/webhooks',
    // Its answer shows the new secret, which the endpoint keeps in clear anyway to sign with (unlike POST /keys).
    'POST /api/v1/webhooks/{webhook_id}/rotate-secret',
  ]);
  for (const route of ROUTES) {
    const table = TABLES[route.group];
    if (!table) continue;
    expect([routeKey(route), isAnsweredOnce(table[route.operation])]).toEqual([routeKey(route), route.idempotencyKey === 'answer']);
  }
});

describe('an operation answered once per key', () => {
  const request = (key?: string, body = '{"name":"x"}') =>
    ({
      event: { rawPath: '/api/v1/products', requestContext: { http: { method: 'POST' } }, headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body },
      principal: { accountId: 1 },
      deps: { idempotentAnswers: new MemoryIdempotentAnswers(), now: () => new Date('2026-11-30T12:00:00Z') },
    }) as unknown as AuthenticatedRequest;

  test('without a key runs every time, and with one gives the first answer again with Idempotent-Replayed', async () => {
    let made = 0;
    const create = answeredOnce(async () => ({ statusCode: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { id: ++made } }) }));
    await create(request());
    await create(request());
    expect(made).toBe(2);
    const keyed = request('k');
    const first = await create(keyed);
    const again = await create({ ...keyed, event: { ...keyed.event } } as AuthenticatedRequest);
    expect(first).toEqual({ statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"data":{"id":3}}' });
    expect(again).toEqual({ ...first, headers: { ...first.headers, 'idempotent-replayed': 'true' } });
    expect(made).toBe(3);
  });
});
