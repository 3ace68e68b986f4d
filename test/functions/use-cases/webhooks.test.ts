/**
 * The webhook use cases over the in-memory store and a scripted receiver, on a stopped clock: every
 * attempt kept in the delivery's log; a manual retry sent once, now, leaving the retry schedule
 * alone, and recorded beside an automatic attempt in flight; secret rotation signing with both
 * secrets for its overlap; `*` taking every event; and the account's sent events listed in order.
 */
import { verifyWebhook } from '#client/webhooks';
import { RETRY_DELAYS_S } from '#domain/webhook-attempts';
import type { AttemptResult, WebhookEvent } from '#domain/webhooks';
import type { Ports } from '#ports/ports';
import type { WebhookReceivers, WebhookRequest } from '#ports/webhook-receivers';
import { deliverDueWebhooks } from '#use-cases/deliver-webhooks';
import { dispatchWebhookEvents } from '#use-cases/dispatch-webhook-events';
import { retryDelivery, sendTestEvent } from '#use-cases/webhook-deliveries';
import { createWebhook, rotateWebhookSecret, updateWebhook } from '#use-cases/webhook-endpoints';
import { raiseEvent } from '#use-cases/webhook-events';
import { testDependencies } from '#test-support/wiring';
import { MemoryWebhookStore } from '#test-doubles/memory/webhook-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { RecordingMetrics } from '#test-doubles/memory/metrics';

const START = new Date('2026-11-30T12:00:00.000Z');
const ACCOUNT = 7;

/** Answers each request with the next scripted status (200 once the script runs out), and keeps what it was sent. */
class ScriptedReceivers implements WebhookReceivers {
  readonly sent: WebhookRequest[] = [];
  /** Set by hold(): the next send waits until the test answers it (an attempt in flight). */
  private holding = false;
  release?: (result: AttemptResult) => void;
  constructor(private readonly script: number[] = []) {}

  hold(): void {
    this.holding = true;
  }

  async vet(): Promise<string | undefined> {
    return undefined;
  }

  async send(request: WebhookRequest): Promise<AttemptResult> {
    this.sent.push(request);
    if (this.holding) {
      this.holding = false;
      return new Promise<AttemptResult>((resolve) => (this.release = resolve));
    }
    return { kind: 'answered', status: this.script.shift() ?? 200, latencyMs: 7 };
  }
}

let clock: Date;
let store: MemoryWebhookStore;
let receivers: ScriptedReceivers;
let metrics: RecordingMetrics;
let deps: Ports;

function wire(script: number[] = []) {
  clock = START;
  store = new MemoryWebhookStore();
  receivers = new ScriptedReceivers(script);
  metrics = new RecordingMetrics();
  deps = testDependencies({ webhooks: store, webhookReceivers: receivers, products: new MemoryProductStore(), metrics, now: () => clock });
}
const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

async function endpointFor(events: string[] = ['product.demo.ready']) {
  return createWebhook(deps, ACCOUNT, { url: 'https://hooks.example.com/in', events: events as never });
}

/** A state change's event, fanned out to the account's endpoints. */
async function raise(type: WebhookEvent['type'] = 'product.demo.ready', productId = 1) {
  const event = raiseEvent(type, ACCOUNT, { kind: 'product', id: productId }, clock);
  await store.putEvent(event);
  await dispatchWebhookEvents(deps);
  return event;
}

const onlyDelivery = () => {
  expect(store.deliveries.size).toBe(1);
  return [...store.deliveries.values()][0]!;
};

