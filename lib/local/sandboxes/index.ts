/**
 * The two social-provider sandboxes together (docs/decisions.md, Social publishing): loopback servers speaking provider_a's
 * (Ayrshare) and provider_b's (Post for Me) contracts, so publishing works end to end with no account
 * anywhere. The local runtime starts them with the stack; tests start them directly.
 *
 *   provider_a: keys `sandbox_a_<anything>`, base URL `<origin>/api`
 *   provider_b: keys `sandbox_b_<anything>`, base URL `<origin>` (paths /v1/...)
 *
 * With the local stack (`startLocalSandboxes`): unless SOCIAL_SANDBOXES=off, both start with a serving
 * stack, and its provider adapters are wired to them unless PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL
 * is set (then the real providers, or whatever they name, are used). Their URLs are written to
 * `<dataDir>/sandboxes/urls.json` for other processes on the data dir (the CLI): see
 * `runningSandboxBaseUrls`. Posts are kept in `<dataDir>/sandboxes/provider-{a,b}.json`.
 * SOCIAL_SANDBOX_PUBLISH_DELAY_MS sets both publish delays (default 2 s for a, 3 s for b).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SocialBaseUrls } from '#adapters/social/registry';
import { socialBaseUrlsFromEnv } from '#functions/config';
import { startProviderASandbox, type ProviderASandbox, type ProviderASandboxOptions } from './provider-a';
import { startProviderBSandbox, type ProviderBSandbox, type ProviderBSandboxOptions } from './provider-b';
import { localEnvironment } from '../config';

export * from './provider-a';
export * from './provider-b';
export type { SandboxControl } from './sandbox-kit';

export interface SocialSandboxes {
  providerA: ProviderASandbox;
  providerB: ProviderBSandbox;
  /** The base URLs, as PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL take them. */
  urls: { provider_a: string; provider_b: string };
  stop(): Promise<void>;
}

export interface SocialSandboxesOptions {
  /** Keep the sandboxes' state in `<dataDir>/sandboxes/provider-{a,b}.json` (default: memory only). */
  dataDir?: string;
  /** Publish delay of both (default: each sandbox's own: 2 s for a, 3 s for b). */
  publishDelayMs?: number;
  timeScale?: number;
  /** GET media URLs when posts are created (proves the presigned URLs work). Default false. */
  checkMedia?: boolean;
  providerA?: ProviderASandboxOptions;
  providerB?: ProviderBSandboxOptions;
  log?: (line: string) => void;
}

export async function startSandboxes(options: SocialSandboxesOptions = {}): Promise<SocialSandboxes> {
  const common = { publishDelayMs: options.publishDelayMs, timeScale: options.timeScale, checkMedia: options.checkMedia, log: options.log };
  const stateOf = (name: string) => (options.dataDir ? join(options.dataDir, 'sandboxes', `${name}.json`) : undefined);
  const providerA = await startProviderASandbox({ ...common, stateFile: stateOf('provider-a'), ...options.providerA });
  let providerB: ProviderBSandbox;
  try {
    providerB = await startProviderBSandbox({ ...common, stateFile: stateOf('provider-b'), ...options.providerB });
  } catch (error) {
    await providerA.stop();
    throw error;
  }
  return {
    providerA,
    providerB,
    urls: { provider_a: providerA.url, provider_b: providerB.url },
    stop: async () => {
      await Promise.all([providerA.stop(), providerB.stop()]);
    },
  };
}

const PROVIDER_ENV = { provider_a: 'PROVIDER_A_BASE_URL', provider_b: 'PROVIDER_B_BASE_URL' } as const;

type Environment = Record<string, string | undefined>;

export interface LocalSandboxes extends SocialSandboxes {
  /** Which providers the stack talks to through the sandboxes (false: the user named that provider's URL). */
  active: { provider_a: boolean; provider_b: boolean };
  /** What the stack's provider adapters use: the sandboxes', except the URLs the user named. */
  baseUrls: SocialBaseUrls;
  /** How the newcomer connects `accountId` to a sandbox (undefined when none is used). */
  connectHint(accountId: number): string | undefined;
}

