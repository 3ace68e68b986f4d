/**
 * A section's own local stack: started in a temporary folder of its own, and stopped and removed
 * after the section, whether it ended, failed or was interrupted; and accounts on it that call its API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalStack, LocalStackOptions } from '#local/runtime';
import type { PlanName } from '#domain/plans';
import { apiClient, type ApiCall } from './stack-client';

export interface SectionStack {
  stack: LocalStack;
  /** The section's temporary folder, for its files; the stack's data is in its `data` folder. */
  dir: string;
}

/**
 * Runs `work` on a fresh stack (a free port, its logs dropped unless `options.log` takes them) in a
 * new folder `rs-bench-<name>-*` under tmp, and stops the stack and removes the folder after.
 */
export async function onLocalStack<T>(name: string, options: LocalStackOptions, work: (section: SectionStack) => Promise<T>): Promise<T> {
  // Loaded here: `--only bundles` should not load the local stack at all.
  const { startLocalStack } = await import('#local/runtime');
  const dir = await mkdtemp(join(tmpdir(), `rs-bench-${name}-`));
  try {
    const stack = await startLocalStack({ dataDir: join(dir, 'data'), port: 0, log: () => undefined, ...options });
    // Ctrl-C must not leave DynamoDB Local and s3rver running.
    const interrupted = () => void stack.stop().finally(() => process.exit(130));
    process.once('SIGINT', interrupted);
    try {
      return await work({ stack, dir });
    } finally {
      process.off('SIGINT', interrupted);
      await stack.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface BenchAccount {
  accountId: number;
  /** A key holding every scope. */
  key: string;
  /** The stack's API, called with `key`. */
  call: ApiCall;
}

/** A new account on `plan`, made straight in the stack's stores, with a key of every scope. */
export async function benchAccount(stack: LocalStack, name: string, plan: PlanName): Promise<BenchAccount> {
  const { ALL_SCOPES } = await import('#domain/api-keys');
  const account = await stack.dependencies.accounts.create(name, plan);
  const { key } = await stack.dependencies.apiKeys.create(account.id, ALL_SCOPES);
  return { accountId: account.id, key, call: apiClient(stack.apiUrl, key) };
}
