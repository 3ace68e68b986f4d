/**
 * Mail on AWS: Amazon SES sends the password-reset links from an address the deployment names
 * (`cdk deploy -c mailFrom=no-reply@example.com`), which SES must have verified (the address or its
 * domain; docs/aws.md, Mail). Without it the stack deploys as before and no mail is sent: the
 * functions that would mail log that none is configured.
 */
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { MAIL_ENV } from '#functions/config';
import { acknowledge, nagArnHead } from './nag';

const MAIL_FROM_CONTEXT = 'mailFrom';

/** What a mailing function is given: the sender, and the studio's address for the links. */
export interface MailSetup {
  from: string;
  studioUrl: string;
}

const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function mailFromContext(scope: Construct): string | undefined {
  const raw: unknown = scope.node.tryGetContext(MAIL_FROM_CONTEXT);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !ADDRESS.test(raw)) throw new Error(`context ${MAIL_FROM_CONTEXT} must be an email address, not ${JSON.stringify(raw)}`);
  return raw;
}

/**
 * The sender and studio address in the function's environment, and the right to send with SES from
 * that sender only. SES authorises a send against every identity it involves (the sender's address or
 * domain, and in the SES sandbox each recipient), so the statement names identities by wildcard and
 * the condition holds the From address to the configured one.
 */
export function grantMail(fn: lambda.Function, mail: MailSetup): void {
  fn.addEnvironment(MAIL_ENV.from, mail.from);
  fn.addEnvironment(MAIL_ENV.studioUrl, mail.studioUrl);
  const identities = Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  fn.addToRolePolicy(
    new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: [identities], conditions: { StringEquals: { 'ses:FromAddress': mail.from } } }),
  );
  acknowledge(fn, {
    [`AwsSolutions-IAM5[Resource::${nagArnHead(fn, 'ses')}:identity/*]`]:
      "SES checks a send against the sender's and (in its sandbox) each recipient's identity; the condition allows the configured From address only",
  });
}
