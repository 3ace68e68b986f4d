/**
 * Mail through Amazon SES (API v2, SendEmail): a simple plain-text message from the configured
 * sender, which must be an identity SES has verified (docs/aws.md, Mail). The function's role may
 * send only from that address (lib/cloud/service-function.ts).
 */
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mail } from '#domain/mail';
import type { Mailer } from '#ports/mailer';

const UTF8 = 'UTF-8';

export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
  ) {}

  async send(mail: Mail): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: UTF8 },
            Body: { Text: { Data: mail.text, Charset: UTF8 } },
          },
        },
      }),
    );
  }
}
