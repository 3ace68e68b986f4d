/** The live-updates protocol's client messages (functions/domain/live-updates.ts): taken, or refused with a clear error, never thrown. */
import { isWellFormedUpdateTicket, LIVE_UPDATE_LIMITS, newUpdateTicket, parseClientMessage } from '#domain/live-updates';

test('subscribe, unsubscribe and ping are taken', () => {
  expect(parseClientMessage('{"action":"subscribe","resource":"job","id":7}')).toEqual({ action: 'subscribe', topic: { resource: 'job', id: 7 } });
  expect(parseClientMessage('{"action":"unsubscribe","resource":"avatar","id":3,"extra":true}')).toEqual({ action: 'unsubscribe', topic: { resource: 'avatar', id: 3 } });
  expect(parseClientMessage('{"action":"ping"}')).toEqual({ action: 'ping' });
});

test.each([
  ['', /JSON object/],
  ['null', /JSON object/],
  ['"subscribe"', /JSON object/],
  ['[]', /JSON object/],
  ['{}', /No action/],
  ['{"action":42}', /No action/],
  ['{"action":"__proto__"}', /Unknown action "__proto__"/],
  ['{"action":"subscribe","resource":"job"}', /`id` must be a positive integer/],
  ['{"action":"subscribe","resource":"job","id":1.5}', /`id` must be a positive integer/],
  ['{"action":"subscribe","resource":"job","id":"7"}', /`id` must be a positive integer/],
  ['{"action":"subscribe","resource":"job","id":1e300}', /`id` must be a positive integer/],
  ['{"action":"subscribe","resource":"JOB","id":7}', /`resource` must be/],
])('%s is a bad_request that says what to send', (text, message) => {
  expect(parseClientMessage(text)).toMatchObject({ type: 'error', code: 'bad_request', message: expect.stringMatching(message) });
});

test('a message over the limit is refused before it is parsed', () => {
  const huge = JSON.stringify({ action: 'ping', pad: 'x'.repeat(LIVE_UPDATE_LIMITS.clientMessageBytes) });
  expect(parseClientMessage(huge)).toMatchObject({ type: 'error', code: 'payload_too_large' });
});

test('tickets are 256-bit random and recognisable; anything else is refused unread', () => {
  const [a, b] = [newUpdateTicket(), newUpdateTicket()];
  expect(a).not.toBe(b);
  expect(isWellFormedUpdateTicket(a)).toBe(true);
  expect(isWellFormedUpdateTicket('rsu_nope')).toBe(false);
  expect(isWellFormedUpdateTicket(`${a}x`)).toBe(false);
});
