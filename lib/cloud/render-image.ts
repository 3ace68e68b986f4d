/**
 * A function shipped as a container image: every function that runs ffmpeg, whose tree alone (~247 MB)
 * is past the 200 MB a zip may hold with its layers (function-sizes.ts). The render function's is the
 * largest: ffmpeg, the native modules (~57 MB), the face runtime (~9 MB) and espeak-ng (~27 MB) with
 * its bundle, about 340 MB; an image may hold 10 GB. The image is built from lib/cloud/render-image/
 * Dockerfile over a context staged at synth: the same esbuild bundle a zip function gets, and the same
 * trees the layers are made of (their staging functions), each in the folder the Dockerfile copies.
 * Synth only stages the context; `cdk deploy` builds and pushes the image, which needs Docker there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { Stage } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { lambdaEsbuildOptions } from './bundling';
import { needsFaceRuntime } from './face-layer';
import { functionBase, grantNeeds, PROJECT_ROOT, type ServiceFunctionProps } from './service-function';
import type { LayerTree } from './staged-layer';

export const RENDER_DOCKERFILE = path.join(__dirname, 'render-image', 'Dockerfile');

/** The trees an image may hold besides its bundle, by the context folder each is staged in. */
export interface ImageTrees {
  ffmpeg: LayerTree;
  'espeak-ng': LayerTree;
  'native-modules': LayerTree;
  face: LayerTree;
}
export type ImageTree = keyof ImageTrees;

/** The context folder of the bundle; the handler module in it is index.js, as in a zip function. */
export const BUNDLE_FOLDER = 'task';
export const IMAGE_HANDLER = 'index.handler';

/**
 * Where the Dockerfile copies each context folder, in its order: the one list the staging, the synth
 * check and the layout test read (a later folder's file wins, as a later layer's does).
 */
export const IMAGE_COPIES: readonly { folder: ImageTree | typeof BUNDLE_FOLDER; to: string }[] = [
  { folder: 'ffmpeg', to: '/opt/' },
  { folder: 'espeak-ng', to: '/opt/' },
  { folder: 'native-modules', to: '/opt/' },
  { folder: 'face', to: '/opt/' },
  { folder: BUNDLE_FOLDER, to: '${LAMBDA_TASK_ROOT}/' },
];

export interface Dockerfile {
  from: string;
  env: Record<string, string>;
  copies: { folder: string; to: string }[];
  cmd: string[];
}

/**
 * The instructions of our own Dockerfile that say what the image holds. Hand-written: no Dockerfile
 * parser is a dependency here, and this one only needs continuation lines, FROM, ENV k=v, COPY and a
 * JSON CMD; anything else in the file is refused so nothing it does goes unread.
 */
export function parseDockerfile(text: string): Dockerfile {
  const parsed: Dockerfile = { from: '', env: {}, copies: [], cmd: [] };
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const [instruction, ...args] = line.split(/\s+/);
    switch (instruction) {
      case 'FROM':
        parsed.from = args.filter((a) => !a.startsWith('--')).join(' ');
        break;
      case 'ENV':
        for (const pair of args) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new Error(`ENV ${pair}: only NAME=value pairs are read`);
          parsed.env[pair.slice(0, eq)] = pair.slice(eq + 1);
        }
        break;
      case 'COPY':
        if (args.length !== 2 || args.some((a) => a.startsWith('--'))) throw new Error(`COPY ${args.join(' ')}: only COPY <folder>/ <path> is read`);
        parsed.copies.push({ folder: args[0]!.replace(/\/$/, ''), to: args[1]! });
        break;
      case 'CMD':
        parsed.cmd = JSON.parse(args.join(' ')) as string[];
        break;
      default:
        throw new Error(`${instruction}: not an instruction this image's checks read`);
    }
  }
  return parsed;
}

/**
 * The trees a function's image holds: what its layers would be as a zip function, and espeak-ng with
 * the face runtime, for the local reaction engine detects faces and speaks voice lines.
 */
