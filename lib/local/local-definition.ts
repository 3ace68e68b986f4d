/**
 * The ASL file as the local runner drives it with `aws-local-stepfunctions`: checked against the step
 * table, its substitutions filled with local function names, and the library's timers neutralised (it
 * arms one setTimeout per Task, 60 s when TimeoutSeconds is absent, and one for the execution; the
 * runner enforces each Task's own TimeoutSeconds or TimeoutSecondsPath, and the execution's
 * TimeoutSeconds, itself: step-invoker.ts, task-tokens.ts, executions.ts).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import {
  checkJobDefinition,
  JOB_STATE_MACHINE_FILE,
  PIPELINE_FUNCTIONS,
  PIPELINE_STEPS,
  stepOfState,
  type JobDefinition,
  type PipelineFunction,
  type PipelineStep,
} from '#pipeline/steps';
import { MAX_TIMER_MS } from './deadline-timer';

// aws-local-stepfunctions 3 calls Promise.withResolvers (Node 22); keep Node 20 working too.
const promiseStatics = Promise as unknown as { withResolvers?: () => unknown };
promiseStatics.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

const REPO_ROOT = resolve(__dirname, '..', '..');

/** The Task timeout the copy hands the library: as long as its single timer can wait. */
const LIBRARY_TASK_TIMEOUT_S = Math.floor(MAX_TIMER_MS / 1000);

/** The FunctionName a pipeline function gets in the local copy of the definition. */
const localFunctionName = (fn: PipelineFunction) => `local:${fn}`;

/**
 * The parameter the copy adds to a Task with TimeoutSecondsPath: the library then resolves the path
 * against the state's input, as Step Functions does, and the runner reads the timeout from the
 * parameters its handler gets (executions.ts). The library itself would resolve the path after
 * Parameters, against the wrong document.
 */
export const LOCAL_TIMEOUT_PARAMETER = 'LocalTimeoutSeconds';

/** The Task states of the definition, as the runner needs them. */
export interface TaskInfo {
  fn: PipelineFunction;
  step: PipelineStep;
  waitsForToken: boolean;
  /** The state's own TimeoutSeconds; undefined: none (AWS's default is ~3 years), or read per run (`timeoutPath`). */
  timeoutS?: number;
  /** The state's TimeoutSecondsPath: each run's timeout comes from its input (LOCAL_TIMEOUT_PARAMETER). */
  timeoutPath?: string;
}

export interface LocalDefinition {
  definition: StateMachineDefinition;
  tasks: Record<string, TaskInfo>;
  /** The execution's TimeoutSeconds, which the runner enforces (the copy has none). */
  executionTimeoutS?: number;
}

/**
 * Reads the ASL file and prepares the copy the library runs: checked against the step table
 * (checkJobDefinition; a file other than the repository's may shorten its timeouts, as tests do),
 * substitutions filled with local function names, and the library's timers neutralised (see the
 * module comment).
 */
export function loadLocalDefinition(definitionPath: string = JOB_STATE_MACHINE_FILE): LocalDefinition {
  const file = isAbsolute(definitionPath) ? definitionPath : resolve(REPO_ROOT, definitionPath);
  const raw = readFileSync(file, 'utf8');
  // The repository's file is held to its timeouts too (the execution's above the worst case); a test's copy may shorten them.
  checkJobDefinition(JSON.parse(raw) as JobDefinition, file, { timeouts: file === resolve(REPO_ROOT, JOB_STATE_MACHINE_FILE) });
  const substitutions = new Map<string, PipelineFunction>(
    Object.entries(PIPELINE_FUNCTIONS).map(([fn, spec]) => [spec.substitution, fn as PipelineFunction]),
  );
  const text = raw.replace(/\$\{(\w+)\}/g, (_, name: string) => {
    const fn = substitutions.get(name);
    if (!fn) throw new Error(`${file}: no pipeline function has the substitution \${${name}}`);
    return localFunctionName(fn);
  });
  const definition = JSON.parse(text) as StateMachineDefinition & { TimeoutSeconds?: number };
  // The runner holds the execution's limit with a timer that can wait past 24.8 days (executions.ts).
  const executionTimeoutS = definition.TimeoutSeconds;
  delete definition.TimeoutSeconds;

  const tasks: Record<string, TaskInfo> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    const step = stepOfState(name);
    if (state.Type !== 'Task' || !step) continue;
    if ('HeartbeatSeconds' in state || 'HeartbeatSecondsPath' in state) {
      throw new Error(`${file}: state ${name}: HeartbeatSeconds is not supported by the local runner`);
    }
    const spec: { fn: PipelineFunction; waitsForToken?: 'decision' | 'provider' } = PIPELINE_STEPS[step];
    const timeoutPath = state.TimeoutSecondsPath;
    tasks[name] = { fn: spec.fn, step, waitsForToken: spec.waitsForToken !== undefined, timeoutS: state.TimeoutSeconds, timeoutPath };
    if (timeoutPath) {
      delete state.TimeoutSecondsPath;
      const withParameters = state as { Parameters?: Record<string, unknown> };
      withParameters.Parameters = { ...withParameters.Parameters, [`${LOCAL_TIMEOUT_PARAMETER}.$`]: timeoutPath };
    }
    state.TimeoutSeconds = LIBRARY_TASK_TIMEOUT_S;
  }
  return { definition, tasks, executionTimeoutS };
}

/** The definition entered at `startAt`, without the states it can no longer reach (ASL forbids those). */
export function reachableFrom(definition: StateMachineDefinition, startAt: string): StateMachineDefinition {
  if (!definition.States[startAt]) throw new Error(`The state machine has no state ${startAt}`);
  const reached = new Set<string>();
  const visit = (name: string | undefined) => {
    if (!name || reached.has(name)) return;
    reached.add(name);
    const state = definition.States[name] as {
      Next?: string;
      Default?: string;
      Choices?: { Next: string }[];
      Catch?: { Next: string }[];
    };
    visit(state.Next);
    visit(state.Default);
    for (const rule of state.Choices ?? []) visit(rule.Next);
    for (const catcher of state.Catch ?? []) visit(catcher.Next);
  };
  visit(startAt);
  return {
    ...definition,
    StartAt: startAt,
    States: Object.fromEntries(Object.entries(definition.States).filter(([name]) => reached.has(name))),
  };
}

/** StateMachine objects keep no per-run state: one per distinct definition, shared by runners. */
const machineCache = new Map<string, StateMachine>();
export function machineOf(definition: StateMachineDefinition, validate: boolean): StateMachine {
  const key = JSON.stringify(definition);
  let machine = machineCache.get(key);
  if (!machine) {
    machine = new StateMachine(definition, { validationOptions: { noValidate: !validate } });
    machineCache.set(key, machine);
  }
  return machine;
}
