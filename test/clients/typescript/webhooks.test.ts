/**
 * verifyWebhook over the Standard Webhooks library: the event from a genuine delivery (body as a
 * string or as bytes), and the package's own WebhookVerificationError for anything else.
 */
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '#client/index';
const { floor } = Math;

const secret = `whsec_${Buffer.from('a webhook secret, 32 bytes long!').toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'job.done', created_at: '2026-01-01T00:00:00Z', data: { id: 7 } });

function signed(payload: string) {
  const timestamp = new Date();
  const signature = new Webhook(secret).sign('evt_1', timestamp, payload);
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
}

test('a genuine delivery answers its event, from a string or from the bytes', () => {
  const headers = signed(body);
  expect(verifyWebhook(body, headers, secret)).toMatchObject({ id: 'evt_1', type: 'job.done', data: { id: 7 } });
  expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret)).toMatchObject({ id: 'evt_1' });
});

test('an altered body is refused with the package\'s WebhookVerificationError', () => {
  const altered = () => verifyWebhook(body.replace('7', '8'), signed(body), secret);
  expect(altered).toThrow(WebhookVerificationError);
  expect(altered).toThrow(expect.objectContaining({ name: 'WebhookVerificationError' }));
});
