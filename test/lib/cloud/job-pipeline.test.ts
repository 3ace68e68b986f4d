/**
 * The job pipeline construct: the two pipeline functions and the Standard state machine built from the
 * ASL file, the sweeper and the execution-ended function, read from the synthesised stack (the trees of
 * the render image are stand-ins there: one small file each instead of ffmpeg and the native modules).
 * The rest of the stack's wiring (API grants, outputs) is in stack.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import {
  DECISION_WAIT_MIN_S,
  DECISION_WAIT_PATH,
  PROVIDER_WAIT_S,
  JOB_STATE_MACHINE_FILE,
  jobDefinitionProblems,
  retrierOf,
  taskTimeoutS,
  PIPELINE_FUNCTIONS,
  PIPELINE_STEPS,
  STATE_OF_STEP,
  SWEEP_INTERVAL_MINUTES,
  SWEEPER_FUNCTION,
  EXECUTION_ENDED_FUNCTION,
  JOB_STARTER_FUNCTION,
  type PipelineFunction,
  type JobDefinition,
  type PipelineStep,
} from '#pipeline/steps';
import { JOB_STATE_NAMES } from '#domain/job-states';
import { DEFAULT_BEDROCK_HOOKS_MODEL, type EngineConfig } from '#cloud/engine-config';
import { EXECUTION_ENDED_FUNCTION_SIZE, JOB_STARTER_FUNCTION_SIZE, PIPELINE_FUNCTION_SIZES, SWEEPER_FUNCTION_SIZE } from '#cloud/function-sizes';
import { keys } from '#adapters/dynamodb/keys';
import { ServiceFunction } from '#cloud/service-function';
import { IMAGE_COPIES, IMAGE_HANDLER, imageTreesFor, parseDockerfile, RENDER_DOCKERFILE } from '#cloud/render-image';
import { bareStack, synthesisePipeline } from '#test-support/pipeline-stack';
import { LIVE_ALIAS } from '#cloud/job-pipeline';
import { actionsOf, referencedIds, resourcesOfType, synthesisedStack, type Json, type Resource, type Statement } from '#test-support/cdk-template';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FUNCTIONS = Object.keys(PIPELINE_FUNCTIONS) as PipelineFunction[];
/** cdk.json's context chooses no engine: every one is local. */
const ENGINES: EngineConfig = {
  avatar: 'local',
  reaction: 'local',
  hooks: 'local',
  bedrockModelId: DEFAULT_BEDROCK_HOOKS_MODEL,
};

const { resources, outdir, ids } = synthesisedStack();
const jobs = ids.jobs;

// ---- helpers ----

const ofType = (type: string) => resourcesOfType(resources, type);
const functionId = (name: PipelineFunction) => jobs.functions[name];
const aliasId = (name: PipelineFunction) => jobs.aliases[name];
/** The function an alias (by logical id) is of. */
const functionOfAlias = (id: string) => FUNCTIONS.find((f) => aliasId(f) === id);
const functionProps = (name: PipelineFunction): Json => resources[functionId(name)]!.Properties;

function stateMachine(): [string, Resource] {
  const found = ofType('AWS::StepFunctions::StateMachine');
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** Every statement of every policy attached to a role. */
function statementsOfRole(roleId: string): Statement[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const roleOfFunction = (name: PipelineFunction) => functionProps(name).Role['Fn::GetAtt'][0] as string;


/** The definition CloudFormation hands Step Functions: the staged asset, as uploaded. */
function stagedDefinition(): string {
  const [, sm] = stateMachine();
  const key = sm.Properties.DefinitionS3Location.Key as string;
  return fs.readFileSync(path.join(outdir, `asset.${key}`), 'utf8');
}

/** `${Name}` placeholders in the definition text. */
const placeholders = (text: string) => [...new Set([...text.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!))];

const ARN_MARKER = 'arn:test:function:';

/** The definition after CloudFormation's substitution, each function ARN written as a marker naming its logical id. */
function substitutedDefinition(): Json {
  const [, sm] = stateMachine();
  const substitutions = sm.Properties.DefinitionSubstitutions as Record<string, Json>;
  const text = stagedDefinition().replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    const value = substitutions[name];
    if (value === undefined) return whole;
    // An alias's ARN is its Ref.
    expect(value).toEqual({ Ref: expect.any(String) });
    return `${ARN_MARKER}${value.Ref}`;
  });
  return JSON.parse(text);
}