export interface LocalSandboxesOptions {
  dataDir: string;
  log?: (line: string) => void;
  /** Publish delay of both; default SOCIAL_SANDBOX_PUBLISH_DELAY_MS, else each sandbox's own. */
  publishDelayMs?: number;
  /** Where SOCIAL_SANDBOXES, SOCIAL_SANDBOX_PUBLISH_DELAY_MS and PROVIDER_A/B_BASE_URL are read (default: the process's). */
  env?: Environment;
}

const urlsFile = (dataDir: string) => join(dataDir, 'sandboxes', 'urls.json');

/**
 * For the local stack: starts both sandboxes (unless SOCIAL_SANDBOXES=off: undefined) and says which
 * base URL each provider adapter is to use: the sandbox's, unless the user set the provider's variable.
 */
export async function startLocalSandboxes(options: LocalSandboxesOptions): Promise<LocalSandboxes | undefined> {
  const env = options.env ?? localEnvironment();
  if ((env.SOCIAL_SANDBOXES ?? '').trim().toLowerCase() === 'off') return undefined;
  const log = options.log ?? (() => undefined);
  const delay = env.SOCIAL_SANDBOX_PUBLISH_DELAY_MS;
  const publishDelayMs = options.publishDelayMs ?? (delay !== undefined && /^\d+$/.test(delay.trim()) ? Number(delay) : undefined);
  const sandboxes = await startSandboxes({ dataDir: options.dataDir, publishDelayMs, checkMedia: true, log });

  const named = socialBaseUrlsFromEnv(env);
  const active = { provider_a: !named.provider_a, provider_b: !named.provider_b };
  const baseUrls: SocialBaseUrls = { ...sandboxes.urls, ...named };
  mkdirSync(join(options.dataDir, 'sandboxes'), { recursive: true });
  writeFileSync(urlsFile(options.dataDir), JSON.stringify({ pid: process.pid, ...Object.fromEntries(Object.entries(sandboxes.urls).filter(([p]) => active[p as keyof typeof active])) }, null, 2));
  for (const provider of ['provider_a', 'provider_b'] as const) {
    if (!active[provider]) log(`${provider}: ${PROVIDER_ENV[provider]} is set, so the real provider there is used (its sandbox runs unused on ${sandboxes.urls[provider]})`);
  }

  const connectHint = (account: number): string | undefined => {
    if (!active.provider_a && !active.provider_b) return undefined;
    const parts = (['provider_a', 'provider_b'] as const).filter((p) => active[p]).map((p) => `${p} on ${sandboxes.urls[p]} (any key starting ${p === 'provider_a' ? 'sandbox_a_' : 'sandbox_b_'})`);
    const provider = active.provider_a ? 'provider_a' : 'provider_b';
    // The CLI finds these URLs through the data dir (runningSandboxBaseUrls), so no variable is needed.
    return (
      `Social sandboxes (no provider account needed): ${parts.join(', ')}. Connect one: ` +
      `npm run cli -- connections set --account ${account} --provider ${provider} --api-key ${provider === 'provider_a' ? 'sandbox_a_demo' : 'sandbox_b_demo'}`
    );
  };

  let stopping: Promise<void> | undefined;
  return {
    ...sandboxes,
    active,
    baseUrls,
    connectHint,
    stop: () =>
      (stopping ??= (async () => {
        rmSync(urlsFile(options.dataDir), { force: true });
        await sandboxes.stop();
      })()),
  };
}

/** The sandbox URLs a running local stack on this data dir serves (only those it uses), or undefined. */
export function readSandboxUrls(dataDir: string): { provider_a?: string; provider_b?: string } | undefined {
  try {
    const state = JSON.parse(readFileSync(urlsFile(dataDir), 'utf8')) as { pid: number; provider_a?: string; provider_b?: string };
    process.kill(state.pid, 0);
    return { provider_a: state.provider_a, provider_b: state.provider_b };
  } catch {
    return undefined;
  }
}

/**
 * For another process on the data dir (the CLI): the base URLs of the running stack's sandboxes,
 * except where the environment names a provider's URL.
 */
export function runningSandboxBaseUrls(dataDir: string, env: Environment = localEnvironment()): SocialBaseUrls {
  const urls = readSandboxUrls(dataDir);
  const running: SocialBaseUrls = {};
  for (const provider of ['provider_a', 'provider_b'] as const) {
    const url = urls?.[provider];
    if (url) running[provider] = url;
  }
  return { ...running, ...socialBaseUrlsFromEnv(env) };
}
