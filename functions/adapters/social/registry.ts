/**
 * Which adapter speaks for each scheduling provider (DESIGN §5). The adapters hold no state and read
 * their base URLs (PROVIDER_A_BASE_URL, PROVIDER_B_BASE_URL: the loopback sandboxes locally) on every
 * call, so one instance per provider serves the whole process. Tests swap in a double with
 * overrideSocialProvider and put the real one back with `undefined`.
 */
import { SOCIAL_PROVIDERS, type ProviderName } from '#domain/social';
import type { SocialProvider } from '#ports/social-provider';
import { createProviderA } from './provider-a';
import { createProviderB } from './provider-b';

const FACTORIES: Record<ProviderName, () => SocialProvider> = {
  provider_a: () => createProviderA(),
  provider_b: () => createProviderB(),
};

const instances = new Map<ProviderName, SocialProvider>();
const overrides = new Map<ProviderName, SocialProvider>();

export function socialProvider(name: ProviderName): SocialProvider {
  if (!(SOCIAL_PROVIDERS as readonly string[]).includes(name)) {
    throw new Error(`unknown social provider "${String(name)}" (expected one of ${SOCIAL_PROVIDERS.join(', ')})`);
  }
  const override = overrides.get(name);
  if (override) return override;
  let instance = instances.get(name);
  if (!instance) {
    instance = FACTORIES[name]();
    instances.set(name, instance);
  }
  return instance;
}

/** For tests: `provider` answers for `name` until called again with `undefined`. */
export function overrideSocialProvider(name: ProviderName, provider: SocialProvider | undefined): void {
  if (provider) overrides.set(name, provider);
  else overrides.delete(name);
}