const taskStates = (definition: Json) =>
  Object.entries(definition.States as Record<string, Json>).filter(([, state]) => state.Type === 'Task');

// ---- the state machine ----

describe('the job state machine', () => {
  test('is one Standard state machine', () => {
    const [, sm] = stateMachine();
    expect(sm.Properties.StateMachineType).toBe('STANDARD');
  });

  test('is deployed from the ASL file, unchanged', () => {
    const [, sm] = stateMachine();
    expect(sm.Properties.DefinitionString).toBeUndefined();
    expect(stagedDefinition()).toBe(fs.readFileSync(path.join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8'));
  });

  test("substitutes each pipeline function's live alias ARN (never the bare function), and every placeholder the file uses", () => {
    const [, sm] = stateMachine();
    const substitutions = sm.Properties.DefinitionSubstitutions as Record<string, Json>;
    expect(Object.keys(substitutions).sort()).toEqual(FUNCTIONS.map((f) => PIPELINE_FUNCTIONS[f].substitution).sort());
    for (const name of FUNCTIONS) {
      expect(substitutions[PIPELINE_FUNCTIONS[name].substitution]).toEqual({ Ref: aliasId(name) });
    }
    expect(placeholders(stagedDefinition()).sort()).toEqual(Object.keys(substitutions).sort());
  });

  test('after substitution parses as JSON with the same states as the ASL file', () => {
    const asl = JSON.parse(fs.readFileSync(path.join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8')) as Json;
    const definition = substitutedDefinition();
    expect(definition.StartAt).toBe(asl.StartAt);
    expect(Object.keys(definition.States).sort()).toEqual(Object.keys(asl.States).sort());
    expect(JSON.stringify(definition)).not.toMatch(/\$\{/);
  });

  test("every Task invokes the live alias of one of the two pipeline functions, the one that runs its step", () => {
    const ids = new Map(FUNCTIONS.map((f) => [`${ARN_MARKER}${aliasId(f)}`, f]));
    const tasks = taskStates(substitutedDefinition());
    expect(tasks.length).toBeGreaterThan(0);
    const used = new Set<PipelineFunction>();
    for (const [name, state] of tasks) {
      expect({ name, resource: state.Resource }).toEqual({ name, resource: expect.stringMatching(/^arn:aws:states:::lambda:invoke/) });
      const fn = ids.get(state.Parameters.FunctionName);
      expect({ name, fn }).toEqual({ name, fn: expect.any(String) });
      const step = state.Parameters.Payload.step as PipelineStep;
      expect({ name, fn: PIPELINE_STEPS[step].fn }).toEqual({ name, fn });
      expect({ step, state: STATE_OF_STEP[step] }).toEqual({ step, state: name });
      used.add(fn!);
    }
    expect([...used].sort()).toEqual([...FUNCTIONS].sort());
  });

  test('the ASL file agrees with the step table: its states, and each Task\'s step, function, timeout, retries and integration', () => {
    const asl = JSON.parse(fs.readFileSync(path.join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8')) as JobDefinition;
    expect(Object.keys(asl.States).sort()).toEqual([...JOB_STATE_NAMES].sort());
    expect(jobDefinitionProblems(asl)).toEqual([]);
    for (const [step, spec] of Object.entries(PIPELINE_STEPS) as [PipelineStep, (typeof PIPELINE_STEPS)[PipelineStep]][]) {
      const state = asl.States[spec.state];
      const waits = 'waitsForToken' in spec ? spec.waitsForToken : undefined;
      const timeout = waits === 'decision' ? state?.TimeoutSecondsPath : state?.TimeoutSeconds;
      expect({ step, timeout }).toEqual({ step, timeout: waits === 'decision' ? DECISION_WAIT_PATH : waits === 'provider' ? PROVIDER_WAIT_S : taskTimeoutS(step) });
    }
  });

  test('a drift between the ASL file and the table is named', () => {
    const asl = JSON.parse(fs.readFileSync(path.join(ROOT, JOB_STATE_MACHINE_FILE), 'utf8')) as JobDefinition;
    asl.States.Compose!.TimeoutSeconds = 1;
    asl.States.Finalize!.Parameters!.FunctionName = '${JobRenderFunctionArn}';
    asl.States.MarkFailed!.Retry = [{ ...retrierOf('always'), ErrorEquals: ['Job.Retryable'] }];
    asl.States.Renamed = asl.States.ChargePreview!;
    delete asl.States.ChargePreview;
    expect(jobDefinitionProblems(asl)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Compose has TimeoutSeconds 1/),
        expect.stringMatching(/MarkFailed retries .*"Job.Retryable".*, the table says capacity then always/),
        expect.stringMatching(/Finalize invokes \$\{JobRenderFunctionArn\}, not the steps function/),
        expect.stringMatching(/state Renamed is not in JOB_STATE_NAMES/),
        expect.stringMatching(/state ChargePreview of JOB_STATE_NAMES is missing/),
        expect.stringMatching(/no Task sends step charge_preview/),
      ]),
    );
  });

  test('every Task state has a Retry and a Catch', () => {
    for (const [name, state] of taskStates(substitutedDefinition())) {
      expect({ name, retries: (state.Retry ?? []).length > 0 }).toEqual({ name, retries: true });
      expect({ name, catches: (state.Catch ?? []).length > 0 }).toEqual({ name, catches: true });
    }
  });

  test('AwaitDecision waits for the task token it hands the steps function, up to the deadline ChargePreview answers', () => {
    const state = substitutedDefinition().States.AwaitDecision as Json;
    expect(state.Type).toBe('Task');
    expect(state.Resource).toMatch(/\.waitForTaskToken$/);
    expect(state.Parameters.FunctionName).toBe(`${ARN_MARKER}${aliasId('steps')}`);
    expect(state.Parameters.Payload['task_token.$']).toBe('$$.Task.Token');
    expect(state.TimeoutSecondsPath).toBe(DECISION_WAIT_PATH);
    expect(state.TimeoutSeconds).toBeUndefined();
  });

  test("every Task's TimeoutSeconds is longer than the Timeout of the function it invokes", () => {
    for (const [name, state] of taskStates(substitutedDefinition())) {
      const fn = functionOfAlias(String(state.Parameters.FunctionName).slice(ARN_MARKER.length))!;
      const functionTimeoutS = functionProps(fn).Timeout as number;
      // AwaitDecision's wait comes from its path; its shortest is DECISION_WAIT_MIN_S.
      const stateTimeoutS = (state.TimeoutSeconds as number | undefined) ?? DECISION_WAIT_MIN_S;
      expect({ name, longer: stateTimeoutS > functionTimeoutS }).toEqual({ name, longer: true });
    }
  });

  test('logs errors, without execution data, to its own log group', () => {
    const [, sm] = stateMachine();
    const logGroupId = jobs.logGroup;
    expect(sm.Properties.LoggingConfiguration).toEqual({
      Level: 'ERROR',
      IncludeExecutionData: false,
      Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] } } }],
    });
    expect(resources[logGroupId]!.Properties.LogGroupName).toMatch(/^\/aws\/vendedlogs\/states\//);
  });

  test('is traced when asked (the stack asks), and not otherwise', () => {
    expect(stateMachine()[1].Properties.TracingConfiguration).toEqual({ Enabled: true });
    const [[, untraced]] = resourcesOfType(synthesisePipeline({ engines: ENGINES }).resources, 'AWS::StepFunctions::StateMachine') as [[string, Resource]];
    expect(untraced.Properties.TracingConfiguration?.Enabled ?? false).toBe(false);
  }, 120_000);
});

