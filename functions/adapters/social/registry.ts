/**
 * Which adapter speaks for each scheduling provider. The adapters hold no state and read their base
 * URLs (PROVIDER_A_BASE_URL, PROVIDER_B_BASE_URL: the loopback sandboxes locally) on every call, so
 * one instance per provider serves the whole process; each is made when first asked for.
 */
import { SOCIAL_PROVIDERS, type ProviderName } from '#domain/social';
import type { SocialProvider, SocialProviders } from '#ports/social-provider';
import { createProviderA } from './provider-a';
import { createProviderB } from './provider-b';

const FACTORIES: Record<ProviderName, () => SocialProvider> = {
  provider_a: () => createProviderA(),
  provider_b: () => createProviderB(),
};

export function createSocialProviders(): SocialProviders {
  const instances = new Map<ProviderName, SocialProvider>();
  return (name) => {
    if (!(SOCIAL_PROVIDERS as readonly string[]).includes(name)) {
      throw new Error(`unknown social provider "${String(name)}" (expected one of ${SOCIAL_PROVIDERS.join(', ')})`);
    }
    let instance = instances.get(name);
    if (!instance) {
      instance = FACTORIES[name]();
      instances.set(name, instance);
    }
    return instance;
  };
}
