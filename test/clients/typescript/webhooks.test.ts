/**
 * verifyWebhook and signWebhook over the Standard Webhooks library: the event from a genuine delivery (body as a
 * string or as bytes), and the package's own WebhookVerificationError for anything else.
 */
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventOf } from '#client/index';
import { eventExample } from '#functions/openapi/examples/index';
import { JOB_DONE } from '#functions/openapi/examples/media';
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

test('while two secrets sign (a rotation), either verifies; several secrets may be given, and any one that verifies will do', () => {
  const next = `whsec_${Buffer.from('the secret a rotation gave, 32 b').toString('base64')}`;
  const headers = signed(body);
  const both = { ...headers, 'webhook-signature': `${new Webhook(next).sign('evt_1', new Date(Number(headers['webhook-timestamp']) * 1000), body)} ${headers['webhook-signature']}` };
  expect(verifyWebhook(body, both, next)).toMatchObject({ id: 'evt_1' });
  expect(verifyWebhook(body, both, secret)).toMatchObject({ id: 'evt_1' });
  expect(verifyWebhook(body, headers, [next, secret])).toMatchObject({ id: 'evt_1' });
  expect(() => verifyWebhook(body, headers, [next])).toThrow(WebhookVerificationError);
  expect(() => verifyWebhook(body, headers, [])).toThrow(WebhookVerificationError);
});

test('signWebhook makes the headers verifyWebhook accepts', () => {
  const headers = signWebhook(body, 'evt_1', secret);
  expect(headers['webhook-id']).toBe('evt_1');
  expect(verifyWebhook(body, headers, secret)).toMatchObject({ id: 'evt_1', data: { id: 7 } });
});

test("an event is typed by its type: narrowed on `type`, its `data` is that type's record (the document's example of a done job)", () => {
  const delivery = JSON.stringify(eventExample('video.job.done'));
  const event: WebhookEvent = verifyWebhook(delivery, signWebhook(delivery, 'evt_1', secret), secret);
  if (event.type !== 'video.job.done') throw new Error(`expected a done job, got ${event.type}`);
  // Compiles only while the union gives a done job's `data` the job's shape (or what is left of a deleted one).
  const data: WebhookEventOf<'video.job.done'>['data'] = event.data;
  const videoId = 'deleted' in data ? null : data.video_id;
  expect(videoId).toBe(JOB_DONE.video_id);
  // As before the union: an event whose data the caller names.
  const named: WebhookEvent<{ video_id: number | null }> = verifyWebhook<{ video_id: number | null }>(delivery, signWebhook(delivery, 'evt_1', secret), secret);
  expect(named.data.video_id).toBe(JOB_DONE.video_id);
});
