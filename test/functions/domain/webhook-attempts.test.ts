/**
 * What an attempt does to a delivery: which outcome succeeds, is retried (and when), fails for good or
 * disables the endpoint; how a manual retry leaves the schedule alone; and the bounded attempt log.
 */
import { ATTEMPT_LOG_LIMIT, RETRY_DELAYS_S, giveUp, logAttempt, settleAttempt, type DeliveryChange } from '#domain/webhook-attempts';
import { WEBHOOK_LIMITS, type AttemptResult, type DeliveryAttempt } from '#domain/webhooks';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const SENT = new Date('2026-11-28T11:59:59.500Z');
const healthy = { failing_since: null };
const answered = (status: number): AttemptResult => ({ kind: 'answered', status, latencyMs: 12 });
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();
const automatic = (result: AttemptResult) => ({ trigger: 'automatic' as const, sentAt: SENT, result });
const manual = (result: AttemptResult) => ({ trigger: 'manual' as const, sentAt: SENT, result });

type Before = Omit<DeliveryChange, 'response_status' | 'latency_ms' | 'last_error'>;
function delivery(fields: Partial<Before> = {}): Before {
  return { attempt: 0, automatic_attempts: 0, manual_attempts: 0, attempts: [], status: 'pending', next_attempt_at: NOW.toISOString(), claimed_until: null, ...fields };
}
/** A delivery after `n` failed automatic attempts, its next one due at `due`. */
const afterFailures = (n: number, due = later(600)) => delivery({ attempt: n, automatic_attempts: n, next_attempt_at: due, claimed_until: due });

describe('an automatic attempt', () => {
  test.each([200, 201, 204, 299])('a %i succeeds, clears the failure streak and is logged', (status) => {
    const outcome = settleAttempt(delivery({ claimed_until: later(30) }), { failing_since: '2026-11-27T00:00:00.000Z' }, automatic(answered(status)), NOW);
    expect(outcome).toEqual({
      delivery: {
        attempt: 1,
        automatic_attempts: 1,
        manual_attempts: 0,
        attempts: [{ number: 1, trigger: 'automatic', at: SENT.toISOString(), outcome: 'succeeded', message: `Answered ${status}`, response_status: status, duration_ms: 12 }],
        status: 'succeeded',
        response_status: status,
        latency_ms: 12,
        last_error: null,
        next_attempt_at: null,
        claimed_until: null,
      },
      endpoint: { failing_since: null },
    });
  });

  test('failures are retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then fail for good', () => {
    const seen: (string | null)[] = [];
    for (let n = 0; n <= RETRY_DELAYS_S.length; n++) {
      const outcome = settleAttempt(afterFailures(n), healthy, automatic(answered(500)), NOW);
      seen.push(outcome.delivery.status === 'pending' ? outcome.delivery.next_attempt_at : outcome.delivery.status);
    }
    expect(seen).toEqual([later(5), later(300), later(1800), later(7200), later(18000), later(36000), later(36000), 'failed']);
    expect(RETRY_DELAYS_S.reduce((sum, s) => sum + s, 0) / 3600).toBeCloseTo(27.6, 1);
  });

  test.each<[string, AttemptResult, string]>([
    ['a 5xx', answered(503), 'Answered 503'],
    ['a 4xx other than 410', answered(404), 'Answered 404'],
    ['a redirect (never followed)', answered(302), 'Answered 302: redirects are not followed; point the endpoint at the final URL'],
    ['no answer', { kind: 'unreachable', message: 'No answer within 10 s', latencyMs: 10_000 }, 'No answer within 10 s'],
    ['a refused address', { kind: 'refused', message: 'resolves to 10.0.0.1 (private)', latencyMs: 1 }, 'resolves to 10.0.0.1 (private)'],
  ])('%s is retried, says why in words, and starts the failure streak', (_, result, message) => {
    const outcome = settleAttempt(delivery(), healthy, automatic(result), NOW);
    expect(outcome.delivery).toMatchObject({ status: 'pending', last_error: message, next_attempt_at: later(5) });
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ number: 1, trigger: 'automatic', outcome: 'failed', message })]);
    expect(outcome.endpoint).toEqual({ failing_since: NOW.toISOString() });
  });

  test('410 Gone fails at once and disables the endpoint', () => {
    const outcome = settleAttempt(delivery(), healthy, automatic(answered(410)), NOW);
    expect(outcome.delivery).toMatchObject({ status: 'failed', next_attempt_at: null, response_status: 410 });
    expect(outcome.endpoint).toEqual({ failing_since: NOW.toISOString(), disable: 'The endpoint answered 410 Gone' });
  });

  test('an endpoint failing for 3 days is disabled; one failing for less keeps its streak', () => {
    const threeDaysAgo = new Date(NOW.getTime() - WEBHOOK_LIMITS.disableAfterMs).toISOString();
    const justUnder = new Date(NOW.getTime() - WEBHOOK_LIMITS.disableAfterMs + 1000).toISOString();
    expect(settleAttempt(afterFailures(1), { failing_since: threeDaysAgo }, automatic(answered(500)), NOW)).toMatchObject({
      delivery: { status: 'failed' },
      endpoint: { failing_since: threeDaysAgo, disable: 'Deliveries failed for 3 days without a success' },
    });
    expect(settleAttempt(afterFailures(1), { failing_since: justUnder }, automatic(answered(500)), NOW).endpoint).toEqual({ failing_since: justUnder });
  });

  test('recorded after a manual retry got through meanwhile, it is logged and leaves the delivery succeeded', () => {
    const outcome = settleAttempt(delivery({ attempt: 3, automatic_attempts: 2, manual_attempts: 1, status: 'succeeded', next_attempt_at: null }), healthy, automatic(answered(503)), NOW);
    expect(outcome.delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null, attempt: 4, automatic_attempts: 3, last_error: 'Answered 503' });
  });
});