describe('the state machine role', () => {
  const roleId = () => stateMachine()[1].Properties.RoleArn['Fn::GetAtt'][0] as string;

  test('may invoke exactly the two live aliases: not the bare functions, no other version, nothing by wildcard', () => {
    const invoke = statementsOfRole(roleId()).filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    expect(invoke.length).toBeGreaterThan(0);
    for (const s of invoke) {
      expect(s.Effect).toBe('Allow');
      expect(actionsOf(s)).toEqual(['lambda:InvokeFunction']);
      expect(JSON.stringify(s.Resource)).not.toMatch(/\*/);
      expect(new Set(referencedIds(s.Resource))).toEqual(new Set(FUNCTIONS.map(aliasId)));
    }
  });

  test('has no data, media or Step Functions permissions', () => {
    const actions = statementsOfRole(roleId()).flatMap(actionsOf);
    expect(actions.filter((a) => /^(dynamodb|s3|states):/.test(a) || a === '*')).toEqual([]);
  });
});

// ---- versions and the live alias ----

/** The version each function's live alias points at (its logical id), in a template. */
function liveVersions(template: Record<string, Resource>): Record<string, string> {
  const aliases = resourcesOfType(template, 'AWS::Lambda::Alias').filter(([, a]) => a.Properties.Name === LIVE_ALIAS);
  return Object.fromEntries(aliases.map(([, a]) => [a.Properties.FunctionName.Ref as string, a.Properties.FunctionVersion['Fn::GetAtt'][0] as string]));
}

