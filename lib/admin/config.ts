/**
 * The admin CLI's configuration (`npm run cli`): the one read of `process.env` for it and lib/admin
 * (a lint rule keeps every other module from reading it).
 */
import { DEFAULT_REGION, socialBaseUrlsFromEnv, type Environment } from '#functions/config';
import type { SocialBaseUrls } from '#adapters/social/registry';

export interface AdminConfig {
  /** As the AWS SDK itself reads it; a local endpoint ignores it. */
  region: string;
  /** The deployed stack to administer when `--stack` is not given. */
  stackName?: string;
  socialBaseUrls: SocialBaseUrls;
}

export function adminConfig(env: Environment = process.env): AdminConfig {
  return {
    region: env.AWS_REGION || DEFAULT_REGION,
    stackName: env.STACK_NAME || undefined,
    socialBaseUrls: socialBaseUrlsFromEnv(env),
  };
}
