/**
 * What the local runner runs the pipeline with, over the local stack's dependencies: `runStep` loads
 * each pipeline function's entry (the module its Lambda runs, by the path the step table names) on
 * its first step, as the local HTTP server loads each handler group's, and runs its task map; `store`
 * is the runner's view of the job store and the ledger; `executionEnded` fails the job of an execution
 * that ended failed or timed out, with the code the EventBridge rule's function uses on AWS.
 */
import { resolve } from 'node:path';
import type { PortSource } from '#ports/ports';
import { failEndedExecution } from '#pipeline/execution-ended';
import { runStep } from '#pipeline/run-step';
import { IN_FLIGHT } from '#pipeline/job-context';
import { failStuckProcessing } from '#pipeline/stuck-processing';
import { sweepStrandedWork } from '#pipeline/sweeper';
import { PIPELINE_FUNCTIONS, SWEEP_INTERVAL_MINUTES, type PipelineFunction, type StepTasks } from '#pipeline/steps';
import type { LocalJobRunnerOptions } from './job-runner';

const REPO_ROOT = resolve(__dirname, '..', '..');

export function localPipeline(dependencies: PortSource): Pick<LocalJobRunnerOptions, 'runStep' | 'store' | 'executionEnded'> {
  const loaded = new Map<PipelineFunction, StepTasks>();
  const tasksOf = (fn: PipelineFunction): StepTasks => {
    let tasks = loaded.get(fn);
    if (!tasks) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      tasks = (require(resolve(REPO_ROOT, PIPELINE_FUNCTIONS[fn].entry)) as { tasks: StepTasks }).tasks;
      loaded.set(fn, tasks);
    }
    return tasks;
  };
  return {
    runStep: async (payload, { signal, only }) => runStep(only, tasksOf(only), payload, dependencies(), signal),
    executionEnded: async (ended) => failEndedExecution(dependencies(), ended),
    store: {
      listActiveJobs: async () => dependencies().jobs.listActive(),
      getJob: async (accountId, jobId) => dependencies().jobs.get(accountId, jobId),
      // Jobs written but never started need no sweep here: resuming every active job starts them.
      sweepStrandedUnits: async () => sweepStrandedWork(dependencies()),
      // Only while the job is in flight: a late write must not touch a job that already ended.
      setQueuePosition: async (accountId, jobId, position) =>
        dependencies().jobs.update(accountId, jobId, { queue_position: position }, { statusIn: IN_FLIGHT }),
    },
  };
}

/**
 * The sweeper as the local stack runs it (on AWS a schedule runs functions/handlers/sweeper.ts):
 * `sweep` once at start, before interrupted work is resumed, so a record past its deadline fails
 * instead of being resumed; then every SWEEP_INTERVAL_MINUTES on an unref'd timer. Jobs never started
 * need no sweep here: resuming every active job starts them.
 */
export function localSweeper(dependencies: PortSource, log: (line: string) => void) {
  const sweep = async () => {
    try {
      const deps = dependencies();
      const report = { ...(await sweepStrandedWork(deps)), ...(await failStuckProcessing(deps)) };
      if (Object.values(report).some((value) => (Array.isArray(value) ? value.length > 0 : value > 0))) log(`sweeper: ${JSON.stringify(report)}`);
    } catch (error) {
      log(`sweeper failed: ${String(error)}`);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    sweep,
    start(intervalMs = SWEEP_INTERVAL_MINUTES * 60_000) {
      timer ??= setInterval(() => void sweep(), intervalMs).unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