describe('versions and the live alias (what an execution that spans a deploy runs)', () => {
  test.each(FUNCTIONS)('the %s function has a "live" alias on a version of itself, and that version is kept when a deploy replaces it', (name) => {
    const alias = resources[aliasId(name)]!;
    expect(alias.Type).toBe('AWS::Lambda::Alias');
    expect(alias.Properties).toMatchObject({ Name: LIVE_ALIAS, FunctionName: { Ref: functionId(name) } });
    const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0] as string;
    const version = resources[versionId]!;
    expect(version.Type).toBe('AWS::Lambda::Version');
    expect(version.Properties.FunctionName).toEqual({ Ref: functionId(name) });
    expect(version.DeletionPolicy).toBe('Retain');
  });

  test('no other function of the stack publishes versions or aliases (only the pipeline needs them)', () => {
    const versioned = ofType('AWS::Lambda::Version').map(([, v]) => v.Properties.FunctionName.Ref as string);
    expect(versioned.sort()).toEqual(FUNCTIONS.map(functionId).sort());
    expect(ofType('AWS::Lambda::Alias').map(([id]) => id).sort()).toEqual(FUNCTIONS.map(aliasId).sort());
  });

  test('a deploy that changes a function publishes a new version of it and moves live there; an unchanged function keeps its version', () => {
    const before = synthesisePipeline({ engines: ENGINES });
    const same = synthesisePipeline({ engines: ENGINES });
    const changed = synthesisePipeline({ engines: ENGINES, renderMemoryMb: 4096 });
    const versionOf = (run: typeof before, name: PipelineFunction) => liveVersions(run.resources)[run.functionIds[name]];
    for (const name of FUNCTIONS) expect({ name, version: versionOf(same, name) }).toEqual({ name, version: versionOf(before, name) });
    expect(versionOf(changed, 'render')).not.toBe(versionOf(before, 'render'));
    expect(versionOf(changed, 'steps')).toBe(versionOf(before, 'steps'));
  }, 240_000);
});

// ---- the pipeline functions ----

