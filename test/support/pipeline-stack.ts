/**
 * The job pipeline alone in a bare stack (a table, a bucket, layers by ARN, stand-in image trees), synthesised: for the
 * template tests that only look at the pipeline's functions. Each call bundles its functions.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { JobPipeline, type JobPipelineProps } from '#cloud/job-pipeline';
import type { ImageTrees } from '#cloud/render-image';
import type { PipelineFunction } from '#pipeline/steps';

/** A stand-in layer's ARN: `:layer:<name>:1`. */
const layerArn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:layer:${name}:1`;

/** Stand-ins for the trees of the render image: each stages one file, stand-in/<tree>, instead of megabytes. */
export function standInImageTrees(): ImageTrees {
  const tree = (name: string) => ({
    assetHash: name,
    description: `stand-in ${name}`,
    stage(outputDir: string) {
      fs.mkdirSync(path.join(outputDir, 'stand-in'), { recursive: true });
      fs.writeFileSync(path.join(outputDir, 'stand-in', name), name);
    },
  });
  return { ffmpeg: tree('ffmpeg'), 'native-modules': tree('native-modules'), face: tree('face') };
}

export interface PipelineFunctionProps {
  MemorySize?: number;
  Layers?: string[];
}

/** Synthesises the pipeline into a temp folder it removes before answering. */
export function pipelineFunctions(props: Pick<JobPipelineProps, 'engines' | 'renderMemoryMb'>): Record<PipelineFunction, PipelineFunctionProps> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-stack-'));
  try {
    const stack = new Stack(new App({ outdir }), 'Pipeline');
    const layer = (name: string) => lambda.LayerVersion.fromLayerVersionArn(stack, name, layerArn(name));
    const pipeline = new JobPipeline(stack, 'Jobs', {
      table: new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } }),
      bucket: new s3.Bucket(stack, 'Bucket'),
      ffmpegLayer: layer('ffmpeg'),
      nativeLayer: layer('native'),
      imageTrees: standInImageTrees(),
      ...props,
    });
    const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Properties: PipelineFunctionProps }>;
    const propsOf = (fn: lambda.IFunction) => resources[stack.getLogicalId(fn.node.defaultChild as lambda.CfnFunction)]!.Properties;
    return Object.fromEntries(Object.entries(pipeline.functions).map(([name, fn]) => [name, propsOf(fn)])) as Record<PipelineFunction, PipelineFunctionProps>;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
