/**
 * The video job pipeline on AWS: the two pipeline Lambdas (functions/pipeline/steps.ts) and the
 * Standard state machine built from the one ASL file, checked against the step table and each
 * Task's `FunctionName` substituted with the ARN of the function that runs it. The local runner
 * reads the same file and the same substitution names.
 *
 * Each pipeline function publishes a version whenever its code or configuration changes (a deploy
 * that changes it) and has a `live` alias on that version; the definition names the alias, never the
 * bare function, so what a Task of a running execution calls is always the version `live` points at:
 * an execution that spans a deploy runs its next Task on the new version (the step payload, `{step,
 * account_id, job_id}`, stays the same across deploys), and moving the alias back is a rollback
 * (docs/aws.md, Deploys and in-flight jobs). Old versions are retained for that.
 *
 * The state machine's role may invoke exactly the two aliases. The pipeline functions
 * themselves get no Step Functions permission: `await_decision` only stores the task token it is
 * handed, and the API (approve, regenerate) sends it back.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import {
  checkJobDefinition,
  EXECUTION_ENDED_FUNCTION,
  JOB_STARTER_FUNCTION,
  JOB_STATE_MACHINE_FILE,
  PIPELINE_FUNCTIONS,
  SWEEP_INTERVAL_MINUTES,
  SWEEPER_FUNCTION,
  type JobDefinition,
  type PipelineFunction,
} from '#pipeline/steps';
import { keys } from '#adapters/dynamodb/keys';
import type { EngineConfig } from './engine-config';
import { failureQueue } from './failure-queue';
import { constructId, PROJECT_ROOT, ServiceFunction, type ServiceFunctionNeeds } from './service-function';
import { acknowledge } from './nag';
import { ImageServiceFunction, type ImageTrees } from './render-image';
import { EXECUTION_ENDED_FUNCTION_SIZE, JOB_STARTER_FUNCTION_SIZE, PIPELINE_FUNCTION_SIZES, SWEEPER_FUNCTION_SIZE, type FunctionSize } from './function-sizes';


/** The alias every Task invokes (docs/aws.md, Deploys and in-flight jobs). */
export const LIVE_ALIAS = 'live';

export interface JobPipelineProps {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  nativeLayer: lambda.ILayerVersion;
  /** What the render image holds besides its bundle (render-image.ts): the layers' trees and the face runtime. */
  imageTrees: ImageTrees;
  engines: EngineConfig;
  /** The render function's memory (lib/cloud/render-memory.ts); the step table's default otherwise. */
  renderMemoryMb?: number;
  /** The render function's reserved concurrency, its cap (concurrency.ts); unset: none. */
  renderConcurrency?: number;
  /** X-Ray tracing of executions (off unless asked: it costs per trace). */
  tracing?: boolean;
  /** The functions the pipeline functions call synchronously (`calls`: the face-check function, for render). */
  helpers: Readonly<Record<string, lambda.IFunction>>;
}

export class JobPipeline extends Construct {
  readonly stateMachine: sfn.StateMachine;
  readonly functions: Record<PipelineFunction, lambda.IFunction>;
  /** Each pipeline function's `live` alias, on the version this deploy published: what the state machine invokes. */
  readonly aliases: Record<PipelineFunction, lambda.Alias>;
  readonly logGroup: logs.LogGroup;
  readonly sweeper: lambda.IFunction;
  /** Starts a job written but not started, from the table's stream. */
  readonly jobStarter: lambda.IFunction;
  /** Stream batches the job starter failed on three times (the sweeper starts those jobs later). */
  readonly failedStarts: sqs.IQueue;
  /** Fails the job of an execution that ended FAILED, TIMED_OUT or ABORTED (the rule below). */
  readonly executionEnded: lambda.IFunction;
  /** Events the execution-ended function could not handle after its retries (an alarm watches its depth). */
  readonly executionEndedFailures: sqs.IQueue;