describe('the delivery log', () => {
  beforeEach(() => wire([500, 503, 204]));

  test('keeps every automatic attempt: number, when, outcome in words, duration, answer', async () => {
    await endpointFor();
    await raise();
    expect(await deliverDueWebhooks(deps)).toBe(1);
    advance(RETRY_DELAYS_S[0]);
    expect(await deliverDueWebhooks(deps)).toBe(1);
    advance(RETRY_DELAYS_S[1]);
    expect(await deliverDueWebhooks(deps)).toBe(1);
    const delivery = onlyDelivery();
    expect(delivery).toMatchObject({ status: 'succeeded', attempt: 3, response_status: 204 });
    expect(delivery.attempts).toEqual([
      { number: 1, trigger: 'automatic', at: START.toISOString(), outcome: 'failed', message: 'Answered 500', response_status: 500, duration_ms: 7 },
      { number: 2, trigger: 'automatic', at: '2026-11-30T12:00:05.000Z', outcome: 'failed', message: 'Answered 503', response_status: 503, duration_ms: 7 },
      { number: 3, trigger: 'automatic', at: '2026-11-30T12:05:05.000Z', outcome: 'succeeded', message: 'Answered 204', response_status: 204, duration_ms: 7 },
    ]);
    expect(metrics.named('WebhooksDelivered')).toHaveLength(1);
  });
});

