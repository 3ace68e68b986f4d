/**
 * The job pipeline alone in a bare stack (a table, a bucket, layers by ARN, stand-in image trees),
 * synthesised without bundling: for the tests of a pipeline setting, which read its template only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as cxapi from 'aws-cdk-lib/cx-api';
import type { EngineConfig } from '#cloud/engine-config';
import { JobPipeline, type JobPipelineProps } from '#cloud/job-pipeline';
import type { PipelineFunction } from '#pipeline/steps';
import type { Resource } from './cdk-template';
import { standInImageTrees } from './layer-trees';

/** A stand-in layer's ARN: `:layer:<name>:1`. */
const layerArn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:layer:${name}:1`;

/** A stack holding what the pipeline (or any service function) is given. */
export function bareStack(app: App, id: string, engines: EngineConfig) {
  const stack = new Stack(app, id);
  const layer = (name: string) => lambda.LayerVersion.fromLayerVersionArn(stack, name, layerArn(name));
  return {
    stack,
    table: new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING }, stream: dynamodb.StreamViewType.KEYS_ONLY }),
    bucket: new s3.Bucket(stack, 'Bucket'),
    nativeLayer: layer('native'),
    imageTrees: standInImageTrees(),
    engines,
  };
}

type PipelineSettings = Pick<JobPipelineProps, 'engines' | 'tracing' | 'renderMemoryMb'>;

/** The pipeline's template and its functions' logical ids, synthesised in a temp folder removed before it answers. */
export function synthesisePipeline(settings: PipelineSettings): { resources: Record<string, Resource>; functionIds: Record<PipelineFunction, string> } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-stack-'));
  try {
    // A harness, not a deployment: nothing is bundled, and CloudFormation's default rules (seconds of WASM) are left to the app's synthesis.
    const context = { [cxapi.BUNDLING_STACKS]: [], [cxapi.VALIDATE_AGAINST_DEFAULT_RULES]: false };
    const { stack, ...given } = bareStack(new App({ outdir, context }), 'Pipeline', settings.engines);
    // A stand-in for the face-check function the render function calls: only its name and ARN reach the pipeline's template.
    const faceCheck = new lambda.Function(stack, 'FaceCheck', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => ({})') });
    const pipeline = new JobPipeline(stack, 'Jobs', { ...given, ...settings, helpers: { 'face-check': faceCheck } });
    const idOf = (fn: lambda.IFunction) => stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction);
    return {
      resources: Template.fromStack(stack).toJSON().Resources as Record<string, Resource>,
      functionIds: Object.fromEntries(Object.entries(pipeline.functions).map(([name, fn]) => [name, idOf(fn)])) as Record<PipelineFunction, string>,
    };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