  constructor(scope: Construct, id: string, props: JobPipelineProps) {
    super(scope, id);
    const { tracing, renderMemoryMb, renderConcurrency, ...shared } = props;

    const functions: Partial<Record<PipelineFunction, lambda.Function>> = {};
    for (const [name, needs] of Object.entries(PIPELINE_FUNCTIONS) as [PipelineFunction, ServiceFunctionNeeds][]) {
      const size: FunctionSize = {
        ...PIPELINE_FUNCTION_SIZES[name],
        ...(name === 'render' && renderMemoryMb ? { memoryMb: renderMemoryMb } : {}),
        ...(name === 'render' && renderConcurrency ? { reservedConcurrency: renderConcurrency } : {}),
      };
      const fnProps = { ...shared, needs, size };
      const id = `${constructId(name)}Function`;
      functions[name] = size.packaging === 'image' ? new ImageServiceFunction(this, id, fnProps).fn : new ServiceFunction(this, id, fnProps).fn;
    }
    this.functions = functions as Record<PipelineFunction, lambda.Function>;
    const aliases: Partial<Record<PipelineFunction, lambda.Alias>> = {};
    for (const [name, fn] of Object.entries(functions) as [PipelineFunction, lambda.Function][]) {
      // currentVersion's logical id hashes the function's code and configuration: a deploy that
      // changes either publishes a version, one that changes neither publishes none.
      aliases[name] = new lambda.Alias(this, `${constructId(name)}Live`, {
        aliasName: LIVE_ALIAS,
        version: fn.currentVersion,
        description: 'What the video job state machine invokes',
      });
    }
    this.aliases = aliases as Record<PipelineFunction, lambda.Alias>;
    for (const fn of Object.values(this.functions)) {
      acknowledge(fn, { 'Serverless-LambdaDLQ': "invoked synchronously by the state machine, whose Retry and Catch handle a failure" });
    }

    // Step Functions writes its logs through CloudWatch Logs vended delivery; a group under this
    // prefix keeps the log group's resource policy from growing with every state machine.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-video-job`,
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const substitutions: Record<string, string> = {};
    for (const [name, { substitution }] of Object.entries(PIPELINE_FUNCTIONS) as [
      PipelineFunction,
      { substitution: string },
    ][]) {
      substitutions[substitution] = this.aliases[name].functionArn;
    }

    // A file that drifted from the step table fails the synth, not a job in production.
    const definitionFile = path.join(PROJECT_ROOT, JOB_STATE_MACHINE_FILE);
    checkJobDefinition(JSON.parse(fs.readFileSync(definitionFile, 'utf8')) as JobDefinition, JOB_STATE_MACHINE_FILE);

    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      // Task tokens (the preview wait) and waits of up to 30 days need a Standard workflow.
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromFile(definitionFile),
      definitionSubstitutions: substitutions,
      comment: 'Reaction Studio video job lifecycle',
      logs: {
        destination: this.logGroup,
        level: sfn.LogLevel.ERROR,
        // Execution data holds task tokens and job inputs; errors are enough to find a failed job.
        includeExecutionData: false,
      },
      tracingEnabled: tracing ?? false,
    });

    // The definition comes from a file, so CDK derives no grants from it: the role may invoke the
    // two `live` aliases and nothing else (not the bare functions, nor another version).
    for (const alias of Object.values(this.aliases)) alias.grantInvoke(this.stateMachine);
    acknowledge(this.stateMachine, {
      'AwsSolutions-SF1': "errors are enough to find a failed job's cause; every event of an execution is in its history",
      'AwsSolutions-IAM5[Resource::*]': 'log delivery and X-Ray actions take no resource',
    });

    // No job or allowance unit may stay stranded: the sweeper runs on a schedule (it is idempotent).
    this.sweeper = new ServiceFunction(this, 'SweeperFunction', { ...shared, needs: SWEEPER_FUNCTION, size: SWEEPER_FUNCTION_SIZE, stateMachine: this.stateMachine }).fn;
    const sweepSchedule = new events.Rule(this, 'SweepSchedule', {
      description: 'Runs the video job sweeper',
      schedule: events.Schedule.rate(Duration.minutes(SWEEP_INTERVAL_MINUTES)),
      targets: [new targets.LambdaFunction(this.sweeper, { retryAttempts: 2 })],
    });
    const nextSweep = `idempotent and run every ${SWEEP_INTERVAL_MINUTES} minutes: the next run redoes a failed one`;
    acknowledge(this.sweeper, { 'Serverless-LambdaDLQ': nextSweep });
    acknowledge(sweepSchedule, { 'Serverless-EventBusDLQ': nextSweep });

    // A job whose API process died between its write and its start is started from the table's
    // stream within seconds (the sweeper above waits an hour). The stream carries keys only; the
    // filter keeps the inserts of job items.
    this.jobStarter = new ServiceFunction(this, 'JobStarterFunction', { ...shared, needs: JOB_STARTER_FUNCTION, size: JOB_STARTER_FUNCTION_SIZE, stateMachine: this.stateMachine }).fn;
    this.failedStarts = failureQueue(this, 'JobStarterFailures');
    this.jobStarter.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: 100,
        retryAttempts: 3,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.failedStarts),
        filters: [lambda.FilterCriteria.filter({ eventName: lambda.FilterRule.isEqual('INSERT'), dynamodb: { Keys: { sk: { S: lambda.FilterRule.beginsWith(keys.jobPrefix) } } } })],
      }),
    );
    acknowledge(this.jobStarter, { 'Serverless-LambdaDLQ': 'invoked by its stream event source, whose on-failure destination (JobStarterFailures) keeps what fails for good' });

    // An execution that ends without its MarkFailed (its TimeoutSeconds passed, it was stopped, or
    // MarkFailed itself gave up) would leave its job in flight and its unit reserved: this rule runs the
    // same mark-failed step from outside the machine. It is idempotent for a job already final.
    this.executionEnded = new ServiceFunction(this, 'ExecutionEndedFunction', { ...shared, needs: EXECUTION_ENDED_FUNCTION, size: EXECUTION_ENDED_FUNCTION_SIZE }).fn;
    const executionEndedFailures = failureQueue(this, 'ExecutionEndedFailures');
    this.executionEndedFailures = executionEndedFailures;
    new events.Rule(this, 'ExecutionEnded', {
      description: 'Fails the job of a video job execution that ended failed, timed out or aborted',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [this.stateMachine.stateMachineArn] },
      },
      targets: [
        new targets.LambdaFunction(this.executionEnded, { retryAttempts: 8, maxEventAge: Duration.hours(24), deadLetterQueue: executionEndedFailures }),
      ],
    });
    acknowledge(this.executionEnded, { 'Serverless-LambdaDLQ': 'invoked by its EventBridge rule, whose target has a dead-letter queue' });
  }
}
