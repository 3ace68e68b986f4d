/** The face runtime ships trimmed, in the render image, when the reaction engine is local. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_BEDROCK_HOOKS_MODEL, type EngineConfig } from '#cloud/engine-config';
import { faceRuntimeTree, needsFaceRuntime } from '#cloud/face-layer';
import { imageTreesFor } from '#cloud/render-image';
import { PIPELINE_FUNCTIONS } from '#pipeline/steps';
import { PROJECT_ROOT } from '#cloud/service-function';
import { FACE_MODELS, HUMAN_ENTRY, WASM_BINARY } from '#render';
import { dirBytes } from '#test-support/lambda-layout';

const FAL_KEY = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:fal-key-AbCdEf';
const engines = (reaction: EngineConfig['reaction']): EngineConfig => ({
  avatar: 'local',
  reaction,
  hooks: 'local',
  bedrockModelId: DEFAULT_BEDROCK_HOOKS_MODEL,
  ...(reaction === 'fal' ? { falKeySecretArn: FAL_KEY } : {}),
});

let staged: string;
beforeAll(() => {
  staged = fs.mkdtempSync(path.join(os.tmpdir(), 'face-tree-'));
  faceRuntimeTree(PROJECT_ROOT).stage(staged);
}, 60_000);
afterAll(() => fs.rmSync(staged, { recursive: true, force: true }));

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));

describe('the face runtime tree', () => {
  test("holds human's Node WASM build, the models the loader turns on and the one WASM binary, under nodejs/node_modules", () => {
    const modules = path.join(staged, 'nodejs', 'node_modules');
    const files = filesUnder(modules);
    expect(files).toContain(`${HUMAN_ENTRY.packageName}/${HUMAN_ENTRY.file}`);
    expect(files).toContain(`${WASM_BINARY.packageName}/${WASM_BINARY.file}`);
    expect(files.filter((f) => f.endsWith('.wasm'))).toEqual([`${WASM_BINARY.packageName}/${WASM_BINARY.file}`]);
    const models = files.filter((f) => f.startsWith(`${HUMAN_ENTRY.packageName}/models/`) && f.endsWith('.json'));
    expect(models.map((f) => path.basename(f, '.json')).sort()).toEqual([...FACE_MODELS].sort());
    // What the builds require at load, each with the file its package.json names.
    for (const name of ['@tensorflow/tfjs-core', '@tensorflow/tfjs-converter', WASM_BINARY.packageName, 'seedrandom']) {
      const manifest = JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as { main?: string };
      expect(fs.existsSync(path.join(modules, name, manifest.main ?? 'index.js'))).toBe(true);
    }
  });

  test('is trimmed: well under 15 MB where the installed packages take about 130 MB', () => {
    expect(dirBytes(staged)).toBeLessThan(15 * 1024 * 1024);
  });
});

describe('who gets it', () => {
  // Test mode's jobs run on the local engine whatever is configured, so the image carries it with fal too.
  test.each([
    ['local', true],
    ['fal', true],
  ] as const)("the render function's image with reaction engine %s: %s; the steps function never", (reaction, expected) => {
    expect(imageTreesFor({ needs: PIPELINE_FUNCTIONS.render, engines: engines(reaction) }).includes('face')).toBe(expected);
    // The local engine speaks voice lines too: espeak-ng comes with the face runtime.
    expect(imageTreesFor({ needs: PIPELINE_FUNCTIONS.render, engines: engines(reaction) }).includes('espeak-ng')).toBe(expected);
    expect(imageTreesFor({ needs: PIPELINE_FUNCTIONS.steps, engines: engines(reaction) })).toEqual([]);
  });

  test('only a function that calls the reaction engine detects faces', () => {
    expect(needsFaceRuntime({ engines: ['reaction'] })).toBe(true);
    expect(needsFaceRuntime({ engines: ['avatar', 'hooks'] })).toBe(false);
    expect(needsFaceRuntime({})).toBe(false);
  });
});
