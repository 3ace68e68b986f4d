/**
 * A Lambda layer holding the static ffmpeg and ffprobe binaries that ship in npm
 * (`@ffmpeg-installer/linux-x64`, `@ffprobe-installer/linux-x64`). Layers unpack under /opt, so the
 * functions find them at /opt/bin/ffmpeg and /opt/bin/ffprobe.
 *
 * The binaries are staged by a local bundling step (a file copy at synth time); the Docker image named
 * below is never pulled because the local step always succeeds or throws.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export const FFMPEG_ENV = {
  FFMPEG_PATH: '/opt/bin/ffmpeg',
  FFPROBE_PATH: '/opt/bin/ffprobe',
} as const;

interface Binary {
  /** The name under bin/ in the layer. */
  name: string;
  packageName: string;
}

const BINARIES: readonly Binary[] = [
  { name: 'ffmpeg', packageName: '@ffmpeg-installer/linux-x64' },
  { name: 'ffprobe', packageName: '@ffprobe-installer/linux-x64' },
];

interface ResolvedBinary extends Binary {
  source: string;
  version: string;
  size: number;
}

function resolveBinary(binary: Binary): ResolvedBinary {
  let packageJson: string;
  try {
    packageJson = require.resolve(`${binary.packageName}/package.json`);
  } catch {
    throw new Error(
      `${binary.packageName} is not installed; the ${binary.name} layer is built from its binary (run npm ci on linux x64)`,
    );
  }
  const source = path.join(path.dirname(packageJson), binary.name);
  if (!fs.existsSync(source)) throw new Error(`${source} is missing; reinstall ${binary.packageName}`);
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
  return { ...binary, source, version, size: fs.statSync(source).size };
}

export class FfmpegLayer extends Construct {
  readonly layer: lambda.LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    const binaries = BINARIES.map(resolveBinary);
    // Hashing 150 MB of binaries on every synth is wasted work: the package versions and sizes say
    // whether the layer changed.
    const assetHash = binaries.map((b) => `${b.packageName}@${b.version}:${b.size}`).join(';');

    const code = lambda.Code.fromAsset(path.dirname(binaries[0]!.source), {
      assetHash,
      bundling: {
        image: DockerImage.fromRegistry('local-staging-only'),
        local: {
          tryBundle(outputDir: string): boolean {
            const bin = path.join(outputDir, 'bin');
            fs.mkdirSync(bin, { recursive: true });
            for (const b of binaries) {
              const target = path.join(bin, b.name);
              fs.copyFileSync(b.source, target, fs.constants.COPYFILE_FICLONE);
              // The npm packages do not always carry the run bit for others, and Lambda runs as a
              // non-root user; the asset zip keeps the file mode.
              fs.chmodSync(target, 0o755);
            }
            return true;
          },
        },
      },
    });

    this.layer = new lambda.LayerVersion(this, 'Layer', {
      code,
      description: `static ${binaries.map((b) => `${b.name} (${b.packageName}@${b.version})`).join(', ')}`,
      compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
      // The binaries are x86-64 builds.
      compatibleArchitectures: [lambda.Architecture.X86_64],
      license: 'GPL-3.0',
    });
  }
}
