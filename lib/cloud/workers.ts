/**
 * Background functions: started asynchronously by API functions, never behind a route. An invocation
 * that still fails after Lambda's own retries (a crash, a timeout) lands on the on-failure queue with
 * its task; the record it left `processing` is failed by the sweeper (functions/pipeline/sweeper.ts).
 */
import { Duration } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EngineConfig } from './engine-config';
import { failureQueue } from './failure-queue';
import { acknowledge } from './nag';
import { constructId, ServiceFunction, type ServiceFunctionNeeds } from './service-function';
import { ImageServiceFunction, type ImageTrees } from './render-image';
import { WORKER_FUNCTION_SIZES, type FunctionSize } from './function-sizes';

export const WORKERS = {
  'normalise-demo': {
    entry: 'functions/handlers/normalise-demo.ts',
    description: 'normalises an uploaded demo video to the output encoding, once',
    table: 'readwrite',
    bucket: 'readwrite',
    writes: ['products'],
    ffmpeg: true,
  },
  'generate-avatar': {
    entry: 'functions/handlers/generate-avatar.ts',
    description: 'generates a prompt avatar with a hosted engine, which may outlast a request',
    table: 'readwrite',
    bucket: 'readwrite',
    writes: ['avatars'],
    native: true,
    engines: ['avatar'],
    // A hosted portrait must show a face, looked for as in an uploaded image (human, the face-runtime layer).
    faces: true,
  },
  'sample-demo': {
    entry: 'functions/handlers/sample-demo.ts',
    description: "makes the sample product's demo clip once per stack (Skia frames, ffmpeg) and gives sample products their copy",
    table: 'readwrite',
    bucket: 'readwrite',
    // The shared clip (samples/), each sample product's copy.
    writes: ['products', 'samples'],
    // It runs ffmpeg, so it ships as an image (function-sizes.ts).
    ffmpeg: true,
    native: true,
  },
} as const satisfies Record<string, ServiceFunctionNeeds>;

export type WorkerName = keyof typeof WORKERS;
// A worker without a size does not compile.
const WORKER_SIZES: Record<WorkerName, FunctionSize> = WORKER_FUNCTION_SIZES;

export interface WorkersProps {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  nativeLayer: lambda.ILayerVersion;
  /** The face runtime, for the workers whose needs say `faces`. */
  faceLayer: lambda.ILayerVersion;
  /** The trees an image worker holds (render-image.ts). */
  imageTrees: ImageTrees;
  engines: EngineConfig;
}

/**
 * Lambda retries a failed asynchronous invocation this often, and keeps an event at most this long,
 * before it goes to the on-failure queue; the sweeper's deadline for records still processing
 * (functions/pipeline/stuck-processing.ts) is past both, a test checks.
 */
export const WORKER_ASYNC = { retryAttempts: 2, maxEventAgeS: 3600 } as const;

export class Workers extends Construct {
  readonly functions: Record<WorkerName, lambda.IFunction>;
  /** The on-failure destination of every worker: each failed task, kept 14 days (an alarm watches its depth). */
  readonly failedInvocations: sqs.IQueue;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const functions: Partial<Record<WorkerName, lambda.IFunction>> = {};
    for (const [name, needs] of Object.entries(WORKERS) as [WorkerName, ServiceFunctionNeeds][]) {
      const fnProps = { ...props, needs, size: WORKER_SIZES[name] };
      functions[name] = fnProps.size.packaging === 'image' ? new ImageServiceFunction(this, constructId(name), fnProps).fn : new ServiceFunction(this, constructId(name), fnProps).fn;
    }
    this.functions = functions as Record<WorkerName, lambda.IFunction>;
    const failed = failureQueue(this, 'FailedInvocations');
    this.failedInvocations = failed;
    for (const fn of Object.values(this.functions)) {
      fn.configureAsyncInvoke({
        onFailure: new destinations.SqsDestination(failed),
        retryAttempts: WORKER_ASYNC.retryAttempts,
        maxEventAge: Duration.seconds(WORKER_ASYNC.maxEventAgeS),
      });
      acknowledge(fn, { 'Serverless-LambdaDLQ': 'failed invocations go to the on-failure destination (FailedInvocations), which keeps the error too' });
    }
  }
}

