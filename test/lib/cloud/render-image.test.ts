/**
 * The render function's image: the repository's Dockerfile copies exactly the folders the synth stages
 * (one list, IMAGE_COPIES, which the Lambda-layout test also lays out from the staged Dockerfile), on
 * the base image of the stack's runtime, with the environment a zip function with layers gets.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ESPEAK_ENV } from '#cloud/espeak-tree';
import { FFMPEG_ENV } from '#cloud/ffmpeg-layer';
import { BUNDLE_FOLDER, IMAGE_COPIES, IMAGE_HANDLER, parseDockerfile, RENDER_DOCKERFILE, stageImageContext } from '#cloud/render-image';
import { LAMBDA_RUNTIME } from '#cloud/runtime';
import { PIPELINE_FUNCTIONS } from '#pipeline/steps';
import { standInImageTrees } from '#test-support/layer-trees';

const dockerfile = parseDockerfile(fs.readFileSync(RENDER_DOCKERFILE, 'utf8'));
/** `nodejs24.x` -> `24`. */
const nodeMajor = /^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)![1]!;

describe('the Dockerfile', () => {
  test("builds on AWS's Lambda base image for the stack's runtime", () => {
    expect(dockerfile.from).toBe(`public.ecr.aws/lambda/nodejs:${nodeMajor}`);
  });

  test('copies the staged folders, bundle last, to where Lambda mounts layers and code', () => {
    expect(dockerfile.copies).toEqual(IMAGE_COPIES);
    expect(IMAGE_COPIES.map((c) => c.to)).toEqual(['/opt/', '/opt/', '/opt/', '/opt/', '${LAMBDA_TASK_ROOT}/']);
    expect(IMAGE_COPIES.at(-1)!.folder).toBe(BUNDLE_FOLDER);
  });

  test("sets the environment Lambda gives a zip function with layers: NODE_PATH, PATH with /opt/bin, and ffmpeg's paths; and espeak-ng's", () => {
    expect(dockerfile.env).toEqual({
      NODE_PATH: [`/opt/nodejs/node${nodeMajor}/node_modules`, '/opt/nodejs/node_modules', '/var/runtime/node_modules', '/var/runtime', '/var/task'].join(':'),
      PATH: expect.stringMatching(/(^|:)\/opt\/bin(:|$)/),
      ...FFMPEG_ENV,
      ...ESPEAK_ENV,
    });
  });

  test('copies espeak-ng, whose tree puts its wrapper where ESPEAK_NG_PATH says (the voice line fails without it)', () => {
    expect(dockerfile.copies).toContainEqual({ folder: 'espeak-ng', to: '/opt/' });
    expect(dockerfile.env.ESPEAK_NG_PATH).toBe('/opt/bin/espeak-ng');
  });

  test("runs the bundle's handler", () => {
    expect(dockerfile.cmd).toEqual([IMAGE_HANDLER]);
  });
});

describe('parseDockerfile', () => {
  test('reads continuation lines, several ENV pairs and skips comments', () => {
    expect(parseDockerfile('# c\nFROM --platform=linux/amd64 base:1\nENV A=1 \\\n    B=/x:/y\nCOPY a/ /opt/\nCMD ["m.h"]\n')).toEqual({
      from: 'base:1',
      env: { A: '1', B: '/x:/y' },
      copies: [{ folder: 'a', to: '/opt/' }],
      cmd: ['m.h'],
    });
  });

  test.each(['RUN curl https://example.com | sh', 'COPY --chown=1000 a/ /opt/', 'COPY a/ b/ /opt/', 'ENV A 1', 'ADD a.tar /opt/'])(
    'refuses what the checks do not read: %s',
    (line) => {
      expect(() => parseDockerfile(`FROM base:1\n${line}\n`)).toThrow();
    },
  );
});

describe('the staged context', () => {
  let context: string;
  beforeAll(() => {
    context = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'render-image-')), 'context');
    const { ffmpeg, 'native-modules': native } = standInImageTrees();
    // No face tree: its folder is still there, empty, for the Dockerfile's COPY.
    stageImageContext(context, { entry: PIPELINE_FUNCTIONS.render.entry, native: true, trees: { ffmpeg, 'native-modules': native } });
  }, 120_000);
  afterAll(() => fs.rmSync(path.dirname(context), { recursive: true, force: true }));

  test('holds the Dockerfile, one folder per COPY (a tree not asked for stays empty) and nothing else', () => {
    expect(fs.readdirSync(context).sort()).toEqual(['Dockerfile', ...IMAGE_COPIES.map((c) => c.folder)].sort());
    expect(fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8')).toBe(fs.readFileSync(RENDER_DOCKERFILE, 'utf8'));
    expect(fs.readdirSync(path.join(context, 'ffmpeg', 'stand-in'))).toEqual(['ffmpeg']);
    expect(fs.readdirSync(path.join(context, 'face'))).toEqual([]);
  });

  test('holds the bundle as the handler module, with the native modules left to their tree and the SDK to the runtime', () => {
    const module = path.join(context, BUNDLE_FOLDER, `${IMAGE_HANDLER.split('.')[0]}.js`);
    const bundle = fs.readFileSync(module, 'utf8');
    expect(bundle).toMatch(/require\("sharp"\)/);
    expect(bundle).toMatch(/require\("@napi-rs\/canvas"\)/);
    // The runtime's SDK, as for every zip function (bundling.ts).
    expect(bundle).toMatch(/require\("@aws-sdk\/[a-z0-9-]+"\)/);
  });

  test('is staged again from scratch: nothing of an earlier staging stays', () => {
    fs.writeFileSync(path.join(context, 'face', 'left-over'), 'x');
    stageImageContext(context, { entry: PIPELINE_FUNCTIONS.render.entry, native: true, trees: {} });
    expect(fs.readdirSync(path.join(context, 'face'))).toEqual([]);
    expect(fs.readdirSync(path.join(context, 'ffmpeg'))).toEqual([]);
  }, 120_000);
});

describe('the image Lambda is given', () => {
  test('the pinned CDK CLI builds every image with BUILDX_NO_DEFAULT_ATTESTATIONS=1, so BuildKit pushes a plain manifest (an OCI index with attestations is refused by Lambda)', () => {
    const cli = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'node_modules', 'aws-cdk', 'lib', 'index.js'), 'utf8');
    const build = cli.indexOf('const buildCommand = [');
    expect(build).toBeGreaterThan(0);
    const nextMethod = cli.indexOf('async login(', build);
    expect(cli.slice(build, nextMethod)).toMatch(/env:\s*\{\s*BUILDX_NO_DEFAULT_ATTESTATIONS:\s*"1"/);
  });
});
