/**
 * What every WebhookStore must do, run against the DynamoDB store and the in-memory double the use
 * cases are tested over: an event is fanned out exactly once however many dispatchers race, its body
 * kept; a due delivery is claimed by exactly one worker, and a delivery is written only over the
 * revision it was read at (its attempt log with it); a lane lets only its oldest pending delivery be
 * due, and the next becomes due when it settles; the account's sent events list in order, followed
 * never past one still waiting; a rotation is made only over the secret it replaces.
 */
import type { DeliveryChange } from '#domain/webhook-attempts';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#domain/webhooks';
import type { WebhookStore } from '#ports/webhook-store';

const NOW = new Date('2026-11-28T12:00:00.000Z');

function endpointOf(accountId: number, id: string): WebhookEndpoint {
  return {
    id,
    account_id: accountId,
    url: 'https://hooks.example.com/x',
    events: ['video.job.done'],
    description: null,
    enabled: true,
    secret: 'whsec_c2VjcmV0',
    previous_secret: null,
    previous_secret_expires_at: null,
    failing_since: null,
    disabled_reason: null,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

export function eventOf(accountId: number, id: string, orderKey = 'job-1'): WebhookEvent {
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
    automatic_attempts: 0,
    manual_attempts: 0,
    attempts: [],
    status: 'pending',
    response_status: null,
    latency_ms: null,
    last_error: null,
    next_attempt_at: null,
    claimed_until: null,
    revision: 0,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
  };
}

/** What one automatic attempt changes, as settleAttempt would compute it. */
function attemptChange(read: WebhookDelivery, status: number, next: string | null): DeliveryChange {
  const failed = status >= 300;
  return {
    attempt: read.attempt + 1,
    automatic_attempts: read.automatic_attempts + 1,
    manual_attempts: read.manual_attempts,
    attempts: [
      ...read.attempts,
      { number: read.automatic_attempts + 1, trigger: 'automatic', at: NOW.toISOString(), outcome: failed ? 'failed' : 'succeeded', message: `Answered ${status}`, response_status: status, duration_ms: 3 },
    ],
    status: failed ? 'pending' : 'succeeded',
    response_status: status,
    latency_ms: 3,
    last_error: failed ? `Answered ${status}` : null,
    next_attempt_at: failed ? next : null,
    claimed_until: null,
  };
}

const dueOf = async (store: WebhookStore, accountId: number) => (await store.dueDeliveries(new Date(NOW.getTime() + 1000), 1000)).filter((ref) => ref.accountId === accountId).map((ref) => ref.deliveryId);

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function webhookStoreContract(storeOf: () => WebhookStore, firstAccount: number): void {
  let nextAccount = firstAccount;
  let store: WebhookStore;
  beforeAll(() => {
    store = storeOf();
  });

  test('pending events: the oldest `limit` of all, however many there are and wherever they are kept', async () => {
    const account = nextAccount++;
    // Older than any other test's events, so they are the store's oldest.
    const old = (i: number) => ({ ...eventOf(account, `evt_old_${String(i).padStart(2, '0')}`), created_at: new Date(Date.UTC(2020, 0, 1, 0, 0, i)).toISOString() });
    for (let i = 0; i < 24; i++) await store.putEvent(old(23 - i));
    expect((await store.pendingEvents(5)).map((e) => e.id)).toEqual([0, 1, 2, 3, 4].map((i) => old(i).id));
    expect((await store.pendingEvents(1000)).filter((e) => e.account_id === account)).toHaveLength(24);
    for (let i = 0; i < 24; i++) await store.fanOut(old(i), '{}', [], NOW);
    expect((await store.pendingEvents(1000)).filter((e) => e.account_id === account)).toEqual([]);
  });

  test('due deliveries: those due longest first, `limit` of them, however many are due', async () => {
    const account = nextAccount++;
    await store.createEndpoint(endpointOf(account, 'wh_many'), { limit: 10, refusal: () => new Error('full') });
    const early = (i: number) => new Date(Date.UTC(2020, 0, 2, 0, 0, i));
    for (let i = 0; i < 20; i++) {
      const event = eventOf(account, `evt_due_${i}`, `lane-${i}`);
      await store.putEvent(event);
      await store.fanOut(event, '{}', [deliveryOf(event, 'wh_many', `whd_due_${String(i).padStart(2, '0')}`)], early(19 - i));
    }
    const due = await store.dueDeliveries(early(30), 4);
    expect(due.map((ref) => ref.deliveryId)).toEqual(['whd_due_19', 'whd_due_18', 'whd_due_17', 'whd_due_16']);
    expect((await store.dueDeliveries(early(30), 1000)).filter((ref) => ref.accountId === account)).toHaveLength(20);
  });

  test('an event is fanned out once, however many dispatchers race', async () => {
    const account = nextAccount++;
    await store.createEndpoint(endpointOf(account, 'wh_a'), { limit: 10, refusal: () => new Error('full') });
    const event = eventOf(account, 'evt_race');
    await store.putEvent(event);
    expect((await store.pendingEvents(1000)).map((e) => e.id)).toContain('evt_race');
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => store.fanOut(event, '{"id":"evt_race"}', [deliveryOf(event, 'wh_a', `whd_race${i}`)], NOW)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await store.listDeliveries(account, 'wh_a', 1, 20)).total).toBe(1);
    expect((await store.pendingEvents(1000)).map((e) => e.id)).not.toContain('evt_race');
  });

  test('a due delivery is claimed by one worker only, and each attempt is recorded once', async () => {
    const account = nextAccount++;
    const event = eventOf(account, 'evt_claim');
    await store.putEvent(event);
    await store.fanOut(event, '{}', [deliveryOf(event, 'wh_b', 'whd_claim')], NOW);
    const ref = { accountId: account, endpointId: 'wh_b', deliveryId: 'whd_claim' };
    const lease = new Date(NOW.getTime() + 30_000);
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claim(ref, new Date(NOW.getTime() + 1000), lease)));
    const [claimed] = claims.filter((c) => c !== undefined);
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    expect(await dueOf(store, account)).toEqual([]);

    expect(claimed).toMatchObject({ claimed_until: lease.toISOString(), next_attempt_at: lease.toISOString(), revision: 1 });

    const change = attemptChange(claimed!, 500, new Date(NOW.getTime() + 5000).toISOString());
    const records = await Promise.all([store.recordAttempt(claimed!, change, NOW), store.recordAttempt(claimed!, change, NOW)]);
    expect(records.filter(Boolean)).toHaveLength(1);
    const recorded = await store.getDelivery(account, 'wh_b', 'whd_claim');
    expect(recorded).toMatchObject({ attempt: 1, automatic_attempts: 1, status: 'pending', response_status: 500, claimed_until: null, revision: 2, attempts: change.attempts });
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
    await store.fanOut(first, '{}', [deliveryOf(first, 'wh_c', 'whd_lane1')], NOW);
    await store.fanOut(second, '{}', [deliveryOf(second, 'wh_c', 'whd_lane2')], NOW);
    await store.fanOut(other, '{}', [deliveryOf(other, 'wh_c', 'whd_lane3')], NOW);
    expect((await dueOf(store, account)).sort()).toEqual(['whd_lane1', 'whd_lane3']);

    // A manual retry of the waiting one reads it before the head settles...
    const waitingRead = (await store.getDelivery(account, 'wh_c', 'whd_lane2'))!;
    const claimed = await store.claim({ accountId: account, endpointId: 'wh_c', deliveryId: 'whd_lane1' }, new Date(NOW.getTime() + 1000), new Date(NOW.getTime() + 30_000));
    await store.recordAttempt(claimed!, attemptChange(claimed!, 200, null), NOW);
    expect((await dueOf(store, account)).sort()).toEqual(['whd_lane2', 'whd_lane3']);
    // ...so its outcome, computed while it waited, is refused: it must not set the delivery waiting again.
    const stale = { ...attemptChange(waitingRead, 500, null), automatic_attempts: 0, manual_attempts: 1 };
    expect(await store.recordAttempt(waitingRead, stale, NOW)).toBe(false);
    expect((await dueOf(store, account)).sort()).toEqual(['whd_lane2', 'whd_lane3']);
  });

  test("the account's sent events: oldest first, bodies as sent, no pings, followed never past one still waiting", async () => {
    const account = nextAccount++;
    const id = (n: number) => `evt_${String(n).padStart(12, '0')}${'a'.repeat(20)}`;
    const events = [1, 2, 3, 4].map((n) => ({ ...eventOf(account, id(n), `product-${n}`), type: 'product.demo.ready' as const }));
    const ping = { ...eventOf(account, id(5)), type: 'ping' as const, endpoint_id: 'wh_p' };
    for (const event of [...events, ping]) await store.putEvent(event);
    const body = (event: WebhookEvent) => JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: { id: 1 } });
    // The third waits in the outbox while the fourth and the ping are fanned out.
    for (const event of [events[0]!, events[1]!, events[3]!, ping]) expect(await store.fanOut(event, body(event), [], NOW)).toBe(true);

    expect((await store.sentEvents(account, { after: id(1), limit: 10 })).map((e) => e.id)).toEqual([id(2)]);
    expect(await store.sentEvents(account, { after: id(0), limit: 10 })).toEqual([events[0], events[1]].map((e) => ({ id: e!.id, payload: body(e!) })));
    // The newest ones, without a cursor, leave the waiting one out.
    expect((await store.sentEvents(account, { limit: 2 })).map((e) => e.id)).toEqual([id(2), id(4)]);
    await store.fanOut(events[2]!, body(events[2]!), [], NOW);
    expect((await store.sentEvents(account, { after: id(1), limit: 10 })).map((e) => e.id)).toEqual([id(2), id(3), id(4)]);
    expect((await store.sentEvents(account, { after: id(2), limit: 1 })).map((e) => e.id)).toEqual([id(3)]);
    expect((await store.sentEvents(account, { limit: 2 })).map((e) => e.id)).toEqual([id(3), id(4)]);
    expect(await store.sentEvents(account, { after: id(4), limit: 10 })).toEqual([]);
  });

  test("a rotation is made over the secret it replaces: one made over a secret since replaced writes nothing", async () => {
    const account = nextAccount++;
    await store.createEndpoint(endpointOf(account, 'wh_rot'), { limit: 10, refusal: () => new Error('full') });
    const rotation = { secret: 'whsec_bmV3', previous_secret: 'whsec_c2VjcmV0', previous_secret_expires_at: '2026-11-29T12:00:00.000Z' };
    expect(await store.updateEndpoint(account, 'wh_rot', rotation, NOW, 'whsec_c2VjcmV0')).toMatchObject(rotation);
    expect(await store.updateEndpoint(account, 'wh_rot', { ...rotation, secret: 'whsec_b3RoZXI=' }, NOW, 'whsec_c2VjcmV0')).toBeUndefined();
    expect(await store.getEndpoint(account, 'wh_rot')).toMatchObject(rotation);
  });
}
