/**
 * A section's own local stack: started in a temporary folder of its own, and stopped and removed
 * after the section, whether it ended, failed or was interrupted; its jobs run by the stack's runner
 * or, given pipeline hooks, by one of the section's; and accounts on it that call its API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalStack, LocalStackOptions } from '#local/runtime';
import type { LocalJobRunner, LocalJobRunnerOptions } from '#local/job-runner';
import type { JobRunner } from '#ports/job-runner';
import type { PlanName } from '#domain/plans';
import { apiClient, type ApiCall } from './stack-client';

export interface SectionStack {
  stack: LocalStack;
  /** The section's temporary folder, for its files; the stack's data is in its `data` folder. */
  dir: string;
  /** The runner the stack's jobs go to: the stack's own, or the section's built with `options.pipeline`. */
  jobs: LocalJobRunner;
}

export interface SectionStackOptions extends LocalStackOptions {
  /**
   * Hooks on the pipeline (a step's timing, its log): the stack's jobs then go to a runner built as the
   * stack builds its own (the same steps and store, the runner's defaults) with these, instead of the
   * stack's; it is stopped before the stack.
   */
  pipeline?: Pick<LocalJobRunnerOptions, 'wrapStep' | 'log'>;
}

/**
 * Runs `work` on a fresh stack (a free port, its logs dropped unless `options.log` takes them) in a
 * new folder `rs-bench-<name>-*` under tmp, and stops the stack and removes the folder after.
 */
export async function onLocalStack<T>(name: string, options: SectionStackOptions, work: (section: SectionStack) => Promise<T>): Promise<T> {
  // Loaded here: `--only bundles` should not load the local stack at all.
  const { startLocalStack } = await import('#local/runtime');
  const { pipeline, ...stackOptions } = options;
  const dir = await mkdtemp(join(tmpdir(), `rs-bench-${name}-`));
  try {
    // The section's runner needs the stack's stores, so it is built once they are up; jobs reach it through this.
    let sectionJobs: LocalJobRunner | undefined;
    const toSectionJobs: JobRunner | undefined = pipeline && {
      start: (input) => sectionJobs!.start(input),
      sendDecision: (token, decision) => sectionJobs!.sendDecision(token, decision),
    };
    const stack = await startLocalStack({
      dataDir: join(dir, 'data'),
      port: 0,
      log: () => undefined,
      ...stackOptions,
      adjustDependencies: (built) => {
        const adjusted = stackOptions.adjustDependencies?.(built) ?? built;
        return toSectionJobs ? { ...adjusted, jobRunner: toSectionJobs } : adjusted;
      },
    });
    const stop = async () => {
      await sectionJobs?.stop();
      await stack.stop();
    };
    // Ctrl-C must not leave DynamoDB Local and s3rver running.
    const interrupted = () => void stop().finally(() => process.exit(130));
    process.once('SIGINT', interrupted);
    try {
      if (pipeline) {
        const { createLocalJobRunner } = await import('#local/job-runner');
        const { localPipeline } = await import('#local/pipeline-steps');
        sectionJobs = createLocalJobRunner({ ...localPipeline(() => stack.dependencies), ...pipeline });
      }
      return await work({ stack, dir, jobs: sectionJobs ?? stack.jobs });
    } finally {
      process.off('SIGINT', interrupted);
      await stop();
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
