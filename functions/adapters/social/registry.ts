/**
 * Which adapter speaks for each scheduling provider. The adapters hold no state, so one instance per
 * provider serves the whole process; each is made when first asked for, at the base URL its wiring
 * gives (PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL on Lambda, the loopback sandboxes locally), else
 * at the provider's public API.
 */
import { SOCIAL_PROVIDERS, type ProviderName } from '#domain/social';
import type { SocialProvider, SocialProviders } from '#ports/social-provider';
import { createProviderA } from './provider-a';
import { createProviderB } from './provider-b';
import type { ProviderHttpSettings } from './provider-http';

/** The waits between retries; the adapters' own defaults unless a local stack shortens them. */
export type SocialBackoff = Pick<ProviderHttpSettings, 'baseDelayMs' | 'maxDelayMs'>;

const FACTORIES: Record<ProviderName, (baseUrl: string | undefined, http: Partial<SocialBackoff>) => SocialProvider> = {
  provider_a: (baseUrl, http) => createProviderA({ baseUrl, http }),
  provider_b: (baseUrl, http) => createProviderB({ baseUrl, http }),
};

/** Where each provider's API is, when not at its public address. */
export type SocialBaseUrls = Partial<Record<ProviderName, string>>;

export function createSocialProviders(options: { baseUrls?: SocialBaseUrls; backoff?: SocialBackoff } = {}): SocialProviders {
  const instances = new Map<ProviderName, SocialProvider>();
  return (name) => {
    if (!(SOCIAL_PROVIDERS as readonly string[]).includes(name)) {
      throw new Error(`unknown social provider "${String(name)}" (expected one of ${SOCIAL_PROVIDERS.join(', ')})`);
    }
    let instance = instances.get(name);
    if (!instance) {
      instance = FACTORIES[name](options.baseUrls?.[name], options.backoff ?? {});
      instances.set(name, instance);
    }
    return instance;
  };
}
