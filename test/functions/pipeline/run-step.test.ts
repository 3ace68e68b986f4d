/** The dispatch both runtimes share: a function runs exactly the steps the table gives it. */
import { logger } from '#functions/logger';
import { PipelineError } from '#pipeline/errors';
import { pipelineHandler, runStep } from '#pipeline/run-step';
import { PIPELINE_FUNCTIONS, PIPELINE_STEPS, STATE_OF_STEP, stepOfState, type PipelineStep, type StepPayload, type StepTasks, type TasksOf } from '#pipeline/steps';
import { JOB_STATE_NAMES } from '#domain/job-states';
import { testDependencies } from '#test-support/wiring';
import { RecordingMetrics } from '#test-doubles/memory/metrics';

const payload = (step: PipelineStep): StepPayload => ({ step, account_id: 1, job_id: 2 });

describe('runStep', () => {
  const deps = testDependencies();
  const calls: [string, unknown][] = [];
  const tasks: StepTasks = {
    prepare: async (p, d) => void calls.push([p.step, d]),
    finalize: async () => ({ done: true }),
  };

  test('runs the step with the runtime dependencies; no answer is null, as the state machine reads it', async () => {
    expect(await runStep('steps', tasks, payload('prepare'), deps)).toBeNull();
    expect(calls).toEqual([['prepare', deps]]);
    expect(await runStep('steps', tasks, payload('finalize'), deps)).toEqual({ done: true });
  });

  test('refuses a step of the other function, and a step nobody runs', async () => {
    await expect(runStep('render', tasks, payload('prepare'), deps)).rejects.toThrow(/prepare is not run by the render function/);
    await expect(runStep('steps', tasks, { ...payload('prepare'), step: 'toString' as PipelineStep }, deps)).rejects.toThrow(/is not run/);
  });

  test('a failed step is logged with the error itself, so the cause under a job error (the stderr of ffmpeg) is kept', async () => {
    const ffmpeg = Object.assign(new Error('ffmpeg exited with code 1'), { stderrTail: 'moov atom not found' });
    const failing: StepTasks = { prepare: async () => Promise.reject(new PipelineError('render_failed', 'could not render', { cause: ffmpeg })) };
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      await expect(runStep('steps', failing, payload('prepare'), deps)).rejects.toThrow(PipelineError);
      const [message, fields] = warn.mock.calls[0] as [string, { jobId: number; error: PipelineError }];
      expect(message).toBe('pipeline step failed');
      expect(fields.jobId).toBe(2);
      expect(fields.error.cause).toBe(ffmpeg);
    } finally {
      warn.mockRestore();
    }
  });

  test('the Lambda handler builds its dependencies on invocation and hands the step a signal', async () => {
    let built = 0;
    let signal: AbortSignal | undefined;
    const only: StepTasks = { prepare: async (_p, _d, s) => void (signal = s) };
    const handler = pipelineHandler('steps', only as TasksOf<'steps'>, () => (built++, deps));
    expect(built).toBe(0);
    await handler(payload('prepare'), { getRemainingTimeInMillis: () => 60_000 } as never);
    expect(built).toBe(1);
    expect(signal?.aborted).toBe(false);
  });
});

describe('render time', () => {
  test('each render step tells how long it took, also when it fails; bookkeeping steps tell nothing', async () => {
    const metrics = new RecordingMetrics();
    const deps = testDependencies({ metrics });
    const render: StepTasks = { compose: async () => null, render_preview: async () => Promise.reject(new Error('ffmpeg died')) };
    await runStep('render', render, payload('compose'), deps);
    await expect(runStep('render', render, payload('render_preview'), deps)).rejects.toThrow('ffmpeg died');
    await runStep('steps', { prepare: async () => null }, payload('prepare'), deps);
    expect(metrics.events.map((e) => ({ ...e, seconds: typeof (e as { seconds?: unknown }).seconds }))).toEqual([
      { name: 'RenderSeconds', step: 'compose', seconds: 'number' },
      { name: 'RenderSeconds', step: 'render_preview', seconds: 'number' },
    ]);
    for (const event of metrics.named('RenderSeconds')) expect(event.seconds).toBeGreaterThanOrEqual(0);
  });
});

describe('the step table', () => {
  test('every step runs in a state of the machine, in one of the two functions, each state sending one step', () => {
    for (const [step, spec] of Object.entries(PIPELINE_STEPS)) {
      expect(JOB_STATE_NAMES).toContain(spec.state);
      expect(Object.keys(PIPELINE_FUNCTIONS)).toContain(spec.fn);
      expect(stepOfState(spec.state)).toBe(step);
      expect(STATE_OF_STEP[step as PipelineStep]).toBe(spec.state);
    }
    expect(stepOfState('IsPreview')).toBeUndefined();
  });
});