describe('the pipeline functions', () => {
  test('are the two declared ones, the sweeper, the job starter and the execution-ended function; the zip ones on nodejs24.x, render a container image', () => {
    const { sweeper: sweeperId, executionEnded: endedId, jobStarter: starterId } = jobs;
    expect([...jobs.allFunctions].sort()).toEqual([...FUNCTIONS.map(functionId), sweeperId, endedId, starterId].sort());
    const packaging = Object.fromEntries(FUNCTIONS.map((name) => [name, [functionProps(name).PackageType ?? 'Zip', functionProps(name).Runtime ?? null]]));
    expect(packaging).toEqual({ steps: ['Zip', 'nodejs24.x'], render: ['Image', null] });
    for (const id of [sweeperId, endedId, starterId]) expect(resources[id]!.Properties).toMatchObject({ Runtime: 'nodejs24.x' });
  });

  test('the render function: a container image with no layers; memory, timeout, /tmp, tracing, log group and ffmpeg settings from its needs', () => {
    const needs = PIPELINE_FUNCTIONS.render;
    const props = functionProps('render');
    expect(props.PackageType).toBe('Image');
    expect(props.Code.ImageUri['Fn::Sub']).toMatch(/container-assets.*:[0-9a-f]{64}$/);
    expect(props.Layers).toBeUndefined();
    expect(props.Architectures).toEqual(['x86_64']);
    expect(props.TracingConfig).toEqual({ Mode: 'Active' });
    expect(props.LoggingConfig.LogGroup.Ref).toEqual(expect.any(String));
    expect(props.MemorySize).toBe(PIPELINE_FUNCTION_SIZES.render.memoryMb);
    // Lambda's timeout is the pipeline's budget for one call, which the Task timeouts are built on.
    expect(props.Timeout).toBe(needs.callBudgetS);
    expect(PIPELINE_FUNCTION_SIZES.render.ephemeralStorageMb).toBeGreaterThanOrEqual(4096);
    expect(props.EphemeralStorage).toEqual({ Size: PIPELINE_FUNCTION_SIZES.render.ephemeralStorageMb });
    expect(props.Environment.Variables).toMatchObject({ FFMPEG_PATH: '/opt/bin/ffmpeg', REACTION_ENGINE: 'local' });
  });

  test('the steps function carries exactly the layers it declares', () => {
    const needs = PIPELINE_FUNCTIONS.steps as { ffmpeg?: boolean; native?: boolean };
    const layer = (description: RegExp) => ofType('AWS::Lambda::LayerVersion').filter(([, l]) => description.test(l.Properties.Description)).map(([id]) => ({ Ref: id }));
    const expected = [...(needs.ffmpeg ? layer(/ffmpeg/) : []), ...(needs.native ? layer(/native npm packages/) : [])];
    expect(functionProps('steps').Layers ?? []).toEqual(expected);
  });

  test("the render image's staged context: the repository's Dockerfile, the bundle as the handler module, and the trees its layers would be (face runtime and espeak-ng included with the local engine)", () => {
    const hash = (functionProps('render').Code.ImageUri['Fn::Sub'] as string).split(':').pop()!;
    const context = path.join(outdir, `asset.${hash}`);
    expect(fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8')).toBe(fs.readFileSync(RENDER_DOCKERFILE, 'utf8'));
    expect(parseDockerfile(fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8')).cmd).toEqual([IMAGE_HANDLER]);
    const bundle = fs.readFileSync(path.join(context, 'task', 'index.js'), 'utf8');
    // The native modules stay external: their tree holds them, as their layer would.
    expect(bundle).toMatch(/require\("sharp"\)/);
    const trees = imageTreesFor({ needs: PIPELINE_FUNCTIONS.render, engines: ENGINES });
    expect(trees).toEqual(['ffmpeg', 'espeak-ng', 'native-modules', 'face']);
    const staged = IMAGE_COPIES.filter((c) => c.folder !== 'task').map((c) => [c.folder, fs.readdirSync(path.join(context, c.folder, 'stand-in'))]);
    expect(staged).toEqual(trees.map((tree) => [tree, [tree]]));
  });

  test.each([...FUNCTIONS.map((name) => PIPELINE_FUNCTIONS[name].entry), SWEEPER_FUNCTION.entry, EXECUTION_ENDED_FUNCTION.entry, JOB_STARTER_FUNCTION.entry])(
    '%s is a Lambda entry like every other: in functions/handlers, with createHandler(ports) and handler',
    (entry) => {
      expect(entry).toMatch(/^functions\/handlers\/[\w-]+\.ts$/);
      const text = fs.readFileSync(path.join(ROOT, entry), 'utf8');
      // Its ports are typed: the wiring must supply what its steps or use cases name.
      expect(text).toMatch(/^export const createHandler = \(ports: PortSource<.+>\)/m);
      // The Lambda wiring, with what only this function bundles added by the entry itself.
      expect(text).toMatch(/^export const handler = (withLambdaContext\(\s*)?createHandler\(\s*lambdaPorts\(/m);
    },
  );

  test('the steps function: the default /tmp and its own timeout', () => {
    const props = functionProps('steps');
    expect(props.EphemeralStorage).toBeUndefined();
    expect(props.Timeout).toBe(PIPELINE_FUNCTIONS.steps.callBudgetS);
  });

  test.each(FUNCTIONS)('the %s function reads and writes the table and the bucket, calls no Step Functions, and invokes only the functions it declares', (name) => {
    const actions = statementsOfRole(roleOfFunction(name)).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject']));
    expect(actions.filter((a) => /^states:/.test(a))).toEqual([]);
    // The render function asks the face-check function for a hosted clip's face box; steps invokes nothing.
    expect(actions.filter((a) => /^lambda:/.test(a))).toEqual('calls' in PIPELINE_FUNCTIONS[name] ? ['lambda:InvokeFunction'] : []);
  });
});

describe('the sweeper', () => {
  const sweeperId = () => jobs.sweeper;

  test(`runs every ${SWEEP_INTERVAL_MINUTES} minutes`, () => {
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => referencedIds(r.Properties.Targets).includes(sweeperId()));
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe(`rate(${SWEEP_INTERVAL_MINUTES} minutes)`);
    expect(referencedIds(rule.Properties.Targets)).toEqual([sweeperId()]);
  });

  test('may start executions of the job machine, hand a preview decision over again, use the table, and remove a failed job\'s files', () => {
    const props = resources[sweeperId()]!.Properties;
    expect(props.Timeout).toBe(SWEEPER_FUNCTION_SIZE.timeoutS);
    expect(referencedIds(props.Environment.Variables.JOB_STATE_MACHINE_ARN)).toEqual([stateMachine()[0]]);
    const actions = statementsOfRole(props.Role['Fn::GetAtt'][0] as string).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['states:StartExecution', 'states:SendTaskSuccess', 'dynamodb:UpdateItem', 'dynamodb:Query', 's3:DeleteObject']));
  });
});

describe('the job starter (a job written but not started is started within seconds)', () => {
  const starterId = () => jobs.jobStarter;
  const mappings = () => ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => referencedIds(m.Properties.FunctionName).includes(starterId()));

  test("is woken by the table's stream for inserted job items only, reports failed records, and keeps batches it keeps failing", () => {
    const found = mappings();
    expect(found).toHaveLength(1);
    const [, mapping] = found[0]!;
    expect(referencedIds(mapping.Properties.EventSourceArn)).toEqual([ids.data.table]);
    expect(mapping.Properties).toMatchObject({ StartingPosition: 'LATEST', MaximumRetryAttempts: 3, BisectBatchOnFunctionError: true, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    const pattern = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern);
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: keys.jobPrefix }] } } } });
    expect(referencedIds(mapping.Properties.DestinationConfig.OnFailure.Destination)).toEqual([jobs.failedStarts]);
  });

  test('is the function the step table declares: it may start executions of the job machine and read the table, and write nothing', () => {
    const props = resources[starterId()]!.Properties;
    expect(props.Timeout).toBe(JOB_STARTER_FUNCTION_SIZE.timeoutS);
    expect(props.Handler).toBeDefined();
    expect(referencedIds(props.Environment.Variables.JOB_STATE_MACHINE_ARN)).toEqual([stateMachine()[0]]);
    const actions = statementsOfRole(props.Role['Fn::GetAtt'][0] as string).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['states:StartExecution', 'dynamodb:GetItem', 'dynamodb:GetRecords']));
    expect(actions.filter((a) => /^s3:|^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)$/.test(a))).toEqual([]);
    expect(JOB_STARTER_FUNCTION).toMatchObject({ table: 'read', jobs: ['start'] });
  });

  test('its failed batches go to an alarmed queue', () => {
    expect(Object.values(ids.observability.alarms).length).toBeGreaterThan(0);
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => JSON.stringify(a.Properties.Dimensions ?? []).includes(jobs.failedStarts));
    expect(alarms).toHaveLength(1);
  });
});

