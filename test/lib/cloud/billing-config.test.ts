/** Paid plans on AWS: off until CDK context names a Stripe secret and prices; then only the billing function may read that secret. */
import { App } from 'aws-cdk-lib';
import { billingConfigFromContext } from '#cloud/billing-config';
import { STRIPE_SECRET_NAME, VARIANTS } from '#test-support/synthesis-cache';
import { actionsOf, resourcesOf, roleStatements, synthesisedStack, synthesisedVariant, type Synthesised } from '#test-support/cdk-template';

function readers({ resources, ids }: Pick<Synthesised, 'resources' | 'ids'>) {
  const env = (id: string) => (resources[id]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
  const secretReads = (id: string) =>
    roleStatements(resources, id)
      .filter((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'))
      .flatMap(resourcesOf)
      .map((r) => JSON.stringify(r));
  const functions = Object.entries(ids.api.functions);
  return { ids, env, secretReads, functions };
}

describe('billing configuration of a deployment', () => {
  test('by default there is no Stripe: the billing function has no Stripe settings, and no function may read a Stripe secret', () => {
    const { ids, env, secretReads, functions } = readers(synthesisedStack());
    expect(env(ids.api.functions.billing)).not.toHaveProperty('STRIPE_SECRET_ID');
    expect(env(ids.api.functions.billing)).not.toHaveProperty('STRIPE_PRICE_IDS');
    for (const [, id] of functions) expect(secretReads(id).filter((r) => r.includes('stripe'))).toEqual([]);
  });

  test('with a Stripe secret and prices the billing function gets both, and reads that secret only; no other function does', () => {
    expect(VARIANTS.stripeBilling).toEqual({ stripeSecret: STRIPE_SECRET_NAME, stripePrices: 'starter=price_s,pro=price_p,business=price_b' });
    const { ids, env, secretReads, functions } = readers(synthesisedVariant('stripeBilling'));
    expect(env(ids.api.functions.billing)).toMatchObject({ STRIPE_SECRET_ID: STRIPE_SECRET_NAME, STRIPE_PRICE_IDS: 'starter=price_s,pro=price_p,business=price_b' });
    const reads = secretReads(ids.api.functions.billing);
    expect(reads).toHaveLength(1);
    // A secret named, not given by ARN: its ARN ends in Secrets Manager's six random characters.
    expect(reads[0]).toMatch(/secret:reaction-studio\/stripe-\?\?\?\?\?\?/);
    for (const [group, id] of functions) {
      if (group !== 'billing') expect(secretReads(id).filter((r) => r.includes('stripe'))).toEqual([]);
      if (group !== 'billing') expect(env(id)).not.toHaveProperty('STRIPE_SECRET_ID');
    }
  });

  test('half a Stripe configuration, or prices that miss a paid plan, refuse to synthesise', () => {
    const app = (context: Record<string, string>) => new App({ context });
    expect(billingConfigFromContext(app({}))).toEqual({});
    expect(() => billingConfigFromContext(app({ stripeSecret: 'x' }))).toThrow(/stripePrices/);
    expect(() => billingConfigFromContext(app({ stripePrices: 'starter=price_s,pro=price_p,business=price_b' }))).toThrow(/stripeSecret/);
    expect(() => billingConfigFromContext(app({ stripeSecret: 'x', stripePrices: 'starter=price_s,pro=price_p' }))).toThrow(/no price for business/);
    expect(() => billingConfigFromContext(app({ stripeSecret: 'x', stripePrices: 'free=price_f,starter=price_s,pro=price_p,business=price_b' }))).toThrow(/free=price_f/);
    expect(billingConfigFromContext(app({ stripeSecret: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stripe-AbCdEf', stripePrices: 'starter=price_s,pro=price_p,business=price_b' }))).toEqual({
      stripe: { secret: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:stripe-AbCdEf', prices: { starter: 'price_s', pro: 'price_p', business: 'price_b' } },
    });
  });
});
