/** The fake scheduling provider the social use-case tests use answers as the adapters on the sandboxes do. */
import type { Channel } from '#domain/social';
import { FakeSocialProvider } from '#test-doubles/memory/social-provider';
import { socialProviderContract } from '#test-support/social-provider-contract';

const CHANNELS: Channel[] = [
  { id: 'ch-facebook', platform: 'facebook', name: 'Acme', username: null, active: true },
  { id: 'ch-tiktok', platform: 'tiktok', name: 'Acme on TikTok', username: 'acme', active: true },
  { id: 'ch-instagram', platform: 'instagram', name: 'Acme (old)', username: 'acme', active: false },
];

let accounts = 0;

describe.each(['provider_a', 'provider_b'] as const)('the fake %s', (name) => {
  // One fake for every account, as one provider serves every key.
  const fake = new FakeSocialProvider(name, CHANNELS);
  fake.refuseKey('revoked_key');

  socialProviderContract(async () => ({
    provider: fake,
    credentials: { apiKey: `${name}_key_${++accounts}` },
    refusedCredentials: { apiKey: 'revoked_key' },
    publish: async (post) => fake.settle(post.providerPostId, 'published'),
    refuseNext: (kind, retryAfterS) => fake.failNext('listChannels', fake.error(kind, `${name} says ${kind}`, { retryAfterS })),
  }));
});
