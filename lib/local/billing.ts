/**
 * The local stack's billing (BILLING, docs/billing.md): `local` (the default) applies every plan
 * change at once with no payment; `stripe-sandbox` starts the Stripe sandbox on loopback and goes
 * through the Stripe adapter against it, Checkout page and signed webhooks included, with no Stripe
 * account; `stripe` talks to Stripe itself (or STRIPE_API_URL) with the given key and prices.
 */
import type { PlanName } from '#domain/plans';
import type { Billing } from '#ports/billing';
import { localBilling } from '#adapters/billing/local';
import { stripeBilling } from '#adapters/billing/stripe';
import { startStripeSandbox, STRIPE_SANDBOX, type StripeSandbox } from './sandboxes/stripe';

export type LocalBilling =
  | { kind: 'local' | 'stripe-sandbox' }
  | { kind: 'stripe'; secretKey: string; webhookSecret: string; prices: Partial<Record<PlanName, string>>; apiUrl?: string };

export interface StartedBilling {
  billing: Billing;
  /** With `stripe-sandbox`: the sandbox, whose events go to the stack once it serves (`serving`). */
  sandbox?: StripeSandbox;
  /** Tells the sandbox where the stack's webhook route is. */
  serving(apiUrl: string): void;
  stop(): Promise<void>;
}

/** The SDK's `host`, `port` and `protocol` for an API address other than Stripe's. */
function apiAddress(url: string) {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return { host: parsed.hostname, port: Number(parsed.port || (protocol === 'http' ? 80 : 443)), protocol };
}

export async function startLocalBilling(choice: LocalBilling, options: { stateFile?: string; log?: (line: string) => void } = {}): Promise<StartedBilling> {
  if (choice.kind === 'local') return { billing: localBilling, serving: () => undefined, stop: async () => undefined };
  if (choice.kind === 'stripe') {
    const { secretKey, webhookSecret, prices, apiUrl } = choice;
    const billing = stripeBilling({ credentials: async () => ({ secretKey, webhookSecret }), prices, api: apiUrl ? apiAddress(apiUrl) : undefined });
    return { billing, serving: () => undefined, stop: async () => undefined };
  }
  const sandbox = await startStripeSandbox({ stateFile: options.stateFile, log: options.log });
  const billing = stripeBilling({
    credentials: async () => ({ secretKey: STRIPE_SANDBOX.secretKey, webhookSecret: STRIPE_SANDBOX.webhookSecret }),
    prices: STRIPE_SANDBOX.prices,
    api: apiAddress(sandbox.url),
  });
  return {
    billing,
    sandbox,
    serving: (apiUrl) => {
      sandbox.control.setWebhookUrl(`${apiUrl}/billing/stripe/webhook`);
      options.log?.(`Stripe sandbox on ${sandbox.url}: paid plans check out there (no card), and its signed events come back to this stack`);
    },
    stop: () => sandbox.stop(),
  };
}
