/**
 * The mailer on AWS: SES from the deployment's sender. Only the functions that mail (FunctionNeeds.mail)
 * add it, so no other bundle carries the SES adapter. A deployment that names no sender (`-c mailFrom`)
 * gets a mailer that refuses, which the use case logs: the requests that would mail still answer as
 * they always do.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Ports } from '#ports/ports';
import type { Mailer } from '#ports/mailer';
import { SesMailer } from '#adapters/mail/ses-mailer';
import { lambdaSettings } from './lambda';

const noSender: Mailer = {
  send: async () => {
    throw new Error('no mail sender is configured: deploy with -c mailFrom=<an address or domain SES has verified> (docs/aws.md, Mail)');
  },
};

export function mailOnAws(): Pick<Ports, 'mailer'> {
  const { mailFrom, region } = lambdaSettings();
  return { mailer: mailFrom ? new SesMailer(new SESv2Client({ region }), mailFrom) : noSender };
}