describe('a manual retry', () => {
  test('sends once, now, and leaves the next automatic attempt at its time and number', async () => {
    wire([500, 500, 500, 200]);
    const endpoint = await endpointFor();
    await raise();
    await deliverDueWebhooks(deps);
    const planned = onlyDelivery().next_attempt_at;
    expect(planned).toBe('2026-11-30T12:00:05.000Z');

    advance(2);
    const retried = await retryDelivery(deps, ACCOUNT, endpoint.id, onlyDelivery().id);
    expect(receivers.sent).toHaveLength(2);
    expect(retried).toMatchObject({ status: 'pending', attempt: 2, automatic_attempts: 1, manual_attempts: 1, next_attempt_at: planned, last_error: 'Answered 500' });
    expect(retried.attempts.map((a) => `${a.trigger} ${a.number} ${a.outcome}`)).toEqual(['automatic 1 failed', 'manual 1 failed']);
    // Nothing is due before the planned time...
    advance(2);
    expect(await deliverDueWebhooks(deps)).toBe(0);
    // ...and then the schedule's attempt 2 comes, followed by attempt 3 after the schedule's second delay.
    advance(1);
    expect(await deliverDueWebhooks(deps)).toBe(1);
    expect(onlyDelivery()).toMatchObject({ automatic_attempts: 2, next_attempt_at: new Date(clock.getTime() + RETRY_DELAYS_S[1] * 1000).toISOString() });
    advance(RETRY_DELAYS_S[1]);
    await deliverDueWebhooks(deps);
    expect(onlyDelivery().attempts.map((a) => `${a.trigger} ${a.number} ${a.outcome}`)).toEqual(['automatic 1 failed', 'manual 1 failed', 'automatic 2 failed', 'automatic 3 succeeded']);
  });

  test("that succeeds settles the delivery, and the record's next event follows", async () => {
    wire([500]);
    const endpoint = await endpointFor(['product.demo.ready', 'product.demo.failed']);
    await raise('product.demo.failed');
    await deliverDueWebhooks(deps);
    advance(1);
    await raise('product.demo.ready');
    const [first, second] = [...store.deliveries.values()].sort((a, b) => a.id.localeCompare(b.id));
    expect(second).toMatchObject({ status: 'pending', next_attempt_at: null });

    const retried = await retryDelivery(deps, ACCOUNT, endpoint.id, first!.id);
    expect(retried).toMatchObject({ status: 'succeeded', next_attempt_at: null, attempt: 2 });
    expect((await store.getDelivery(ACCOUNT, endpoint.id, second!.id))!.next_attempt_at).toBe(clock.toISOString());
    expect(await deliverDueWebhooks(deps)).toBe(1);
    expect(metrics.named('WebhooksDelivered')).toHaveLength(2);
  });

  test('of a delivery that succeeded sends it again and keeps it succeeded, whatever the answer', async () => {
    wire([200, 500]);
    const endpoint = await endpointFor();
    await raise();
    await deliverDueWebhooks(deps);
    const again = await retryDelivery(deps, ACCOUNT, endpoint.id, onlyDelivery().id);
    expect(again).toMatchObject({ status: 'succeeded', attempt: 2, last_error: 'Answered 500', next_attempt_at: null });
    expect(receivers.sent.map((r) => r.headers['webhook-id'])).toEqual([again.event_id, again.event_id]);
  });

  test("to a disabled endpoint is 409 (but a ping's goes); an unknown delivery 404", async () => {
    wire();
    const endpoint = await endpointFor();
    await raise();
    await updateWebhook(deps, ACCOUNT, endpoint.id, { enabled: false });
    await expect(retryDelivery(deps, ACCOUNT, endpoint.id, onlyDelivery().id)).rejects.toMatchObject({ status: 409, code: 'conflict' });
    expect(receivers.sent).toEqual([]);
    await expect(retryDelivery(deps, ACCOUNT, endpoint.id, `whd_${'0'.repeat(24)}`)).rejects.toMatchObject({ status: 404 });
    await expect(retryDelivery(deps, ACCOUNT + 1, endpoint.id, onlyDelivery().id)).rejects.toMatchObject({ status: 404 });

    await sendTestEvent(deps, ACCOUNT, endpoint.id);
    await dispatchWebhookEvents(deps);
    const ping = [...store.deliveries.values()].find((d) => d.type === 'ping')!;
    expect(await retryDelivery(deps, ACCOUNT, endpoint.id, ping.id)).toMatchObject({ status: 'succeeded', manual_attempts: 1 });
  });

  test('made while an automatic attempt is in flight: both are recorded, neither lost', async () => {
    wire();
    const endpoint = await endpointFor();
    await raise();
    receivers.hold();
    const automatic = deliverDueWebhooks(deps);
    while (receivers.sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // The manual retry fails and is recorded first; the automatic one then succeeds over it.
    const scripted = new ScriptedReceivers([502]);
    const manual = await retryDelivery({ ...deps, webhookReceivers: scripted }, ACCOUNT, endpoint.id, onlyDelivery().id);
    expect(manual).toMatchObject({ status: 'pending', manual_attempts: 1, automatic_attempts: 0 });
    receivers.release!({ kind: 'answered', status: 200, latencyMs: 40 });
    expect(await automatic).toBe(1);
    expect(onlyDelivery()).toMatchObject({ status: 'succeeded', attempt: 2, automatic_attempts: 1, manual_attempts: 1, claimed_until: null });
    expect(onlyDelivery().attempts.map((a) => `${a.trigger} ${a.number} ${a.outcome}`)).toEqual(['manual 1 failed', 'automatic 1 succeeded']);
  });
});

describe('secret rotation', () => {
  beforeEach(() => wire());

  test('answers a new secret; until the overlap ends both sign, so either verifies; then only the new one', async () => {
    const endpoint = await endpointFor();
    const rotated = await rotateWebhookSecret(deps, ACCOUNT, endpoint.id, { expires_in_s: 3600 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated).toMatchObject({ previous_secret: endpoint.secret, previous_secret_expires_at: '2026-11-30T13:00:00.000Z' });

    await raise();
    await deliverDueWebhooks(deps);
    const [during] = receivers.sent;
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    // The stopped clock is the signing time; the client's own replay window reads the real one.
    jest.useFakeTimers({ now: clock, doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] });
    try {
      for (const secret of [rotated.secret, endpoint.secret, [endpoint.secret, rotated.secret]]) {
        expect(verifyWebhook(during!.body, during!.headers, secret)).toMatchObject({ type: 'product.demo.ready' });
      }
      advance(3600);
      jest.setSystemTime(clock);
      await raise('product.demo.ready', 2);
      await deliverDueWebhooks(deps);
      const after = receivers.sent[1]!;
      expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(verifyWebhook(after.body, after.headers, rotated.secret)).toMatchObject({ type: 'product.demo.ready' });
      expect(() => verifyWebhook(after.body, after.headers, endpoint.secret)).toThrow('No matching signature found');
    } finally {
      jest.useRealTimers();
    }
  });

  test('takes 24 hours unless told; 0 ends the old secret at once', async () => {
    const endpoint = await endpointFor();
    expect(await rotateWebhookSecret(deps, ACCOUNT, endpoint.id, {})).toMatchObject({ previous_secret_expires_at: '2026-12-01T12:00:00.000Z' });
    expect(await rotateWebhookSecret(deps, ACCOUNT, endpoint.id, { expires_in_s: 0 })).toMatchObject({ previous_secret: null, previous_secret_expires_at: null });
  });

  test('a rotation that finds the secret changed under it is 409 and writes nothing; an unknown endpoint 404', async () => {
    const endpoint = await endpointFor();
    const racing = { ...deps, webhooks: Object.assign(Object.create(store), { getEndpoint: async () => ({ ...(await store.getEndpoint(ACCOUNT, endpoint.id))!, secret: 'whsec_stale' }) }) };
    await expect(rotateWebhookSecret(racing, ACCOUNT, endpoint.id, {})).rejects.toMatchObject({ status: 409 });
    expect((await store.getEndpoint(ACCOUNT, endpoint.id))!.secret).toBe(endpoint.secret);
    await expect(rotateWebhookSecret(deps, ACCOUNT, 'wh_00000000000000000000', {})).rejects.toMatchObject({ status: 404 });
  });
});

describe('events', () => {
  beforeEach(() => wire());

  test('"*" takes every event type', async () => {
    await endpointFor(['*']);
    await raise('product.demo.ready');
    await raise('product.demo.failed', 2);
    expect([...store.deliveries.values()].map((d) => d.type).sort()).toEqual(['product.demo.failed', 'product.demo.ready']);
  });

  test('are listed with the body their deliveries send, endpoints or not, oldest first, and followed never past one still waiting', async () => {
    const first = await raise('product.demo.ready', 1);
    advance(1);
    const second = await raise('product.demo.failed', 2);
    advance(1);
    const waiting = raiseEvent('product.demo.ready', ACCOUNT, { kind: 'product', id: 3 }, clock);
    await store.putEvent(waiting);
    advance(1);
    const third = await raiseAfterWaiting();
    expect(store.deliveries.size).toBe(0);

    expect((await store.sentEvents(ACCOUNT, { limit: 10 })).map((e) => e.id)).toEqual([first.id, second.id, third.id]);
    expect(JSON.parse((await store.sentEvents(ACCOUNT, { after: first.id, limit: 1 }))[0]!.payload)).toEqual({
      id: second.id,
      type: 'product.demo.failed',
      created_at: second.created_at,
      data: { id: 2, deleted: true },
    });
    expect((await store.sentEvents(ACCOUNT, { after: first.id, limit: 10 })).map((e) => e.id)).toEqual([second.id]);
    await dispatchWebhookEvents(deps);
    expect((await store.sentEvents(ACCOUNT, { after: second.id, limit: 10 })).map((e) => e.id)).toEqual([waiting.id, third.id]);
    expect(await store.sentEvents(ACCOUNT + 1, { limit: 10 })).toEqual([]);

    /** An event fanned out while an older one still waits (two dispatchers): listed only once the older one is. */
    async function raiseAfterWaiting() {
      const event = raiseEvent('product.demo.ready', ACCOUNT, { kind: 'product', id: 4 }, clock);
      await store.putEvent(event);
      await store.fanOut(event, JSON.stringify({ id: event.id }), [], clock);
      return event;
    }
  });

  test('ids sort in the order the events were raised', () => {
    const ids = [0, 1, 1000, 86_400_000].map((ms) => raiseEvent('avatar.ready', ACCOUNT, { kind: 'avatar', id: 1 }, new Date(START.getTime() + ms)).id);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
  });
});
