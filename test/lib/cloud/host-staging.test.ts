import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dockerStagingArgs, hostStagedTree, STAGING_IMAGE, stagingPath, thisHost, type StagingHost } from '#cloud/host-staging';
import { PROJECT_ROOT } from '#cloud/service-function';

const host = (platform: string, arch: string, installed: string[] = ['ffmpeg', 'espeak-ng']): StagingHost => ({
  platform,
  arch,
  installed: (name) => installed.includes(name),
});
const debianX64 = host('linux', 'x64');
const mac = host('darwin', 'arm64');

describe('which path stages each tree', () => {
  test('a Debian x86-64 host with the packages installed stages every tree itself', () => {
    for (const tree of ['ffmpeg', 'espeak-ng', 'native-modules', 'face'] as const) expect(stagingPath(tree, debianX64)).toBe('local');
  });

  test('macOS and arm64 Linux stage the Debian programs and the native modules in the container, the face runtime themselves', () => {
    for (const other of [mac, host('linux', 'arm64'), host('darwin', 'x64')]) {
      expect(stagingPath('ffmpeg', other)).toBe('docker');
      expect(stagingPath('espeak-ng', other)).toBe('docker');
      expect(stagingPath('native-modules', other)).toBe('docker');
      expect(stagingPath('face', other)).toBe('local');
    }
  });

  test('an x86-64 Linux without ffmpeg installed stages ffmpeg in the container, and only what it lacks', () => {
    const noFfmpeg = host('linux', 'x64', ['espeak-ng']);
    expect(stagingPath('ffmpeg', noFfmpeg)).toBe('docker');
    expect(stagingPath('espeak-ng', noFfmpeg)).toBe('local');
    expect(stagingPath('native-modules', noFfmpeg)).toBe('local');
  });

  test('this machine (Debian x86-64 with ffmpeg and espeak-ng, as CI) stages ffmpeg itself', () => {
    expect(stagingPath('ffmpeg', thisHost())).toBe('local');
    expect(hostStagedTree('ffmpeg', thisHost()).description).toMatch(/^Debian ffmpeg and ffprobe /);
  });
});

describe('a tree staged in the container', () => {
  let out: string;
  beforeEach(() => (out = fs.mkdtempSync(path.join(os.tmpdir(), 'host-staging-'))));
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  test('runs Debian 12 for linux/amd64 with the project read-only and the output folder mounted, and stages with the same code', () => {
    const calls: string[][] = [];
    const tree = hostStagedTree('ffmpeg', mac, (args) => void calls.push(args));
    expect(tree.description).toContain(STAGING_IMAGE);
    expect(tree.sourceDir).toBe(PROJECT_ROOT);
    expect(tree.license).toBe('GPL-3.0');
    tree.stage(path.join(out, 'ffmpeg'));

    expect(calls).toHaveLength(1);
    const args = calls[0]!;
    expect(args.slice(0, 4)).toEqual(['run', '--rm', '--platform', 'linux/amd64']);
    expect(args).toContain(`${PROJECT_ROOT}:/src:ro`);
    expect(args).toContain(`${path.join(out, 'ffmpeg')}:/out`);
    expect(args).toContain(STAGING_IMAGE);
    const script = args[args.length - 1]!;
    expect(script).toMatch(/apt-get install .*ffmpeg/);
    // The host's node_modules may hold macOS binaries: the container installs its own.
    expect(script).toContain('--exclude=./node_modules');
    expect(script).toContain('npm ci --ignore-scripts');
    expect(script).toContain('npx tsx bin/stage-tree.ts ffmpeg /out');
    expect(fs.existsSync(path.join(out, 'ffmpeg'))).toBe(true);
  });

  test('its asset hash names the image, the tree and the lock file, so a new lock restages it and nothing is read off the host', () => {
    const a = hostStagedTree('native-modules', mac, () => undefined);
    const b = hostStagedTree('ffmpeg', mac, () => undefined);
    expect(a.assetHash).toMatch(new RegExp(`^docker:${STAGING_IMAGE.replace(/[.]/g, '\\.')}:native-modules:[0-9a-f]{16}$`));
    expect(a.assetHash).not.toBe(b.assetHash);
  });

  test('the files come back owned by the caller', () => {
    const script = dockerStagingArgs('espeak-ng', out, '501:20').at(-1)!;
    expect(script).toMatch(/chown -R 501:20 \/out$/);
  });
});

describe('bin/stage-tree.ts', () => {
  test('stages a named tree with this machine\'s files (what the container runs)', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-tree-'));
    try {
      const { status, stderr } = spawnSync('npx', ['tsx', 'bin/stage-tree.ts', 'face', out], { cwd: PROJECT_ROOT, encoding: 'utf8' });
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      expect(fs.readdirSync(path.join(out, 'nodejs', 'node_modules'))).toEqual(expect.arrayContaining(['@vladmandic', '@tensorflow']));
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  test('refuses an unknown tree with its usage', () => {
    const { status, stderr } = spawnSync('npx', ['tsx', 'bin/stage-tree.ts', 'sideways', '/tmp/x'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(status).toBe(2);
    expect(stderr).toContain('usage: tsx bin/stage-tree.ts <ffmpeg|espeak-ng|native-modules|face>');
  });
});
