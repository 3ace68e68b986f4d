/**
 * Which adapter speaks for each scheduling provider. The adapters hold no state, so one instance per
 * provider serves the whole process; each is made when first asked for, at the base URL its wiring
 * gives (PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL on Lambda, the loopback sandboxes locally), else
 * at the provider's public API.
 */
import { SOCIAL_PROVIDERS, type ProviderName } from '#domain/social';
import { ProviderError, type SocialProvider, type SocialProviders } from '#ports/social-provider';
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

/**
 * `baseUrls`: the configured APIs; `sandboxUrls`: the providers' sandboxes, which test mode's calls
 * go to (the local stack's loopback sandboxes; none on AWS).
 */
export function createSocialProviders(options: { baseUrls?: SocialBaseUrls; sandboxUrls?: SocialBaseUrls; backoff?: SocialBackoff } = {}): SocialProviders {
  const instances = new Map<string, SocialProvider>();
  return (name, request) => {
    if (!(SOCIAL_PROVIDERS as readonly string[]).includes(name)) {
      throw new Error(`unknown social provider "${String(name)}" (expected one of ${SOCIAL_PROVIDERS.join(', ')})`);
    }
    const sandbox = request?.sandbox === true;
    const id = `${name}${sandbox ? ':sandbox' : ''}`;
    let instance = instances.get(id);
    if (!instance) {
      const baseUrl = sandbox ? options.sandboxUrls?.[name] : options.baseUrls?.[name];
      instance = sandbox && !baseUrl ? noSandbox(name) : FACTORIES[name](baseUrl, options.backoff ?? {});
      instances.set(id, instance);
    }
    return instance;
  };
}

/** A sandbox this runtime does not run: every call is unavailable, saying so; the delete rule is the provider's own. */
function noSandbox(name: ProviderName): SocialProvider {
  const rule = FACTORIES[name](undefined, {});
  const unavailable = async (): Promise<never> => {
    throw new ProviderError(name, 'unavailable', `${name}'s sandbox does not run in this deployment: test keys publish only to the social sandboxes (the local stack runs them)`);
  };
  return { name, listChannels: unavailable, createPost: unavailable, getPost: unavailable, deletePost: unavailable, analytics: unavailable, deleteRule: (post) => rule.deleteRule(post) };
}
