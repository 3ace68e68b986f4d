/**
 * Webhooks in the domain: who receives an event (a subscription by type, `*` for every type, a ping
 * to the one endpoint it names) and which URLs an endpoint may have.
 */
import { recipientsOf, webhookUrlProblem, type WebhookEndpoint } from '#domain/webhooks';

describe('who receives an event', () => {
  const endpoint = (id: string, events: WebhookEndpoint['events'], enabled = true) => ({ id, events, enabled }) as WebhookEndpoint;
  const all = [endpoint('a', ['video.job.done']), endpoint('b', ['video.job.done', 'avatar.ready']), endpoint('c', ['video.job.done'], false), endpoint('d', ['avatar.ready'])];

  test('every enabled endpoint subscribed to its type', () => {
    expect(recipientsOf({ type: 'video.job.done' }, all).map((e) => e.id)).toEqual(['a', 'b']);
  });

  test('"*" takes every event type, today\'s and any added later, but never a ping meant for another endpoint', () => {
    const everything = [endpoint('star', ['*']), endpoint('off', ['*'], false)];
    expect(recipientsOf({ type: 'video.job.done' }, everything).map((e) => e.id)).toEqual(['star']);
    expect(recipientsOf({ type: 'social.post.failed' }, everything).map((e) => e.id)).toEqual(['star']);
    // A type the list does not have yet reaches it too: the subscription is not a copy of today's list.
    expect(recipientsOf({ type: 'video.job.archived' as never }, everything).map((e) => e.id)).toEqual(['star']);
    expect(recipientsOf({ type: 'ping' }, everything)).toEqual([]);
    expect(recipientsOf({ type: 'ping', endpoint_id: 'off' }, everything).map((e) => e.id)).toEqual(['off']);
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
