/**
 * Where ffmpeg and ffprobe come from, and how they are run.
 *
 * Order of preference: an explicit env var (the Lambda layer sets it), else the
 * binaries of Debian's `ffmpeg` package (the 5.1 branch of Debian 12, which gets security updates;
 * `npm install` installs it, see bin/ensure-ffmpeg.sh). No PATH search: a stray old build on the PATH
 * would decode untrusted uploads with years of missing demuxer fixes. Resolution happens once per
 * process, and the version is checked then: every media call needs it and it cannot change while we run.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { environment } from '#functions/config';
const { trunc } = Math;

export interface BinarySpec {
  tool: 'ffmpeg' | 'ffprobe';
  envVar: 'FFMPEG_PATH' | 'FFPROBE_PATH';
  /** The Debian package that installs `packagedPath`. */
  packageName: string;
  packagedPath: string;
}

export const FFMPEG: BinarySpec = {
  tool: 'ffmpeg',
  envVar: 'FFMPEG_PATH',
  packageName: 'ffmpeg',
  packagedPath: '/usr/bin/ffmpeg',
};

export const FFPROBE: BinarySpec = {
  tool: 'ffprobe',
  envVar: 'FFPROBE_PATH',
  packageName: 'ffmpeg',
  packagedPath: '/usr/bin/ffprobe',
};

/** The oldest branch still maintained with security fixes (Debian 12's); older builds are refused. */
const MIN_VERSION = { major: 5, minor: 1 } as const;

export interface ResolveOptions {
  env?: NodeJS.ProcessEnv;
  /** Where a copy goes when the binary cannot be made executable in place. */
  tmpDir?: string;
  /** The packaged binary's path; `null` means "not installed". Default: the spec's packagedPath. */
  packagedPath?: string | null;
  chmod?: (file: string, mode: number) => void;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A binary may be unpacked without its run bit (npm tarballs, zip assets), and on Lambda the code
 * lives on a read-only file system, so when chmod is refused we run a private copy from tmp instead.
 */
export function ensureExecutable(
  file: string,
  options: { tmpDir?: string; chmod?: (file: string, mode: number) => void } = {},
): string {
  if (isExecutableFile(file)) return file;
  const chmod = options.chmod ?? fs.chmodSync;
  const stat = fs.statSync(file);
  try {
    chmod(file, stat.mode | 0o111);
    if (isExecutableFile(file)) return file;
  } catch {
    // Read-only or foreign-owned install: fall through to the copy.
  }
  // Size and mtime in the name: a stale copy of another version is never reused.
  const copy = path.join(
    options.tmpDir ?? os.tmpdir(),
    `reaction-studio-${path.basename(file)}-${stat.size}-${trunc(stat.mtimeMs)}`,
  );
  if (isExecutableFile(copy) && fs.statSync(copy).size === stat.size) return copy;
  // Copy under a private name and rename: concurrent processes never run a half-written binary.
  const partial = `${copy}.${process.pid}.partial`;
  fs.copyFileSync(file, partial);
  fs.chmodSync(partial, 0o755);
  fs.renameSync(partial, copy);
  return copy;
}

const installHint = (spec: BinarySpec) =>
  `set ${spec.envVar}, or install Debian's ${spec.packageName} package (npm install does it as root; else sudo apt-get install ${spec.packageName})`;

/** Finds a binary without caching or running it; throws an Error that says what to install or set. */
export function resolveBinary(spec: BinarySpec, options: ResolveOptions = {}): string {
  const env = options.env ?? environment();
  const explicit = env[spec.envVar];
  if (explicit) {
    if (isExecutableFile(explicit)) return explicit;
    throw new Error(`${spec.envVar} is set to ${explicit}, which is not an executable file`);
  }
  const packaged = options.packagedPath === undefined ? spec.packagedPath : options.packagedPath;
  if (packaged && fs.existsSync(packaged)) return ensureExecutable(packaged, options);
  throw new Error(`${spec.tool} not found at ${spec.packagedPath}: ${installHint(spec)}`);
}

/** Reads "ffmpeg version 5.1.9-0+deb12u1 ..." or "ffprobe version n7.1 ..."; null for a git snapshot. */
export function parseToolVersion(banner: string): { major: number; minor: number; text: string } | null {
  const match = /^ff\w+ version n?(\d+)\.(\d+)\S*/.exec(banner);
  if (!match) return null;
  return { major: Number(match[1]), minor: Number(match[2]), text: match[0].split(' ').pop()! };
}

/**
 * Runs `<binary> -version` once and refuses a build older than MIN_VERSION or one that does not run
 * (missing shared libraries, wrong architecture): better a clear error at start than a 500 per upload.
 */
export function checkBinary(spec: BinarySpec, binary: string): string {
  let banner: string;
  try {
    banner = execFileSync(binary, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').pop();
    throw new Error(`${spec.tool} at ${binary} does not run (${stderr || (error as Error).message}): ${installHint(spec)}`, { cause: error });
  }
  const version = parseToolVersion(banner);
  // An unnumbered banner is a build from FFmpeg's main branch, newer than any release.
  if (version && (version.major < MIN_VERSION.major || (version.major === MIN_VERSION.major && version.minor < MIN_VERSION.minor))) {
    throw new Error(
      `${spec.tool} at ${binary} is version ${version.text}, older than the ${MIN_VERSION.major}.${MIN_VERSION.minor} branch (no longer gets security fixes): ${installHint(spec)}`,
    );
  }
  return binary;
}

let ffmpegCached: string | undefined;
let ffprobeCached: string | undefined;

export function ffmpegPath(): string {
  ffmpegCached ??= checkBinary(FFMPEG, resolveBinary(FFMPEG));
  return ffmpegCached;
}

export function ffprobePath(): string {
  ffprobeCached ??= checkBinary(FFPROBE, resolveBinary(FFPROBE));
  return ffprobeCached;
}

/**
 * An ffmpeg/ffprobe argument naming a local file. The `file:` protocol keeps a name that starts with
 * `-` or looks like another protocol (`concat:`, `http:`) from being read as one.
 */
export function fileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}

export type ToolFailureKind = 'exit' | 'timeout' | 'spawn';

/** A tool run that did not succeed; `stderrTail` holds the tool's own explanation. */
export class MediaToolError extends Error {
  readonly tool: string;
  readonly kind: ToolFailureKind;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderrTail: string;