describe('a manual retry', () => {
  test('that fails leaves the next automatic attempt at its time and number, and the lease of one in flight alone', () => {
    const before = afterFailures(2, later(1800));
    const outcome = settleAttempt(before, healthy, manual(answered(500)), NOW);
    expect(outcome.delivery).toMatchObject({
      status: 'pending',
      next_attempt_at: later(1800),
      claimed_until: before.claimed_until,
      attempt: 3,
      automatic_attempts: 2,
      manual_attempts: 1,
      last_error: 'Answered 500',
    });
    expect(outcome.delivery.attempts).toEqual([expect.objectContaining({ number: 1, trigger: 'manual', outcome: 'failed', at: SENT.toISOString() })]);
    // The schedule's attempt 3 then comes as planned, with the delay that follows attempt 3.
    const third = settleAttempt({ ...outcome.delivery, claimed_until: later(1830) }, healthy, automatic(answered(500)), NOW);
    expect(third.delivery).toMatchObject({ automatic_attempts: 3, next_attempt_at: later(RETRY_DELAYS_S[2]) });
    expect(third.delivery.attempts.map((a) => [a.trigger, a.number])).toEqual([
      ['manual', 1],
      ['automatic', 3],
    ]);
  });

  test('that succeeds settles a pending delivery, and a failed one', () => {
    expect(settleAttempt(afterFailures(2), healthy, manual(answered(200)), NOW).delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null });
    expect(settleAttempt(delivery({ status: 'failed', next_attempt_at: null, attempt: 8, automatic_attempts: 8 }), healthy, manual(answered(200)), NOW).delivery).toMatchObject({
      status: 'succeeded',
      attempt: 9,
      manual_attempts: 1,
    });
  });

  test('that fails leaves a settled delivery as it was; a 410 still disables the endpoint', () => {
    const failed = delivery({ status: 'failed', next_attempt_at: null, attempt: 8, automatic_attempts: 8 });
    expect(settleAttempt(failed, healthy, manual(answered(500)), NOW).delivery).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: 'Answered 500' });
    const succeeded = delivery({ status: 'succeeded', next_attempt_at: null, attempt: 1, automatic_attempts: 1 });
    const gone = settleAttempt(succeeded, healthy, manual(answered(410)), NOW);
    expect(gone.delivery.status).toBe('succeeded');
    expect(gone.endpoint.disable).toBe('The endpoint answered 410 Gone');
  });

  test('of a delivery waiting for an earlier one of its record keeps it waiting', () => {
    expect(settleAttempt(delivery({ next_attempt_at: null }), healthy, manual(answered(502)), NOW).delivery).toMatchObject({ status: 'pending', next_attempt_at: null });
  });
});

test('giving up fails a delivery with the reason and no attempt logged', () => {
  expect(giveUp(afterFailures(1), 'The endpoint is disabled')).toMatchObject({
    status: 'failed',
    last_error: 'The endpoint is disabled',
    next_attempt_at: null,
    claimed_until: null,
    attempt: 1,
    attempts: [],
  });
});

describe('the attempt log', () => {
  const entry = (trigger: DeliveryAttempt['trigger'], number: number): DeliveryAttempt => ({
    number,
    trigger,
    at: NOW.toISOString(),
    outcome: 'failed',
    message: 'Answered 500',
    response_status: 500,
    duration_ms: 3,
  });

  test(`keeps at most ${ATTEMPT_LOG_LIMIT}: the oldest manual ones go first, every automatic one stays`, () => {
    let log: DeliveryAttempt[] = [];
    for (let n = 1; n <= 8; n++) log = logAttempt(log, entry('automatic', n));
    for (let n = 1; n <= 15; n++) log = logAttempt(log, entry('manual', n));
    expect(log).toHaveLength(ATTEMPT_LOG_LIMIT);
    expect(log.filter((a) => a.trigger === 'automatic').map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(log.filter((a) => a.trigger === 'manual').map((a) => a.number)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });

  test('a manual attempt logged between automatic ones keeps its place', () => {
    const log = [entry('automatic', 1), entry('manual', 1), entry('automatic', 2)].reduce<DeliveryAttempt[]>((all, a) => logAttempt(all, a), []);
    expect(log.map((a) => `${a.trigger} ${a.number}`)).toEqual(['automatic 1', 'manual 1', 'automatic 2']);
  });
});
