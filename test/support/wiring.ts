/**
 * The tests' wiring: dependencies for code under test that runs without a stack, and a job runner
 * that a test points elsewhere (a runner that fails on purpose, a second runner over the same steps).
 */
import type { Dependencies } from '#ports/dependencies';
import type { JobDecision, JobExecutionInput } from '#pipeline/steps';
import type { JobRunner } from '#ports/job-runner';

const unwired = (port: string) => () => {
  throw new Error(`${port} is not wired in this test; pass it to testDependencies()`);
};

/** Every port throws when used unless the test passes it: a test says what its code may reach. */
export function testDependencies(overrides: Partial<Dependencies> = {}): Dependencies {
  return {
    jobRunner: { start: unwired('jobRunner'), sendDecision: unwired('jobRunner') },
    tasks: { dispatch: unwired('tasks') },
    blobs: new Proxy({} as Dependencies['blobs'], { get: (_target, method) => unwired(`blobs.${String(method)}`) }),
    now: () => new Date(),
    ...overrides,
  };
}

/** Forwards to the stack's own runner until a test switches it to another; `reset` switches back. */
export class SwitchableJobRunner implements JobRunner {
  private current: JobRunner;
  constructor(private readonly original: JobRunner) {
    this.current = original;
  }
  use(runner: JobRunner): void {
    this.current = runner;
  }
  reset(): void {
    this.current = this.original;
  }
  start(input: JobExecutionInput): Promise<void> {
    return this.current.start(input);
  }
  sendDecision(taskToken: string, decision: JobDecision): Promise<void> {
    return this.current.sendDecision(taskToken, decision);
  }
}
