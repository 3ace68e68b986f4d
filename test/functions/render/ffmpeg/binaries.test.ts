import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import {
  FFMPEG,
  FFPROBE,
  MediaToolError,
  checkBinary,
  ensureExecutable,
  ffmpegPath,
  ffprobePath,
  parseToolVersion,
  resolveBinary,
  runFfmpeg,
  runFfprobe,
} from '#functions/render/ffmpeg/binaries';
import { makeTempDir } from '#test-support/media-fixtures';

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
  it('finds both tools on this machine, once per process, at a maintained version', async () => {
    expect(ffmpegPath()).toBe(ffmpegPath());
    expect(ffprobePath()).toBe(ffprobePath());
    const { stdout } = await runFfprobe(['-version']);
    const version = parseToolVersion(stdout);
    expect(version).not.toBeNull();
    expect(version!.major * 100 + version!.minor).toBeGreaterThanOrEqual(501);
  });

  it('prefers the env var over the packaged binary', async () => {
    const fake = await script('my-ffmpeg', 'echo fake');
    expect(resolveBinary(FFMPEG, { env: { FFMPEG_PATH: fake } })).toBe(fake);
  });

  it('names the env var when it points at nothing usable', () => {
    expect(() => resolveBinary(FFPROBE, { env: { FFPROBE_PATH: '/nowhere/ffprobe' } })).toThrow(
      'FFPROBE_PATH is set to /nowhere/ffprobe, which is not an executable file',
    );
  });

  it('never searches the PATH: an old build there must not decode uploads', async () => {
    const bin = await makeTempDir('binaries-path-');
    await fsp.writeFile(path.join(bin, 'ffprobe'), '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveBinary(FFPROBE, { env: { PATH: bin } })).toBe('/usr/bin/ffprobe');
    await fsp.rm(bin, { recursive: true });
  });

  it("falls back to Debian's packaged binary", () => {
    expect(resolveBinary(FFMPEG, { env: {} })).toBe('/usr/bin/ffmpeg');
  });

  it('says how to get the tool when it is nowhere', () => {
    expect(() => resolveBinary(FFMPEG, { env: {}, packagedPath: null })).toThrow(
      "ffmpeg not found at /usr/bin/ffmpeg: set FFMPEG_PATH, or install Debian's ffmpeg package (npm install does it as root; else sudo apt-get install ffmpeg)",
    );
  });

  it('refuses at start a build older than the 5.1 branch, naming its version', async () => {
    const old = await script('old-ffmpeg', 'echo "ffmpeg version 4.1 Copyright (c) 2000-2018 the FFmpeg developers"');
    expect(() => checkBinary(FFMPEG, old)).toThrow(/is version 4\.1, older than the 5\.1 branch/);
  });

  it('refuses at start a binary that does not run, with its own words', async () => {
    const broken = await script('broken-ffprobe', 'echo "error while loading shared libraries: libavformat.so.59" >&2; exit 127');
    expect(() => checkBinary(FFPROBE, broken)).toThrow(/does not run \(error while loading shared libraries: libavformat\.so\.59\)/);
  });

  it('reads Debian, release and snapshot banners', () => {
    expect(parseToolVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright')).toMatchObject({ major: 5, minor: 1, text: '5.1.9-0+deb12u1' });
    expect(parseToolVersion('ffprobe version n7.1 Copyright')).toMatchObject({ major: 7, minor: 1 });
    expect(parseToolVersion('ffmpeg version N-113945-g0123abcd Copyright')).toBeNull();
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
    // An endless source: only the time limit's kill ends this run.
    const endless = runFfmpeg(['-v', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=s=64x64', '-f', 'null', '-'], { timeoutMs: 500 });
    await expect(endless).rejects.toMatchObject({ kind: 'timeout', signal: 'SIGKILL' });
  });
});