export function imageTreesFor(props: Pick<ServiceFunctionProps, 'needs' | 'engines'>): ImageTree[] {
  const { needs } = props;
  const localEngine = needsFaceRuntime(needs);
  return [
    ...(needs.ffmpeg ? ['ffmpeg' as const] : []),
    ...(localEngine ? ['espeak-ng' as const] : []),
    ...(needs.native ? ['native-modules' as const] : []),
    ...(localEngine ? ['face' as const] : []),
  ];
}

export interface ImageContextProps {
  /** Handler module, from the repository root. */
  entry: string;
  /** Its bundle leaves the native modules external (their tree holds them). */
  native?: boolean;
  /** The trees to stage; a folder of the Dockerfile without one stays empty. */
  trees: Partial<ImageTrees>;
}

/** Writes the Dockerfile and its context (bundle and trees) into `contextDir`, replacing what was there. */
export function stageImageContext(contextDir: string, props: ImageContextProps): void {
  const dockerfile = fs.readFileSync(RENDER_DOCKERFILE, 'utf8');
  const copies = parseDockerfile(dockerfile).copies;
  if (JSON.stringify(copies) !== JSON.stringify(IMAGE_COPIES)) {
    throw new Error(`${path.relative(PROJECT_ROOT, RENDER_DOCKERFILE)} copies ${JSON.stringify(copies)}; the staging writes ${JSON.stringify(IMAGE_COPIES)}`);
  }
  fs.rmSync(contextDir, { recursive: true, force: true });
  fs.mkdirSync(contextDir, { recursive: true });
  fs.writeFileSync(path.join(contextDir, 'Dockerfile'), dockerfile);
  for (const { folder } of IMAGE_COPIES) {
    const dir = path.join(contextDir, folder);
    fs.mkdirSync(dir);
    if (folder !== BUNDLE_FOLDER) props.trees[folder]?.stage(dir);
  }
  const module = IMAGE_HANDLER.slice(0, IMAGE_HANDLER.lastIndexOf('.'));
  buildSync({
    ...lambdaEsbuildOptions(path.join(PROJECT_ROOT, props.entry), path.join(contextDir, BUNDLE_FOLDER, `${module}.js`), { native: props.native }),
    absWorkingDir: PROJECT_ROOT,
  });
}

export interface ImageServiceFunctionProps extends ServiceFunctionProps {
  /** Every tree an image may hold; the function's needs pick which (imageTreesFor). */
  imageTrees: ImageTrees;
}

/** A function from its needs like ServiceFunction, shipped as a container image instead of a zip. */
export class ImageServiceFunction extends Construct {
  readonly fn: lambda.DockerImageFunction;

  constructor(scope: Construct, id: string, props: ImageServiceFunctionProps) {
    super(scope, id);
    const { needs } = props;
    if (props.size.packaging !== 'image') throw new Error(`${needs.entry} is a zip function (ServiceFunction)`);
    const base = functionBase(this, props);

    // In the cloud assembly, so `cdk synth` output is all there is; CDK then stages it as the image asset
    // (no dot in the name: CDK would take what follows it for a file extension of the asset).
    const contextDir = path.join(Stage.of(this)!.outdir, `image-context-${this.node.addr}`);
    const picked = imageTreesFor(props);
    stageImageContext(contextDir, {
      entry: needs.entry,
      native: needs.native,
      trees: Object.fromEntries(picked.map((tree) => [tree, props.imageTrees[tree]])),
    });

    this.fn = new lambda.DockerImageFunction(this, 'Function', {
      ...base,
      // Built for x86-64 on any machine: the ffmpeg tree is Debian's amd64 build.
      code: lambda.DockerImageCode.fromImageAsset(contextDir, { platform: Platform.LINUX_AMD64 }),
    });
    // CDK has copied the context into the assembly as the image asset: the scratch copy would only
    // double 330 MB of cdk.out. Without staging (`--no-staging`) the asset is the scratch copy itself.
    if (!this.node.tryGetContext(cxapi.DISABLE_ASSET_STAGING_CONTEXT)) fs.rmSync(contextDir, { recursive: true, force: true });
    grantNeeds(this, this.fn, props);
  }
}
