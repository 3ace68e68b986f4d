/**
 * The billing port on AWS. With a Stripe secret configured (config.ts `stripe`, set by the stack from
 * CDK context) it is Stripe; without one no paid plan can be taken (409 billing_not_configured), so
 * that a deployment never grants paid plans nobody pays for. Only the billing function adds it, so the
 * others do not bundle the Stripe SDK.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Ports } from '#ports/ports';
import { billingNotConfigured } from '#adapters/billing/local';
import { stripeBilling, stripeCredentialsFromSecret } from '#adapters/billing/stripe';
import { secretText } from '#adapters/cloudfront/signed-links';
import { lambdaSettings } from './lambda';

export function billingOnAws(): Pick<Ports, 'billing'> {
  const settings = lambdaSettings();
  if (!settings.stripe) return { billing: billingNotConfigured };
  const read = secretText(new SecretsManagerClient({ region: settings.region }), settings.stripe.secretId);
  return { billing: stripeBilling({ credentials: async () => stripeCredentialsFromSecret(await read()), prices: settings.stripe.prices }) };
}
