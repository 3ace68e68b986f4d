/**
 * A Lambda layer whose files are staged by a copy at synth time. The Docker image named below is
 * never pulled: the local step always succeeds or throws, and CDK requires an image to be named.
 */
import { DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { LAMBDA_RUNTIME } from './runtime';

export interface StagedLayerProps {
  /** What the asset is made from (a folder CDK may fingerprint if `assetHash` were missing). */
  sourceDir: string;
  /** Says whether the layer changed, so that synth never hashes the staged files. */
  assetHash: string;
  /** Writes the layer's tree into `outputDir`. */
  stage(outputDir: string): void;
  description: string;
  license?: string;
}

export function stagedLayer(scope: Construct, id: string, props: StagedLayerProps): lambda.LayerVersion {
  const code = lambda.Code.fromAsset(props.sourceDir, {
    assetHash: props.assetHash,
    bundling: {
      image: DockerImage.fromRegistry('local-staging-only'),
      local: {
        tryBundle(outputDir: string): boolean {
          props.stage(outputDir);
          return true;
        },
      },
    },
  });
  return new lambda.LayerVersion(scope, id, {
    code,
    description: props.description.slice(0, 256),
    compatibleRuntimes: [LAMBDA_RUNTIME],
    // Every function here is x86-64, for the ffmpeg layer's binaries (Debian's amd64 build).
    compatibleArchitectures: [lambda.Architecture.X86_64],
    ...(props.license ? { license: props.license } : {}),
  });
}
