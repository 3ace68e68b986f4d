/**
 * The webhook store on DynamoDB Local: an event is fanned out exactly once however many dispatchers
 * race; a due delivery is claimed by exactly one worker and recorded once per attempt; a lane lets
 * only its oldest pending delivery be due, and the next becomes due when it settles; events written
 * with a state change exist exactly when the change does.
 */
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { watchOutboxInserts } from '#adapters/dynamodb/webhook-outbox';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';
import { startTestTable, type TestTable } from '#test-support/dynamodb';

let table: TestTable;
let store: DynamoWebhookStore;
beforeAll(async () => {
  table = await startTestTable();
  store = new DynamoWebhookStore(table.table);
});
afterAll(() => table?.stop());

const NOW = new Date('2026-11-28T12:00:00.000Z');
let nextAccount = 100;

function endpointOf(accountId: number, id: string): WebhookEndpoint {
  return {
    id,
    account_id: accountId,
    url: 'https://hooks.example.com/x',
    events: ['video.job.done'],
    description: null,
    enabled: true,
    secret: 'whsec_c2VjcmV0',
    failing_since: null,
    disabled_reason: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

function eventOf(accountId: number, id: string, orderKey = 'job-1'): WebhookEvent {
  return { id, account_id: accountId, type: 'video.job.done', subject: { kind: 'job', id: 1 }, order_key: orderKey, created_at: NOW.toISOString() };
}

function deliveryOf(event: WebhookEvent, endpointId: string, id: string): WebhookDelivery {
  return {
    id,
    account_id: event.account_id,
    endpoint_id: endpointId,
    event_id: event.id,
    type: event.type,
    order_key: event.order_key,
    payload: '{}',
    attempt: 0,
    status: 'pending',
    response_status: null,
    latency_ms: null,
    last_error: null,
    next_attempt_at: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

const dueOf = async (accountId: number) => (await store.dueDeliveries(new Date(NOW.getTime() + 1000), 1000)).filter((ref) => ref.accountId === accountId).map((ref) => ref.deliveryId);

test('an event is fanned out once, however many dispatchers race', async () => {
  const account = nextAccount++;
  await store.createEndpoint(endpointOf(account, 'wh_a'), { limit: 10, refusal: () => new Error('full') });
  const event = eventOf(account, 'evt_race');
  await store.putEvent(event);
  expect((await store.pendingEvents(1000)).map((e) => e.id)).toContain('evt_race');
  const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => store.fanOut(event, [deliveryOf(event, 'wh_a', `whd_race${i}`)], NOW)));
  expect(outcomes.filter(Boolean)).toHaveLength(1);
  expect((await store.listDeliveries(account, 'wh_a', 1, 20)).total).toBe(1);
  expect((await store.pendingEvents(1000)).map((e) => e.id)).not.toContain('evt_race');
});

test('a due delivery is claimed by one worker only, and each attempt is recorded once', async () => {
  const account = nextAccount++;
  const event = eventOf(account, 'evt_claim');
  await store.putEvent(event);
  await store.fanOut(event, [deliveryOf(event, 'wh_b', 'whd_claim')], NOW);
  const ref = { accountId: account, endpointId: 'wh_b', deliveryId: 'whd_claim' };
  const lease = new Date(NOW.getTime() + 30_000);
  const claims = await Promise.all(Array.from({ length: 5 }, () => store.claim(ref, new Date(NOW.getTime() + 1000), lease)));
  const [claimed] = claims.filter((c) => c !== undefined);
  expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
  expect(await dueOf(account)).toEqual([]);

  const outcome = { attempt: 1, status: 'pending', response_status: 500, latency_ms: 3, last_error: 'Answered 500', next_attempt_at: new Date(NOW.getTime() + 5000).toISOString() } as const;
  const records = await Promise.all([store.recordAttempt(claimed!, outcome, NOW), store.recordAttempt(claimed!, outcome, NOW)]);
  expect(records.filter(Boolean)).toHaveLength(1);
  expect(await store.getDelivery(account, 'wh_b', 'whd_claim')).toMatchObject({ attempt: 1, status: 'pending', response_status: 500 });
  // Due again only once its retry time comes.
  expect((await store.dueDeliveries(new Date(NOW.getTime() + 4000), 1000)).map((r) => r.deliveryId)).not.toContain('whd_claim');
  expect((await store.dueDeliveries(new Date(NOW.getTime() + 6000), 1000)).map((r) => r.deliveryId)).toContain('whd_claim');
});

test("a lane's later delivery waits until the earlier one settles", async () => {
  const account = nextAccount++;
  const first = eventOf(account, 'evt_lane1', 'job-7');
  const second = eventOf(account, 'evt_lane2', 'job-7');
  const other = eventOf(account, 'evt_lane3', 'job-8');
  for (const event of [first, second, other]) await store.putEvent(event);
  await store.fanOut(first, [deliveryOf(first, 'wh_c', 'whd_lane1')], NOW);
  await store.fanOut(second, [deliveryOf(second, 'wh_c', 'whd_lane2')], NOW);
  await store.fanOut(other, [deliveryOf(other, 'wh_c', 'whd_lane3')], NOW);
  expect((await dueOf(account)).sort()).toEqual(['whd_lane1', 'whd_lane3']);

  const claimed = await store.claim({ accountId: account, endpointId: 'wh_c', deliveryId: 'whd_lane1' }, new Date(NOW.getTime() + 1000), new Date(NOW.getTime() + 30_000));
  await store.recordAttempt(claimed!, { attempt: 1, status: 'succeeded', response_status: 200, latency_ms: 4, last_error: null, next_attempt_at: null }, NOW);
  expect((await dueOf(account)).sort()).toEqual(['whd_lane2', 'whd_lane3']);
});

/** A processing avatar, its settle outcome and an event for that settle. */
async function processingAvatar() {
  const account = nextAccount++;
  const avatars = new DynamoAvatarStore(table.table);
  const id = await avatars.newAvatarId();
  await avatars.create(
    { id, account_id: account, source: 'prompt', status: 'processing', prompt: 'a smiling person', image_key: null, width: null, height: null, engine: 'local', seed: 1, error: null, created_at: NOW.toISOString(), updated_at: NOW.toISOString() } as never,
    5,
  );
  const outcome = { status: 'ready', image_key: 'k', width: 512, height: 512, engine: 'local', seed: 1, error: null } as const;
  const event = { ...eventOf(account, `evt_avatar${id}`), type: 'avatar.ready', subject: { kind: 'avatar', id } } as WebhookEvent;
  return { avatars, account, id, outcome, event };
}

test('a state change that carries an event writes both or neither', async () => {
  const { avatars, account, id, outcome, event } = await processingAvatar();
  expect(await avatars.settle(account, id, outcome, NOW, event)).toMatchObject({ status: 'ready' });
  // A second settle finds it no longer processing: no change, and its event is not written.
  const again = { ...event, id: `evt_avatar${id}_again` };
  expect(await avatars.settle(account, id, outcome, NOW, again)).toBeUndefined();
  const pending = (await store.pendingEvents(1000)).map((e) => e.id);
  expect(pending).toContain(event.id);
  expect(pending).not.toContain(again.id);
});

test('the outbox watcher (the local stream) sees each write that put an event, and no other', async () => {
  let seen = 0;
  watchOutboxInserts(table.table, () => seen++);
  try {
    const { avatars, account, id, outcome, event } = await processingAvatar();
    expect(seen).toBe(0);
    await avatars.settle(account, id, outcome, NOW, event);
    expect(seen).toBe(1);
    // Refused by its condition: the event was not written, so nothing is woken.
    expect(await avatars.settle(account, id, outcome, NOW, { ...event, id: `evt_avatar${id}_again` })).toBeUndefined();
    expect(seen).toBe(1);
  } finally {
    table.table.client.middlewareStack.remove('watchOutboxInserts');
  }
});
