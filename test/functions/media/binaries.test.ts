import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import {
  FFMPEG,
  FFPROBE,
  MediaToolError,
  ensureExecutable,
  ffmpegPath,
  ffprobePath,
  resolveBinary,
  runFfmpeg,
  runFfprobe,
} from '../../../functions/media/binaries';
import { makeTempDir } from '../../support/media-fixtures';

let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('binaries-test-');
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function script(name: string, body: string, mode = 0o755): Promise<string> {
  const file = path.join(dir, name);
  await fsp.writeFile(file, `#!/bin/sh\n${body}\n`);
  await fsp.chmod(file, mode);
  return file;
}

describe('finding ffmpeg and ffprobe', () => {
  it('finds both tools on this machine, once per process', async () => {
    expect(ffmpegPath()).toBe(ffmpegPath());
    expect(ffprobePath()).toBe(ffprobePath());
    const { stdout } = await runFfprobe(['-version']);
    expect(stdout).toMatch(/^ffprobe version/);
  });

  it('prefers the env var over everything else', async () => {
    const fake = await script('my-ffmpeg', 'echo fake');
    expect(resolveBinary(FFMPEG, { env: { FFMPEG_PATH: fake, PATH: '/usr/bin' } })).toBe(fake);
  });

  it('names the env var when it points at nothing usable', () => {
    expect(() => resolveBinary(FFPROBE, { env: { FFPROBE_PATH: '/nowhere/ffprobe' } })).toThrow(
      'FFPROBE_PATH is set to /nowhere/ffprobe, which is not an executable file',
    );
  });

  it('uses a binary of that name on the PATH before the npm package', async () => {
    const bin = await makeTempDir('binaries-path-');
    await fsp.writeFile(path.join(bin, 'ffprobe'), '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveBinary(FFPROBE, { env: { PATH: `/no/such/dir:${bin}` } })).toBe(path.join(bin, 'ffprobe'));
    await fsp.rm(bin, { recursive: true });
  });

  it('falls back to the binary shipped in the npm package', () => {
    const resolved = resolveBinary(FFMPEG, { env: { PATH: '' } });
    expect(resolved).toMatch(/@ffmpeg-installer[/\\]linux-x64[/\\]ffmpeg$/);
  });

  it('says how to get the tool when it is nowhere', () => {
    expect(() => resolveBinary(FFMPEG, { env: { PATH: '' }, packageDir: null })).toThrow(
      'ffmpeg not found: set FFMPEG_PATH, put ffmpeg on the PATH, or install @ffmpeg-installer/linux-x64 (npm ci)',
    );
  });

  it('gives a shipped binary without its run bit the run bit', async () => {
    const file = await script('no-run-bit', 'echo ok', 0o644);
    expect(ensureExecutable(file)).toBe(file);
    expect((await fsp.stat(file)).mode & 0o111).not.toBe(0);
  });

  it('runs a private copy from tmp when the install is read-only', async () => {
    const file = await script('read-only-install', 'echo copied', 0o644);
    const tmpDir = await makeTempDir('binaries-copy-');
    const refuse = () => {
      throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
    };
    const copy = ensureExecutable(file, { tmpDir, chmod: refuse });
    expect(path.dirname(copy)).toBe(tmpDir);
    expect((await fsp.stat(copy)).mode & 0o111).not.toBe(0);
    expect((await fsp.stat(file)).mode & 0o111).toBe(0);
    // A second call reuses the copy rather than copying again.
    expect(ensureExecutable(file, { tmpDir, chmod: refuse })).toBe(copy);
    await fsp.rm(tmpDir, { recursive: true });
  });
});

describe('running the tools', () => {
  it('rejects with the tool and the end of its stderr when it fails', async () => {
    const failure = runFfmpeg(['-v', 'error', '-i', path.join(dir, 'missing.mp4'), '-f', 'null', '-']);
    await expect(failure).rejects.toBeInstanceOf(MediaToolError);
    await expect(failure).rejects.toMatchObject({ tool: 'ffmpeg', kind: 'exit', exitCode: 1 });
    await expect(failure).rejects.toThrow(/No such file or directory/);
  });

  it('kills a run that passes its time limit', async () => {
    const started = Date.now();
    const endless = runFfmpeg(['-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=s=64x64', '-f', 'null', '-'], { timeoutMs: 500 });
    await expect(endless).rejects.toMatchObject({ kind: 'timeout', signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
