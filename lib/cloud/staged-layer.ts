/**
 * A Lambda layer whose files are staged by a copy at synth time. The Docker image named below is
 * never pulled: the local step always succeeds or throws, and CDK requires an image to be named.
 */
import { DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { LAMBDA_RUNTIME } from './runtime';

/**
 * What a layer holds, staged by a copy: a zip function gets it as a layer (below), the render image
 * copies the same tree into /opt (render-image.ts).
 */
export interface LayerTree {
  /** Says whether the tree changed, so that synth never hashes the staged files. */
  assetHash: string;
  /** Writes the tree (what Lambda mounts at /opt) into `outputDir`. */
  stage(outputDir: string): void;
  description: string;
  license?: string;
}

export interface StagedLayerProps extends LayerTree {
  /** What the asset is made from (a folder CDK may fingerprint if `assetHash` were missing). */
  sourceDir: string;
}

function stagedLayer(scope: Construct, id: string, props: StagedLayerProps): lambda.LayerVersion {
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
    // Every function here is x86-64, for the ffmpeg tree's binaries (Debian's amd64 build).
    compatibleArchitectures: [lambda.Architecture.X86_64],
    ...(props.license ? { license: props.license } : {}),
  });
}

/** A staged tree as a layer construct (`Layer` inside it), the tree kept for a container image (render-image.ts). */
export class StagedTreeLayer extends Construct {
  readonly layer: lambda.LayerVersion;
  /** The same files, for a container image (render-image.ts). */
  readonly tree: StagedLayerProps;

  constructor(scope: Construct, id: string, tree: StagedLayerProps) {
    super(scope, id);
    this.tree = tree;
    this.layer = stagedLayer(this, 'Layer', tree);
  }
}
