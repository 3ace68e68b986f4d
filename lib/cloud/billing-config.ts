/**
 * Paid plans on AWS, from CDK context (`cdk deploy -c stripeSecret=reaction-studio/stripe
 * -c stripePrices=starter=price_…,pro=price_…,business=price_…`): the Secrets Manager secret holding
 * the Stripe keys (a name or a full ARN) and the Stripe price of each paid plan. Without them the
 * billing function runs with no payment provider, and a paid plan is refused (409
 * billing_not_configured; docs/billing.md): off by default, never granted for free.
 */
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secrets from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { parseStripePrices, STRIPE_ENV } from '#functions/config';
import type { PlanName } from '#domain/plans';

export interface BillingConfig {
  stripe?: {
    /** The secret's name or complete ARN; its value is `{"secret_key": "sk_…", "webhook_secret": "whsec_…"}`. */
    secret: string;
    prices: Partial<Record<PlanName, string>>;
  };
}

export function billingConfigFromContext(scope: Construct): BillingConfig {
  const secret = scope.node.tryGetContext('stripeSecret') as string | undefined;
  const prices = scope.node.tryGetContext('stripePrices') as string | undefined;
  if (!secret && !prices) return {};
  if (!secret || !prices) throw new Error('Stripe needs both -c stripeSecret=<Secrets Manager secret name or ARN> and -c stripePrices=starter=price_…,pro=price_…,business=price_…');
  return { stripe: { secret, prices: parseStripePrices(prices, 'context stripePrices') } };
}

/** Tells a function where the Stripe keys are, lets it read exactly that secret, and names the prices. */
export function applyBillingConfig(fn: lambda.Function, config: BillingConfig): void {
  const { stripe } = config;
  if (!stripe) return;
  const secret = stripe.secret.startsWith('arn:')
    ? secrets.Secret.fromSecretCompleteArn(fn, 'StripeSecret', stripe.secret)
    : secrets.Secret.fromSecretNameV2(fn, 'StripeSecret', stripe.secret);
  secret.grantRead(fn);
  fn.addEnvironment(STRIPE_ENV.secretId, stripe.secret);
  fn.addEnvironment(STRIPE_ENV.prices, Object.entries(stripe.prices).map(([plan, price]) => `${plan}=${price}`).join(','));
}
