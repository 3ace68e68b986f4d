/**
 * The webhook sender against loopback receivers: what it sends, how it reports every kind of answer
 * and non-answer, that it never follows a redirect, and that the address policy is applied to what DNS
 * says on every attempt (a name that resolves to a private address, even among public ones, is refused).
 */
import { HttpWebhookReceivers, type HostLookup } from '#adapters/webhooks/http-receivers';
import { useLoopbackServer } from '#test-support/loopback-server';

const receiver = useLoopbackServer();
const bystander = useLoopbackServer();
const LOCAL = { allowLoopback: true };
const request = (url: string) => ({ url, headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,abc' }, body: '{"id":"evt_1"}' });
const resolvesTo = (...addresses: string[]): HostLookup => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('sending', () => {
  test('POSTs the body as JSON with the signature headers and reports the status and latency', async () => {
    receiver.route(() => ({ status: 204 }));
    const result = await new HttpWebhookReceivers(LOCAL).send(request(`${receiver.url}/hook`), 2_000);
    expect(result).toEqual({ kind: 'answered', status: 204, latencyMs: expect.any(Number) });
    const [seen] = receiver.seen;
    expect(seen).toMatchObject({ method: 'POST', path: '/hook', body: { id: 'evt_1' } });
    expect(seen!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'evt_1', 'webhook-signature': 'v1,abc', 'user-agent': 'ReactionStudio-Webhooks/1.0' });
  });

  test('a slow receiver is cut off at the timeout; the latency is the time from sending to the cut-off', async () => {
    receiver.route(() => ({ status: 200, delayMs: 2_000 }));
    // The clock as read when sending, then at the cut-off.
    const readings = [5_000, 5_250];
    const result = await new HttpWebhookReceivers(LOCAL, undefined, () => readings.shift()!).send(request(`${receiver.url}/slow`), 200);
    expect(result).toEqual({ kind: 'unreachable', message: 'No answer within 0.2 s', latencyMs: 250 });
  });

  test('a redirect is an answer, never followed', async () => {
    receiver.route(() => ({ status: 307, headers: { location: `${bystander.url}/elsewhere` } }));
    expect(await new HttpWebhookReceivers(LOCAL).send(request(`${receiver.url}/moved`), 2_000)).toMatchObject({ kind: 'answered', status: 307 });
    expect(bystander.seen).toEqual([]);
  });

  test('a closed port is unreachable', async () => {
    const url = receiver.url.replace(/:\d+$/, ':1');
    expect(await new HttpWebhookReceivers(LOCAL).send(request(`${url}/hook`), 2_000)).toMatchObject({ kind: 'unreachable', message: 'Connection refused' });
  });
});

describe('the address policy', () => {
  test('on AWS a loopback receiver is refused before anything is sent', async () => {
    const result = await new HttpWebhookReceivers({ allowLoopback: false }).send(request(`${receiver.url}/hook`), 2_000);
    expect(result).toMatchObject({ kind: 'refused', message: 'The url must be https' });
    expect(receiver.seen).toEqual([]);
  });

  test.each([
    ['a private address', ['10.0.0.5'], 'resolves to 10.0.0.5 (private)'],
    ['cloud metadata', ['169.254.169.254'], 'resolves to 169.254.169.254 (cloud metadata)'],
    ['a private address among public ones', ['93.184.216.34', '192.168.1.10'], 'resolves to 192.168.1.10 (private)'],
    ['IPv6 unique-local', ['fd00::1'], 'resolves to fd00::1 (uniqueLocal)'],
    ['loopback, on AWS', ['127.0.0.1'], 'resolves to 127.0.0.1 (loopback)'],
  ])('a name that resolves to %s is refused at vetting and at sending', async (_, addresses, reason) => {
    const receivers = new HttpWebhookReceivers({ allowLoopback: false }, resolvesTo(...addresses));
    expect(await receivers.vet('https://hooks.example.com/x')).toContain(reason);
    expect(await receivers.send(request('https://hooks.example.com/x'), 2_000)).toMatchObject({ kind: 'refused', message: expect.stringContaining(reason) });
  });

  test('a name that does not resolve is refused', async () => {
    const receivers = new HttpWebhookReceivers({ allowLoopback: false }, async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    expect(await receivers.vet('https://nowhere.example.com/x')).toBe('The host nowhere.example.com does not resolve');
  });

  test('a public name passes vetting', async () => {
    expect(await new HttpWebhookReceivers({ allowLoopback: false }, resolvesTo('93.184.216.34')).vet('https://hooks.example.com/x')).toBeUndefined();
  });
});
