/**
 * A bench section's own local stack (bench/local-stack.ts): the section runs on a serving stack in a
 * folder of its own, with accounts that call the API, and the stack is stopped and the folder removed
 * after it, whether it returned or threw; given pipeline hooks, its jobs go to a runner of its own
 * that calls them, stopped with the stack.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { benchAccount, onLocalStack } from '#bench/local-stack';
import { deleteTable, sharedEndpoints, uniqueName } from '#test-support/services';

// In the run's shared DynamoDB Local and s3rver, as the other suites' stacks, instead of two child processes.
const tables: string[] = [];
const stackOptions = () => {
  const name = uniqueName('bench-harness');
  tables.push(name);
  return { services: { ...sharedEndpoints(), tableName: name, bucketName: name }, sandboxes: false as const };
};

afterAll(async () => {
  for (const table of tables) await deleteTable(sharedEndpoints().dynamoEndpoint, table);
});

describe('a section on its own local stack', () => {
  test('works with an account whose key calls the API, and leaves no stack, folder or Ctrl-C handler behind', async () => {
    const sigintHandlers = process.listenerCount('SIGINT');
    let seen = { dir: '', apiUrl: '', status: 0, products: -1, handlersDuring: 0 };
    const answer = await onLocalStack('harness', stackOptions(), async ({ stack, dir }) => {
      const { call } = await benchAccount(stack, 'bench-harness', 'business');
      const listed = await call('GET', '/products');
      seen = { dir, apiUrl: stack.apiUrl, status: listed.status, products: listed.body.data.length, handlersDuring: process.listenerCount('SIGINT') };
      return 'measured';
    });

    expect(answer).toBe('measured');
    expect(seen).toMatchObject({ status: 200, products: 0, handlersDuring: sigintHandlers + 1 });
    expect(basename(seen.dir)).toMatch(/^rs-bench-harness-/);
    expect(existsSync(seen.dir)).toBe(false);
    expect(process.listenerCount('SIGINT')).toBe(sigintHandlers);
    await expect(fetch(`${seen.apiUrl}/products`)).rejects.toThrow();
  });

  test('that fails still stops its stack and removes its folder, and its error reaches the caller', async () => {
    let seen = { dir: '', apiUrl: '' };
    const run = onLocalStack('harness', stackOptions(), async ({ stack, dir }) => {
      seen = { dir, apiUrl: stack.apiUrl };
      throw new Error('the section failed');
    });

    await expect(run).rejects.toThrow('the section failed');
    expect(existsSync(seen.dir)).toBe(false);
    await expect(fetch(`${seen.apiUrl}/products`)).rejects.toThrow();
  });

  test('given pipeline hooks, sends the stack\'s jobs to a runner of its own that calls them, and stops it after', async () => {
    const wrapped: { step: string; jobId: number }[] = [];
    const pipeline = {
      wrapStep: async (payload: { step: string; job_id: number }, call: () => Promise<unknown>) => {
        wrapped.push({ step: payload.step, jobId: payload.job_id });
        return call();
      },
    };
    const jobs = await onLocalStack('harness', { ...stackOptions(), pipeline }, async ({ stack, jobs }) => {
      expect(jobs).not.toBe(stack.jobs);
      // No such job: its first step runs (through the hook) and the execution ends there.
      await stack.dependencies.jobRunner.start({ account_id: 1, job_id: 9999, job: { mode: 'auto', method: 'prompt' } });
      await jobs.idle();
      return jobs;
    });

    expect(wrapped[0]).toEqual({ step: 'prepare', jobId: 9999 });
    await expect(jobs.start({ account_id: 1, job_id: 9998, job: { mode: 'auto', method: 'prompt' } })).rejects.toThrow('stopped');
  });
});
