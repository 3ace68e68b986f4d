/**
 * How the local runner calls a pipeline step for a Task: the call itself (aborted when the Task times
 * out or the runner stops), a render slot first for the `render` function (granted oldest job first,
 * render-slots.ts, with the wait shown on the job's record, queue-positions.ts), and each Task's own
 * TimeoutSeconds counted from the moment the step really starts: a render step queued for a slot is
 * not yet late (the library's own Task timer is neutralised, see local-definition.ts). In throttle
 * mode a render step over the cap is refused at once with Lambda's own throttle error instead, which
 * the state machine's capacity retrier waits out, as on AWS under reserved concurrency.
 */
import { THROTTLED_ERROR, type PipelineFunction, type StepPayload } from '#pipeline/steps';
import { deadlineTimer } from './deadline-timer';
import type { Execution } from './execution';
import type { TaskInfo } from './local-definition';
import { queuePositions, type QueuePositions } from './queue-positions';
import { RenderSlots, type JobAge } from './render-slots';
import { lambdaResult, runnerStopped, stepError, taskError, type Json } from './task-outcomes';
import { waitAtMost } from './wait-at-most';

/** One call of a pipeline step, as the runner's options make it (fault injection included). */
export type StepCall = (payload: StepPayload, context: { signal: AbortSignal; only: PipelineFunction }) => Promise<unknown>;

/** The job records the render queue reads ages from and shows positions on. */
export interface QueueRecords {
  getJob(accountId: number, jobId: number): Promise<{ created_at?: string } | undefined>;
  setQueuePosition?(accountId: number, jobId: number, position: number | null): Promise<unknown>;
}

/** The render function's concurrency: its cap, and whether a step over it queues or is throttled. */
export interface RenderCapacity {
  size: number;
  throttle: boolean;
}

/** A running step, and how to cut it short (a Task timeout aborts its signal with States.Timeout). */
export interface RunningStep {
  running: Promise<unknown>;
  abort(reason: Error): void;
}

export class StepInvoker {
  /** Steps not yet returned, which stop() gives a grace period to finish their writes. */
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly positions: QueuePositions;
  private readonly renderSlots: RenderSlots;

  constructor(
    private readonly callStep: StepCall,
    private readonly records: QueueRecords,
    private readonly capacity: RenderCapacity,
    private readonly log: (line: string) => void,
  ) {
    this.positions = queuePositions(
      async (key, position) => {
        const [accountId, jobId] = key.split('/').map(Number) as [number, number];
        await records.setQueuePosition?.(accountId, jobId, position);
      },
      (key, error) => log(`job ${key}: queue position not recorded: ${String(error)}`),
    );
    this.renderSlots = new RenderSlots(capacity.size, this.positions.set);
  }

  /** Calls the step; its signal aborts with `abort()` or when the execution is stopped. */
  call(exec: Execution, fn: PipelineFunction, payload: StepPayload): RunningStep {
    const controller = new AbortController();
    const onStop = () => controller.abort(runnerStopped());
    exec.controller.signal.addEventListener('abort', onStop, { once: true });
    const running = Promise.resolve().then(() => this.callStep(payload, { signal: controller.signal, only: fn }));
    this.inflight.add(running);
    const forget = () => {
      this.inflight.delete(running);
      exec.controller.signal.removeEventListener('abort', onStop);
    };
    running.then(forget, forget);
    return { running, abort: (reason: Error) => controller.abort(reason) };
  }

  /** A lambda:invoke Task: the step, its timeout counted from when it starts, the Lambda-shaped result. */
  async invoke(exec: Execution, stateName: string, task: TaskInfo, payload: StepPayload): Promise<Json> {
    let release: () => void = () => undefined;
    if (task.fn === 'render') {
      if (!exec.heldSlot && this.capacity.throttle && this.renderSlots.full) {
        this.log(`job ${exec.key}: ${stateName} throttled, the render function is at its cap`);
        throw taskError(THROTTLED_ERROR, `Rate Exceeded. (the render function is at its ${this.capacity.size} concurrent executions)`);
      }
      release = exec.heldSlot ?? (await this.renderSlot(exec, payload));
      exec.heldSlot = undefined;
    }
    const { running: step, abort } = this.call(exec, task.fn, payload);
    // The Task gave up on this attempt (timeout): whatever the step does later, the job has moved on.
    let abandoned = false;
    // A failed step lets go at once: its retry may back off for seconds, and others can use the slot.
    // A step that succeeds after its Task timed out lets go too: the job is no longer there to keep it.
    step.then(() => (task.fn === 'render' && !exec.stopped && !abandoned ? (exec.heldSlot = release) : release()), release);
    let timer: ReturnType<typeof deadlineTimer> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      if (task.timeoutS === undefined) return;
      timer = deadlineTimer(Date.now() + task.timeoutS * 1000, () => {
        abandoned = true;
        const error = taskError('States.Timeout', `${stateName} did not finish within ${task.timeoutS} s`);
        reject(error);
        abort(error);
      });
    });
    try {
      const result = await Promise.race([
        step.catch((error: unknown) => {
          throw stepError(error);
        }),
        timedOut,
        exec.whenStopped,
      ]);
      return lambdaResult(result);
    } finally {
      timer?.cancel();
    }
  }

  /**
   * A job re-entered after a restart: the position its record still shows is cleared (a job that has
   * to wait again gets a new one).
   */
  clearStalePosition(key: string, recorded: number | null): void {
    this.positions.known(key, recorded);
    this.positions.set(key, null);
  }

  /** Waits for the steps still running to finish their write (or fail), but not longer than `graceMs`. */
  async drain(graceMs: number): Promise<void> {
    if (this.inflight.size > 0) await waitAtMost(Promise.allSettled([...this.inflight]), graceMs);
  }

  /** A render slot, oldest job first; the record stops showing a queue position before the step runs. */
  private async renderSlot(exec: Execution, payload: StepPayload): Promise<() => void> {
    const age = this.renderSlots.full
      ? await this.ageOf(exec, payload.account_id, payload.job_id)
      : exec.ageFrom(payload.account_id, payload.job_id, undefined);
    const release = await this.renderSlots.acquire(exec.key, age, exec.controller.signal);
    await this.positions.settled(exec.key);
    return release;
  }

  /** The job's age, read once per execution, and only when a step has to queue. */
  private ageOf(exec: Execution, accountId: number, jobId: number): Promise<JobAge> {
    return (exec.age ??= this.records
      .getJob(accountId, jobId)
      .then(
        (job) => exec.ageFrom(accountId, jobId, job?.created_at),
        () => exec.ageFrom(accountId, jobId, undefined),
      ));
  }
}
