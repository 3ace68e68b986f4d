/**
 * The render image's espeak-ng tree, staged by its own staging function as `cdk synth` stages it into
 * the image's context (the template suites synthesise a stand-in; the Lambda layout speaks a voice line
 * with this tree in the laid-out render function).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ESPEAK_ENV } from '#cloud/espeak-tree';
import { stageRealTree } from '#test-support/layer-trees';

let staged: string;
beforeAll(() => {
  staged = stageRealTree('espeak-ng', fs.mkdtempSync(path.join(os.tmpdir(), 'espeak-tree-')));
}, 120_000);
afterAll(() => fs.rmSync(path.dirname(staged), { recursive: true, force: true }));

/** The wrapper as the image runs it: /opt/bin/espeak-ng, here under the staged tree. */
const wrapper = () => path.join(staged, path.relative('/opt', ESPEAK_ENV.ESPEAK_NG_PATH));
/** An empty environment and a foreign LD_LIBRARY_PATH: the tree's own loader, libraries and data only. */
const bare = { env: { LD_LIBRARY_PATH: '/nonexistent' }, encoding: 'utf8' } as const;

describe('the espeak-ng tree', () => {
  test('holds the wrapper ESPEAK_NG_PATH names and the real binary, executable by anyone (Lambda does not run as root)', () => {
    expect(fs.statSync(wrapper()).mode & 0o555).toBe(0o555);
    expect(fs.statSync(path.join(staged, 'espeak-ng', 'libexec', 'espeak-ng')).mode & 0o555).toBe(0o555);
  });

  test("reads its own copy of the data, not the machine's (the Lambda base image has none)", () => {
    const banner = execFileSync(wrapper(), ['--version'], bare);
    expect(banner).toMatch(/^eSpeak NG text-to-speech: 1\.5\d/);
    expect(banner).toContain(`Data at: ${path.join(staged, 'espeak-ng', 'share', 'espeak-ng-data')}`);
  });

  test("speaks the engine's voice (American English) into a WAV with nothing from the machine", () => {
    const wav = path.join(path.dirname(staged), 'line.wav');
    const phonemes = execFileSync(wrapper(), ['-v', 'en-us', '-x', '-w', wav, 'Wait for it'], bare);
    expect(phonemes.trim()).not.toBe('');
    const bytes = fs.readFileSync(wav);
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    // 22,050 Hz 16-bit mono: a few hundred milliseconds of speech is well over 10 kB.
    expect(bytes.length).toBeGreaterThan(10_000);
  });
});