describe('executions that end FAILED, TIMED_OUT or ABORTED', () => {
  const endedId = () => jobs.executionEnded;
  const queueId = () => jobs.executionEndedFailures;
  const endedRule = () => {
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => referencedIds(r.Properties.Targets).includes(endedId()));
    expect(rules).toHaveLength(1);
    return rules[0]![1];
  };

  test("a rule on this state machine's status changes to those three runs the execution-ended function", () => {
    const rule = endedRule();
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [{ Ref: stateMachine()[0] }] },
    });
    const [target] = rule.Properties.Targets as Json[];
    expect(referencedIds(target.Arn)).toEqual([endedId()]);
    // Retried for a day, then kept on a queue rather than lost.
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 24 * 3600 });
    expect(referencedIds(target.DeadLetterConfig.Arn)).toEqual([queueId()]);
  });

  test('the function is the one the step table declares, and may write the table and remove the job files', () => {
    const props = resources[endedId()]!.Properties;
    expect(props.Timeout).toBe(EXECUTION_ENDED_FUNCTION_SIZE.timeoutS);
    const actions = statementsOfRole(props.Role['Fn::GetAtt'][0] as string).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 's3:DeleteObject']));
    expect(actions.filter((a) => /^states:/.test(a))).toEqual([]);
  });

  test('its dead-letter queue is encrypted, keeps messages 14 days and refuses plain HTTP', () => {
    const queue = resources[queueId()]!.Properties;
    expect(queue).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const policies = ofType('AWS::SQS::QueuePolicy').filter(([, p]) => referencedIds(p.Properties.Queues).includes(queueId()));
    const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    expect(statements).toEqual(expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]));
  });
});

describe('ServiceFunction and the job state machine', () => {
  test('a function that asks for jobs without a state machine is refused before it is bundled', () => {
    const app = new App();
    const shared = bareStack(app, 'Refused', ENGINES);
    expect(
      () =>
        new ServiceFunction(shared.stack, 'Fn', {
          ...shared,
          needs: { entry: 'functions/does-not-exist.ts', description: 'x', table: 'none', bucket: 'none', jobs: ['start'] },
          size: SWEEPER_FUNCTION_SIZE,
        }),
    ).toThrow(/needs the job state machine/);
  });
});
