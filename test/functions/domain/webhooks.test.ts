/**
 * The rules of webhook delivery: which attempt outcome succeeds, is retried (and when), fails for good
 * or disables the endpoint; who receives an event; and which URLs an endpoint may have.
 */
import { RETRY_DELAYS_S, WEBHOOK_LIMITS, recipientsOf, settleAttempt, webhookUrlProblem, type AttemptResult, type WebhookEndpoint } from '#domain/webhooks';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const healthy = { failing_since: null };
const answered = (status: number): AttemptResult => ({ kind: 'answered', status, latencyMs: 12 });
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

describe('settling an attempt', () => {
  test.each([200, 201, 204, 299])('a %i succeeds and clears the failure streak', (status) => {
    const outcome = settleAttempt({ attempt: 0 }, { failing_since: '2026-11-27T00:00:00.000Z' }, answered(status), NOW);
    expect(outcome).toEqual({
      delivery: { attempt: 1, status: 'succeeded', response_status: status, latency_ms: 12, last_error: null, next_attempt_at: null },
      endpoint: { failing_since: null },
    });
  });

  test('failures are retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then fail for good', () => {
    const seen: (string | null)[] = [];
    for (let attempt = 0; attempt <= RETRY_DELAYS_S.length; attempt++) {
      const outcome = settleAttempt({ attempt }, healthy, answered(500), NOW);
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
  ])('%s is retried, says why, and starts the failure streak', (_, result, lastError) => {
    const outcome = settleAttempt({ attempt: 0 }, healthy, result, NOW);
    expect(outcome.delivery).toMatchObject({ status: 'pending', last_error: lastError, next_attempt_at: later(5) });
    expect(outcome.endpoint).toEqual({ failing_since: NOW.toISOString() });
  });

  test('410 Gone fails at once and disables the endpoint', () => {
    const outcome = settleAttempt({ attempt: 0 }, healthy, answered(410), NOW);
    expect(outcome.delivery).toMatchObject({ status: 'failed', next_attempt_at: null, response_status: 410 });
    expect(outcome.endpoint).toEqual({ failing_since: NOW.toISOString(), disable: 'The endpoint answered 410 Gone' });
  });

  test('an endpoint failing for 3 days is disabled; one failing for less keeps its streak', () => {
    const threeDaysAgo = new Date(NOW.getTime() - WEBHOOK_LIMITS.disableAfterMs).toISOString();
    const justUnder = new Date(NOW.getTime() - WEBHOOK_LIMITS.disableAfterMs + 1000).toISOString();
    expect(settleAttempt({ attempt: 1 }, { failing_since: threeDaysAgo }, answered(500), NOW)).toMatchObject({
      delivery: { status: 'failed' },
      endpoint: { failing_since: threeDaysAgo, disable: 'Deliveries failed for 3 days without a success' },
    });
    expect(settleAttempt({ attempt: 1 }, { failing_since: justUnder }, answered(500), NOW)).toEqual(
      expect.objectContaining({ endpoint: { failing_since: justUnder, disable: undefined } }),
    );
  });
});

describe('who receives an event', () => {
  const endpoint = (id: string, events: WebhookEndpoint['events'], enabled = true) => ({ id, events, enabled }) as WebhookEndpoint;
  const all = [endpoint('a', ['video.job.done']), endpoint('b', ['video.job.done', 'avatar.ready']), endpoint('c', ['video.job.done'], false), endpoint('d', ['avatar.ready'])];

  test('every enabled endpoint subscribed to its type', () => {
    expect(recipientsOf({ type: 'video.job.done' }, all).map((e) => e.id)).toEqual(['a', 'b']);
  });

  test('a ping only the endpoint it names, even disabled, and a ping without one nobody', () => {
    expect(recipientsOf({ type: 'ping', endpoint_id: 'c' }, all).map((e) => e.id)).toEqual(['c']);
    expect(recipientsOf({ type: 'ping' }, all)).toEqual([]);
  });
});

describe('webhook URLs', () => {
  const AWS = { allowLoopback: false };
  const LOCAL = { allowLoopback: true };

  test.each([
    ['https://hooks.example.com/reaction-studio', AWS, undefined],
    ['https://hooks.example.com:8443/x?token=abc', AWS, undefined],
    ['http://hooks.example.com/x', AWS, 'must be https'],
    ['http://127.0.0.1:4000/hook', AWS, 'must be https'],
    ['http://127.0.0.1:4000/hook', LOCAL, undefined],
    ['http://localhost:4000/hook', LOCAL, undefined],
    ['http://[::1]:4000/hook', LOCAL, undefined],
    ['http://hooks.example.com/x', LOCAL, 'must be https (plain http only to a loopback address on the local stack)'],
    ['ftp://hooks.example.com/x', AWS, 'must be https'],
    ['https://user:secret@hooks.example.com/x', AWS, 'must not carry a user name or password'],
    ['https://hooks.example.com/x#part', AWS, 'must not have a #fragment'],
    ['hooks.example.com/x', AWS, 'must be an absolute URL'],
  ])('%s (%o): %s', (url, policy, problem) => {
    expect(webhookUrlProblem(url, policy)).toBe(problem);
  });
});