  constructor(
    tool: string,
    kind: ToolFailureKind,
    details: { exitCode?: number | null; signal?: NodeJS.Signals | null; stderrTail?: string; message?: string; cause?: unknown },
  ) {
    const tail = details.stderrTail ?? '';
    const lastLine = tail.trim().split('\n').pop() ?? '';
    const summary =
      details.message ??
      (kind === 'timeout'
        ? `${tool} timed out and was killed`
        : `${tool} exited with ${details.signal ? `signal ${details.signal}` : `code ${details.exitCode}`}`);
    super(lastLine ? `${summary}: ${lastLine}` : summary, { cause: details.cause });
    this.name = 'MediaToolError';
    this.tool = tool;
    this.kind = kind;
    this.exitCode = details.exitCode ?? null;
    this.signal = details.signal ?? null;
    this.stderrTail = tail;
  }
}

export interface RunOptions {
  timeoutMs?: number;
}

export interface RunResult {
  stdout: string;
  /** The last few KB of stderr: enough for the error, bounded for a chatty encoder. */
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 8 * 1024;
const STDOUT_LIMIT_BYTES = 32 * 1024 * 1024;

function spawnPiped(binary: string, args: readonly string[]) {
  return spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

function run(tool: string, binary: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawnPiped>;
    try {
      child = spawnPiped(binary, args);
    } catch (cause) {
      reject(new MediaToolError(tool, 'spawn', { message: `${tool} could not be started (${binary})`, cause }));
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let timedOut = false;
    let settled = false;

    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes >= STDOUT_LIMIT_BYTES) return;
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    child.on('error', (cause) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new MediaToolError(tool, 'spawn', { message: `${tool} could not be started (${binary}): ${cause.message}`, cause }));
    });
    child.on('close', (exitCode, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const stderrTail = stderr.toString('utf8');
      if (timedOut) reject(new MediaToolError(tool, 'timeout', { exitCode, signal, stderrTail }));
      else if (exitCode !== 0) reject(new MediaToolError(tool, 'exit', { exitCode, signal, stderrTail }));
      else resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderrTail });
    });
  });
}

/** Runs ffmpeg (no shell, no stdin, no banner); rejects with MediaToolError on failure or timeout. */
export async function runFfmpeg(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return run('ffmpeg', ffmpegPath(), ['-hide_banner', '-nostdin', ...args], options.timeoutMs ?? 5 * 60_000);
}

/** Runs ffprobe (no shell); rejects with MediaToolError on failure or timeout. */
export async function runFfprobe(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return run('ffprobe', ffprobePath(), ['-hide_banner', ...args], options.timeoutMs ?? 30_000);
}
