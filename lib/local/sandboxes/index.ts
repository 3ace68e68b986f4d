/**
 * The two social-provider sandboxes together (DESIGN §5): loopback servers speaking provider_a's
 * (Ayrshare) and provider_b's (Post for Me) contracts, so publishing works end to end with no account
 * anywhere. The local runtime starts them with the stack; tests start them directly.
 *
 *   provider_a: keys `sandbox_a_<anything>`, base URL `<origin>/api`
 *   provider_b: keys `sandbox_b_<anything>`, base URL `<origin>` (paths /v1/...)
 *
 * With the local stack (`startLocalSandboxes`): unless SOCIAL_SANDBOXES=off, both start with a serving
 * stack; PROVIDER_A_BASE_URL / PROVIDER_B_BASE_URL point at them unless already set (then the real
 * providers, or whatever they name, are used), and are restored when the stack stops. Their URLs are
 * written to `<dataDir>/sandboxes/urls.json` for other processes on the data dir (the CLI): see
 * `useRunningSandboxes`. Posts are kept in `<dataDir>/sandboxes/provider-{a,b}.json`.
 * SOCIAL_SANDBOX_PUBLISH_DELAY_MS sets both publish delays (default 2 s for a, 3 s for b).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startProviderASandbox, type ProviderASandbox, type ProviderASandboxOptions } from './provider-a-sandbox';
import { startProviderBSandbox, type ProviderBSandbox, type ProviderBSandboxOptions } from './provider-b-sandbox';

export * from './provider-a-sandbox';
export * from './provider-b-sandbox';
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

export interface LocalSandboxes extends SocialSandboxes {
  /** Which providers the process talks to through the sandboxes (false: the variable was set by the user). */
  active: { provider_a: boolean; provider_b: boolean };
}

const urlsFile = (dataDir: string) => join(dataDir, 'sandboxes', 'urls.json');

/**
 * For the local stack: starts both sandboxes (unless SOCIAL_SANDBOXES=off: undefined), points the
 * provider base-URL variables the user did not set at them, tells the newcomer how to connect, and
 * undoes all that on stop.
 */
export async function startLocalSandboxes(options: { dataDir: string; log?: (line: string) => void; accountId?: number }): Promise<LocalSandboxes | undefined> {
  if ((process.env.SOCIAL_SANDBOXES ?? '').trim().toLowerCase() === 'off') return undefined;
  const log = options.log ?? (() => undefined);
  const delay = process.env.SOCIAL_SANDBOX_PUBLISH_DELAY_MS;
  const publishDelayMs = delay !== undefined && /^\d+$/.test(delay.trim()) ? Number(delay) : undefined;
  const sandboxes = await startSandboxes({ dataDir: options.dataDir, publishDelayMs, checkMedia: true, log });

  const active = { provider_a: false, provider_b: false };
  const previous: Partial<Record<string, string | undefined>> = {};
  for (const provider of ['provider_a', 'provider_b'] as const) {
    const name = PROVIDER_ENV[provider];
    if (process.env[name]) continue;
    previous[name] = process.env[name];
    process.env[name] = sandboxes.urls[provider];
    active[provider] = true;
  }
  mkdirSync(join(options.dataDir, 'sandboxes'), { recursive: true });
  writeFileSync(urlsFile(options.dataDir), JSON.stringify({ pid: process.pid, ...Object.fromEntries(Object.entries(sandboxes.urls).filter(([p]) => active[p as keyof typeof active])) }, null, 2));

  const account = options.accountId ?? 1;
  if (active.provider_a || active.provider_b) {
    const parts = (['provider_a', 'provider_b'] as const).filter((p) => active[p]).map((p) => `${p} on ${sandboxes.urls[p]} (any key starting ${p === 'provider_a' ? 'sandbox_a_' : 'sandbox_b_'})`);
    const provider = active.provider_a ? 'provider_a' : 'provider_b';
    // The CLI finds these URLs through the data dir (useRunningSandboxes), so no variable is needed.
    log(
      `Social sandboxes (no provider account needed): ${parts.join(', ')}. Connect one: ` +
        `npm run cli -- connections set --account ${account} --provider ${provider} --api-key ${provider === 'provider_a' ? 'sandbox_a_demo' : 'sandbox_b_demo'}`,
    );
  }
  for (const provider of ['provider_a', 'provider_b'] as const) {
    if (!active[provider]) log(`${provider}: ${PROVIDER_ENV[provider]} is set, so the real provider there is used (its sandbox runs unused on ${sandboxes.urls[provider]})`);
  }

  let stopping: Promise<void> | undefined;
  return {
    ...sandboxes,
    active,
    stop: () =>
      (stopping ??= (async () => {
        for (const [name, value] of Object.entries(previous)) {
          // Only undo what we set (a variable changed since is someone else's).
          const ours = name === PROVIDER_ENV.provider_a ? sandboxes.urls.provider_a : sandboxes.urls.provider_b;
          if (process.env[name] !== ours) continue;
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
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
 * For another process on the data dir (the CLI): points PROVIDER_A/B_BASE_URL at the running stack's
 * sandboxes, unless the variable is already set. Returns the providers it pointed.
 */
export function useRunningSandboxes(dataDir: string): Array<'provider_a' | 'provider_b'> {
  const urls = readSandboxUrls(dataDir);
  const used: Array<'provider_a' | 'provider_b'> = [];
  for (const provider of ['provider_a', 'provider_b'] as const) {
    const url = urls?.[provider];
    if (!url || process.env[PROVIDER_ENV[provider]]) continue;
    process.env[PROVIDER_ENV[provider]] = url;
    used.push(provider);
  }
  return used;
}
