/**
 * The face-check function: whether a motion reference's sampled frames show a face, for the videos
 * function, which has ffmpeg but no room for the face runtime beside it (docs/aws.md). It gets the
 * face runtime and the native modules (sharp decodes the frames) as layers, and no ffmpeg, no table
 * and no bucket: the frames come in its event. The videos function calls it synchronously and waits
 * (functions/routes.ts `calls`), so it has no on-failure destination: a failure is that request's 5xx.
 */
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { FACE_CHECK_FUNCTION_SIZE } from './function-sizes';
import { acknowledge } from './nag';
import { ServiceFunction, type ServiceFunctionNeeds, type ServiceFunctionProps } from './service-function';

/** Its name in the `calls` of the functions that use it (functions/routes.ts). */
export const FACE_CHECK_HELPER = 'face-check';

export const FACE_CHECK_FUNCTION: ServiceFunctionNeeds = {
  entry: 'functions/handlers/face-check.ts',
  description: "whether a motion reference's sampled frames show a face, asked synchronously by the videos function",
  table: 'none',
  bucket: 'none',
  native: true,
  faces: true,
};

export class FaceCheck extends Construct {
  readonly fn: lambda.IFunction;

  constructor(scope: Construct, id: string, props: Omit<ServiceFunctionProps, 'needs' | 'size'>) {
    super(scope, id);
    this.fn = new ServiceFunction(this, 'Function', { ...props, needs: FACE_CHECK_FUNCTION, size: FACE_CHECK_FUNCTION_SIZE }).fn;
    acknowledge(this.fn, { 'Serverless-LambdaDLQ': "invoked synchronously by the videos function: a failure is that request's 5xx, nothing to redrive" });
  }
}
