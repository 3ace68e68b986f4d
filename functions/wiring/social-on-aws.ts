/**
 * The social providers and the KMS cipher that seals their credentials, on AWS. Only the functions
 * that talk to the providers (social, analytics) add them, so the others do not bundle the adapters.
 */
import type { Ports } from '#ports/ports';
import { createSocialProviders } from '#adapters/social/registry';
import { kmsCredentialCipher } from '#adapters/crypto/credential-cipher';
import { lambdaSettings } from './lambda';

export function socialOnAws(): Pick<Ports, 'social' | 'cipher'> {
  const settings = lambdaSettings();
  return {
    social: createSocialProviders({ baseUrls: settings.socialBaseUrls }),
    cipher: kmsCredentialCipher({ keyId: settings.connectionKeyId, region: settings.region }),
  };
}
