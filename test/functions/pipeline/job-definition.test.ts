/**
 * The ASL file against the step table and against the language itself: asl-validator (the schema,
 * transitions, terminal states, at most one of TimeoutSeconds/TimeoutSecondsPath), the table's
 * check, the execution's TimeoutSeconds above the worst case of every path, and each Task's timeout
 * above its function's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkJobDefinition,
  DECISION_WAIT_MIN_S,
  DECISION_WAIT_PATH,
  executionWorstCaseS,
  JOB_STATE_MACHINE_FILE,
  jobDefinitionProblems,
  PIPELINE_FUNCTIONS,
  PIPELINE_STEPS,
  PROVIDER_WAIT_S,
  retrierOf,
  taskTimeoutS,
  type JobDefinition,
  type PipelineStep,
  CAPACITY_RETRIER,
  stepOfState,
} from '#pipeline/steps';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { JOB_STATE } from '#domain/job-states';

interface AslValidation {
  isValid: boolean;
  errorsText(separator?: string): string;
}
// asl-validator ships no type declarations; its entry is one function.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validateAsl = require('asl-validator') as (definition: unknown, options?: { checkPaths?: boolean; checkArn?: boolean }) => AslValidation;

const ROOT = resolve(__dirname, '..', '..', '..');
const readDefinition = (): JobDefinition & Record<string, unknown> => JSON.parse(readFileSync(resolve(ROOT, JOB_STATE_MACHINE_FILE), 'utf8'));
const STEPS = Object.keys(PIPELINE_STEPS) as PipelineStep[];
const DAY_S = 24 * 3600;
const { min } = Math;

describe('the ASL file', () => {
  test('is valid Amazon States Language (asl-validator, paths checked)', () => {
    // The function ARNs are substituted at deploy time; the validator checks the rest of every ARN.
    const result = validateAsl(readDefinition(), { checkPaths: true, checkArn: false });
    expect(result.errorsText()).toBe('');
    expect(result.isValid).toBe(true);
  });

  test('asl-validator refuses a Task with both TimeoutSeconds and TimeoutSecondsPath', () => {
    const definition = readDefinition();
    definition.States.AwaitDecision!.TimeoutSeconds = 60;
    expect(validateAsl(definition, { checkPaths: true, checkArn: false }).isValid).toBe(false);
  });

  test('agrees with the step table', () => {
    expect(jobDefinitionProblems(readDefinition())).toEqual([]);
    expect(() => checkJobDefinition(readDefinition())).not.toThrow();
  });

  test('a render Task catches a Lambda throttle into the capacity loop; every other Task waits it out for about an hour; both then retry service errors, Lambda.Unknown and client timeouts a few times', () => {
    const { States } = readDefinition();
    for (const [name, state] of Object.entries(States)) {
      if (state.Type !== 'Task') continue;
      const rendering = PIPELINE_STEPS[stepOfState(name)!].fn === 'render';
      const [first, second] = state.Retry ?? [];
      const retrier = rendering ? first : second;
      if (rendering) {
        expect({ name, catch: state.Catch?.[0] }).toEqual({ name, catch: { ErrorEquals: ['Lambda.TooManyRequestsException'], ResultPath: `$.capacity.${name}`, Next: 'AwaitCapacity' } });
      } else {
        expect({ name, capacity: first }).toEqual({ name, capacity: CAPACITY_RETRIER });
      }
      const errors = retrier?.ErrorEquals as string[];
      const all = errors.includes('States.ALL');
      for (const error of ['Lambda.ClientExecutionTimeoutException', 'Lambda.Unknown', 'Lambda.ServiceException']) {
        expect({ name, retried: all || errors.includes(error) }).toEqual({ name, retried: true });
      }
      expect(retrier).toMatchObject({ BackoffRate: 2, JitterStrategy: 'FULL', MaxDelaySeconds: 30 });
    }
    const longest = Array.from({ length: CAPACITY_RETRIER.MaxAttempts }, (_, i) => min(5 * 2 ** i, 120)).reduce((a, b) => a + b);
    // Full jitter draws each wait from 0 to its cap: the mean wait before giving up is half the caps' sum.
    expect(longest / 2).toBeGreaterThan(3_400);
    expect(longest / 2).toBeLessThan(3_800);
    // The loop: AwaitCapacity answers the wait and the Task to go back to; WaitForCapacity waits it; the Choice goes back.
    expect(States.AwaitCapacity).toMatchObject({ Parameters: { Payload: { step: 'await_capacity', 'throttled.$': '$.capacity' } }, ResultPath: '$.capacity', Next: 'WaitForCapacity' });
    expect(States.WaitForCapacity).toMatchObject({ Type: 'Wait', SecondsPath: '$.capacity.wait_s', Next: 'ResumeAfterCapacity' });
    expect((States.ResumeAfterCapacity as unknown as { Choices: { Next: string }[] }).Choices.map((c) => c.Next)).toEqual(['GenerateReaction', 'RenderPreview', 'Compose']);
  });

  test('a render Task that retries a throttle instead of showing the wait, or a bookkeeping Task without the capacity retrier, is named', () => {
    const definition = readDefinition();
    definition.States.GenerateReaction!.Catch = definition.States.GenerateReaction!.Catch!.slice(1);
    definition.States.Finalize!.Retry = [retrierOf('transient')];
    expect(jobDefinitionProblems(definition)).toEqual([
      expect.stringMatching(/^Task GenerateReaction must first catch Lambda.TooManyRequestsException into \$.capacity.GenerateReaction and go to AwaitCapacity/),
      expect.stringMatching(/^Task Finalize retries .*the table says capacity then transient/),
    ]);
  });

  test('a retrier that drifted from its class is named', () => {
    const definition = readDefinition();
    definition.States.Compose!.Retry = [{ ...retrierOf('transient'), ErrorEquals: ['Job.Retryable'] }];
    expect(jobDefinitionProblems(definition)).toEqual([expect.stringMatching(/^Task Compose retries .*Job\.Retryable.*the table says transient/)]);
  });

  test("every calling Task's TimeoutSeconds outlasts its function's timeout, so the function's own timeout ends an attempt first", () => {
    const definition = readDefinition();
    for (const step of STEPS) {
      const state = definition.States[PIPELINE_STEPS[step].state]!;
      const fnTimeoutS = PIPELINE_FUNCTIONS[PIPELINE_STEPS[step].fn].callBudgetS;
      const waitS = state.TimeoutSeconds ?? DECISION_WAIT_MIN_S;
      expect({ step, longer: waitS > fnTimeoutS }).toEqual({ step, longer: true });
      // AwaitProvider waits for a webhook, not for its function: PROVIDER_WAIT_S, then GenerateReaction asks fal itself.
      const expected = step === 'await_provider' ? PROVIDER_WAIT_S : taskTimeoutS(step);
      if (state.TimeoutSeconds !== undefined) expect({ step, timeoutS: state.TimeoutSeconds }).toEqual({ step, timeoutS: expected });
    }
  });

  test('AwaitProvider waits PROVIDER_WAIT_S, longer than fal is given for a video, then goes back to GenerateReaction: a lost webhook never leaves a job waiting', () => {
    const { States } = readDefinition();
    expect(States.AwaitProvider).toMatchObject({ TimeoutSeconds: PROVIDER_WAIT_S, Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken', Next: JOB_STATE.GenerateReaction });
    expect(PROVIDER_WAIT_S).toBeGreaterThan(600);
    expect(States.AwaitProvider!.Catch![0]).toEqual({ ErrorEquals: ['States.Timeout'], ResultPath: null, Next: JOB_STATE.GenerateReaction });
    expect(States.GenerateReaction).toMatchObject({ ResultSelector: { 'awaiting.$': '$.Payload.awaiting_provider' }, ResultPath: '$.generation', Next: JOB_STATE.IsGenerated });
    const drifted = readDefinition();
    drifted.States.AwaitProvider = { ...drifted.States.AwaitProvider!, Catch: drifted.States.AwaitProvider!.Catch!.slice(1) };
    expect(jobDefinitionProblems(drifted)).toEqual([expect.stringMatching(/AwaitProvider must first catch States.Timeout/)]);
    const endless = readDefinition();
    endless.States.AwaitProvider = { ...endless.States.AwaitProvider!, TimeoutSeconds: undefined };
    expect(jobDefinitionProblems(endless)).toEqual([expect.stringMatching(/AwaitProvider must wait TimeoutSeconds 660/)]);
  });

  test('AwaitDecision waits up to the deadline ChargePreview computes, never a fixed 30 days that a regeneration would restart', () => {
    const { States } = readDefinition();
    expect(States.AwaitDecision).toMatchObject({ TimeoutSecondsPath: DECISION_WAIT_PATH });
    expect(States.AwaitDecision!.TimeoutSeconds).toBeUndefined();
    expect(States.ChargePreview).toMatchObject({ ResultSelector: { 'seconds.$': '$.Payload.decision_wait_s' }, ResultPath: '$.decision_wait' });
    const drifted = readDefinition();
    drifted.States.AwaitDecision = { ...drifted.States.AwaitDecision!, TimeoutSeconds: 30 * DAY_S, TimeoutSecondsPath: undefined };
    expect(jobDefinitionProblems(drifted)).toEqual([expect.stringMatching(/AwaitDecision must wait TimeoutSecondsPath/)]);
  });

  test("the execution's TimeoutSeconds is above the worst case of every path, and the check says so when it is not", () => {
    const definition = readDefinition();
    const worst = executionWorstCaseS();
    // The preview wait once, plus 21 rounds of failing renders, each round parking at AwaitProvider
    // 16 times (a hosted engine by callback), each Task throttled to its longest, and the final steps:
    // about 108 and a half days more (eleven and a half without the provider waits).
    expect(worst).toBeGreaterThan(PREVIEW_WAIT_MAX_S + 108 * DAY_S);
    expect(worst).toBeLessThan(PREVIEW_WAIT_MAX_S + 109 * DAY_S);
    expect(definition.TimeoutSeconds).toBeGreaterThan(worst);
    // The 33 days the file had before the capacity retrier would cut the longest preview job short.
    expect(jobDefinitionProblems({ ...definition, TimeoutSeconds: 33 * DAY_S })).toEqual([
      expect.stringMatching(/execution's TimeoutSeconds is 2851200; it must be above the worst case of \d+ s/),
    ]);
    expect(jobDefinitionProblems({ ...definition, TimeoutSeconds: undefined })).toHaveLength(1);
  });
});
