/**
 * The SES adapter against a loopback stand-in for the SES v2 endpoint: the SDK, pointed at it with
 * `endpoint`, sends the SendEmail request the adapter makes, and the stand-in checks its shape.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SesMailer } from '#adapters/mail/ses-mailer';
import { routes, useLoopbackServer } from '#test-support/loopback-server';

const ses = useLoopbackServer();
const FROM = 'no-reply@studio.example.com';
const MAIL = { to: 'ada@example.com', subject: 'Reset your Reaction Studio password', text: 'Choose a new password here:\nhttps://studio.example.com/reset-password?token=abc' };

const mailer = () =>
  new SesMailer(
    new SESv2Client({ region: 'eu-west-1', endpoint: ses.url, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 }),
    FROM,
  );

test('a mail is one signed SendEmail request: the configured sender, one recipient, a plain-text UTF-8 subject and body', async () => {
  ses.route(routes({ 'POST /v2/email/outbound-emails': { body: { MessageId: 'msg-1' } } }));
  await mailer().send(MAIL);
  expect(ses.seen).toHaveLength(1);
  const [request] = ses.seen;
  expect(request!.headers['content-type']).toMatch(/^application\/json/);
  expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/ses\/aws4_request, /);
  expect(request!.body).toEqual({
    FromEmailAddress: FROM,
    Destination: { ToAddresses: ['ada@example.com'] },
    Content: {
      Simple: {
        Subject: { Data: MAIL.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: MAIL.text, Charset: 'UTF-8' } },
      },
    },
  });
});

test('a refusal from SES (an unverified sender) is thrown, named as SES names it', async () => {
  ses.route(
    routes({
      'POST /v2/email/outbound-emails': {
        status: 400,
        headers: { 'x-amzn-errortype': 'MessageRejected' },
        body: { message: 'Email address is not verified. The following identities failed the check in region EU-WEST-1: no-reply@studio.example.com' },
      },
    }),
  );
  await expect(mailer().send(MAIL)).rejects.toMatchObject({ name: 'MessageRejected', message: expect.stringContaining('not verified') });
});
