/**
 * The ffmpeg tree the images of the functions that run it hold, staged by its own staging function as
 * `cdk synth` stages it (the template suites synthesise a stand-in; stack.test.ts checks which images
 * hold it).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stageRealTree } from '#test-support/layer-trees';

let staged: string;
beforeAll(() => {
  staged = stageRealTree('ffmpeg', fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-tree-')));
}, 120_000);
afterAll(() => fs.rmSync(path.dirname(staged), { recursive: true, force: true }));

describe('the ffmpeg tree', () => {
  test('holds bin/ffmpeg and bin/ffprobe, executable by anyone (Lambda does not run as root), that run with nothing from the machine', () => {
    for (const name of ['ffmpeg', 'ffprobe']) {
      const wrapper = path.join(staged, 'bin', name);
      expect(fs.statSync(wrapper).mode & 0o555).toBe(0o555);
      expect(fs.statSync(path.join(staged, 'ffmpeg', 'libexec', name)).mode & 0o555).toBe(0o555);
      // An empty environment and a foreign LD_LIBRARY_PATH: the layer's own loader and libraries only.
      const banner = execFileSync(wrapper, ['-version'], { env: { LD_LIBRARY_PATH: '/nonexistent' }, encoding: 'utf8' });
      expect(banner).toMatch(new RegExp(`^${name} version 5\\.1\\.`));
    }
  });
});
