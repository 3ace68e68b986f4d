/**
 * Media fixtures made on demand with the project's own ffmpeg (lavfi test sources), so no binary
 * files live in the repo. Each is small (about 2 s, low resolution unless a size rule is under test).
 * Files are cached under the OS temp dir by a hash of their recipe: jest workers and later runs reuse
 * them, and a changed recipe never serves a stale file.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileArg, runFfmpeg } from '#render';
const { floor } = Math;

export type FixtureKind =
  | 'vertical-mp4' // 720x1280, 2 s, 44.1 kHz mono sine: canonical in nothing but the aspect
  | 'vertical-mp4-silent' // same, no audio track
  | 'horizontal-mp4' // 1280x720
  | 'square-mp4' // 720x720: not taller than wide
  | 'rotated-mp4' // 1280x720 pixels with a quarter-turn display matrix: plays as 720x1280
  | 'tiny-mp4' // 180x320 vertical: under the 240 px minimum
  | 'blank-mp4' // 360x640, half a second of one colour, no audio: the cheapest clip to decode, where what it shows is not under test
  | 'long-mp4' // 181 s vertical at 1 fps: over the 180 s maximum
  | 'vertical-mov' // QuickTime, brand "qt  ", with a title and a GPS location
  | 'legacy-mov' // QuickTime with no ftyp box (its ftyp turned into a `free` atom), as old cameras wrote
  | 'vertical-avi' // MPEG-4 part 2 video + MP3 audio in AVI
  | 'audio-only-m4a' // AAC in MP4 (brand "M4A "), no video
  | 'truncated-mp4' // first 2 KB of a good MP4 whose index is at the end
  | 'truncated-mid-mp4' // a faststart MP4 cut in half: readable index, missing picture data
  | 'vertical-3gp' // a 3GP container: refused by type
  | 'vertical-webm' // 360x640 VP8 in WebM, no audio
  | 'vp9-opus-webm' // 360x640 VP9 + Opus in WebM, 2 s: a demo as browsers and screen recorders write one
  | 'av1-vorbis-webm' // 360x640 AV1 + Vorbis in WebM, 1 s
  | 'live-webm' // the same written as a live stream, as a browser's MediaRecorder does: no duration in its header, no index
  | 'landscape-webm' // 1280x720 VP9 + Opus in WebM, 2 s: refused as a demo without a reframe
  | 'h264-as-webm' // H.264 in Matroska whose header calls it WebM: the type is WebM, the codec is not
  | 'vertical-mkv' // VP9 in Matroska (not WebM): refused by type
  | 'mp3' // audio file
  | 'png-as-mp4' // a PNG image named .mp4
  | 'random-bytes' // 64 KB of noise named .mp4
  | 'demo-mp4'; // 540x960, 3 s, no audio, x264 at its default preset: the clients' end-to-end suites' product demo

const TESTSRC = (size: string, seconds: number, rate = 30) => ['-f', 'lavfi', '-i', `testsrc2=s=${size}:r=${rate}:d=${seconds}`];
const SINE = (seconds: number) => ['-f', 'lavfi', '-i', `sine=f=440:r=44100:d=${seconds}`];
const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-pix_fmt', 'yuv420p'];
const AAC = ['-c:a', 'aac', '-b:a', '64k'];
/** VP9 at libvpx's fastest (a test clip's quality does not matter) and Opus: what a browser records. */
const VP9 = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', '-pix_fmt', 'yuv420p'];
const OPUS = ['-c:a', 'libopus', '-b:a', '48k'];

type Recipe =
  | { ext: string; ffmpeg: string[] }
  | { ext: string; from: string; transform: 'head-2k' | 'half' | 'ftyp-to-free' | 'rotate' | 'doctype-webm' }

  | { ext: string; bytes: () => Promise<Buffer> };

const RECIPES: Record<FixtureKind, Recipe> = {
  'vertical-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('720x1280', 2), ...SINE(2), ...X264, ...AAC, '-f', 'mp4'] },
  'vertical-mp4-silent': { ext: 'mp4', ffmpeg: [...TESTSRC('720x1280', 2), ...X264, '-f', 'mp4'] },
  'horizontal-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('1280x720', 2), ...SINE(2), ...X264, ...AAC, '-f', 'mp4'] },
  'square-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('720x720', 2), ...SINE(2), ...X264, ...AAC, '-f', 'mp4'] },
  // The 2018 ffmpeg drops rotate metadata when it encodes, so the rotation is added by a stream copy.
  'rotated-mp4': { ext: 'mp4', from: 'horizontal-mp4', transform: 'rotate' },
  'tiny-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('180x320', 2), ...X264, '-f', 'mp4'] },
  'blank-mp4': { ext: 'mp4', ffmpeg: ['-f', 'lavfi', '-i', 'color=c=0x3366aa:s=360x640:r=30:d=0.5', ...X264, '-f', 'mp4'] },
  'long-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('240x428', 181, 1), ...X264, '-f', 'mp4'] },
  // Carries the kind of metadata phones write (place, title), which normalising must not keep.
  'vertical-mov': {
    ext: 'mov',
    ffmpeg: [...TESTSRC('720x1280', 2), ...SINE(2), ...X264, ...AAC, '-metadata', 'title=Holiday at home', '-metadata', 'location=+48.8584+002.2945/', '-f', 'mov'],
  },
  'legacy-mov': { ext: 'mov', from: 'vertical-mov', transform: 'ftyp-to-free' },
  'vertical-avi': {
    ext: 'avi',
    ffmpeg: [...TESTSRC('360x640', 2), ...SINE(2), '-c:v', 'mpeg4', '-q:v', '8', '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'avi'],
  },
  'audio-only-m4a': { ext: 'm4a', ffmpeg: [...SINE(2), ...AAC, '-f', 'ipod'] },
  'truncated-mp4': { ext: 'mp4', from: 'vertical-mp4', transform: 'head-2k' },
  'truncated-mid-mp4': { ext: 'mp4', from: 'vertical-mp4-faststart', transform: 'half' },
  'vertical-3gp': { ext: '3gp', ffmpeg: [...TESTSRC('360x640', 2), ...X264, '-f', '3gp'] },
  'vertical-webm': { ext: 'webm', ffmpeg: [...TESTSRC('360x640', 2), '-c:v', 'libvpx', '-b:v', '200k', '-f', 'webm'] },
  'vp9-opus-webm': { ext: 'webm', ffmpeg: [...TESTSRC('360x640', 2), ...SINE(2), ...VP9, ...OPUS, '-f', 'webm'] },
  'av1-vorbis-webm': {
    ext: 'webm',
    ffmpeg: [...TESTSRC('360x640', 1), ...SINE(1), '-c:v', 'libaom-av1', '-usage', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuv420p', '-c:a', 'libvorbis', '-f', 'webm'],
  },
  // `-live 1`: the muxer never seeks back, so the header keeps no duration and no index follows.
  'live-webm': { ext: 'webm', ffmpeg: [...TESTSRC('360x640', 2), ...SINE(2), ...VP9, ...OPUS, '-f', 'webm', '-live', '1'] },
  'landscape-webm': { ext: 'webm', ffmpeg: [...TESTSRC('1280x720', 2), ...SINE(2), ...VP9, ...OPUS, '-f', 'webm'] },
  'h264-as-webm': { ext: 'webm', from: 'h264-mkv', transform: 'doctype-webm' },
  'vertical-mkv': { ext: 'mkv', ffmpeg: [...TESTSRC('360x640', 1), ...VP9, '-f', 'matroska'] },
  mp3: { ext: 'mp3', ffmpeg: [...SINE(2), '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'] },
  'png-as-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('320x240', 1), '-frames:v', '1', '-c:v', 'png', '-f', 'image2'] },
  'random-bytes': { ext: 'mp4', bytes: async () => seededBytes(64 * 1024) },
  'demo-mp4': { ext: 'mp4', ffmpeg: [...TESTSRC('540x960', 3), '-pix_fmt', 'yuv420p', '-f', 'mp4'] },
};

/** Inputs that only exist to derive other fixtures. */
const INTERNAL: Record<string, Recipe> = {
  'h264-mkv': { ext: 'mkv', ffmpeg: [...TESTSRC('360x640', 1), ...X264, '-f', 'matroska'] },
  'vertical-mp4-faststart': {
    ext: 'mp4',
    ffmpeg: [...TESTSRC('720x1280', 2), ...SINE(2), ...X264, ...AAC, '-movflags', '+faststart', '-f', 'mp4'],
  },
};

/** Deterministic noise (xorshift), so a failure with "random bytes" reproduces. */
function seededBytes(length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  out[0] = 0x00; // never mistakable for an MP3 frame sync or any other magic number
  return out;
}

function recipeOf(kind: string): Recipe {
  const recipe = (RECIPES as Record<string, Recipe>)[kind] ?? INTERNAL[kind];
  if (!recipe) throw new Error(`unknown media fixture ${kind}`);
  return recipe;
}

export const FIXTURE_DIR = path.join(os.tmpdir(), 'reaction-studio-media-fixtures');

function cacheName(kind: string, recipe: Recipe): string {
  // Derived fixtures hash their source's recipe too; byte generators are hashed by their source text.
  const source = 'from' in recipe ? recipeOf(recipe.from) : null;
  const generator = 'bytes' in recipe ? recipe.bytes.toString() : null;
  const hash = createHash('sha256').update(JSON.stringify({ kind, recipe, source, generator }));
  return `${kind}-${hash.digest('hex').slice(0, 12)}.${recipe.ext}`;
}

async function exists(file: string): Promise<boolean> {
  return fsp.stat(file).then((s) => s.size > 0, () => false);
}

/**
 * Rewrites a Matroska header's DocType "matroska" as "webm", padding the four bytes it frees with an
 * EBML Void element so that no size changes: ffmpeg will not mux H.264 as WebM, a hand-made file can.
 */
function docTypeWebm(bytes: Buffer): Buffer {
  const docType = Buffer.from([0x42, 0x82, 0x88, ...Buffer.from('matroska', 'latin1')]);
  const at = bytes.indexOf(docType);
  if (at < 0 || at > 64) throw new Error('fixture source has no Matroska DocType in its header');
  const webm = Buffer.from([0x42, 0x82, 0x84, ...Buffer.from('webm', 'latin1'), 0xec, 0x82, 0x00, 0x00]);
  return Buffer.concat([bytes.subarray(0, at), webm, bytes.subarray(at + docType.length)]);
}

/** Swaps the `ftyp` box's type for `free`: offsets stay valid, and the file reads as pre-ftyp QuickTime. */
function ftypToFree(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  if (copy.subarray(4, 8).toString('latin1') !== 'ftyp') throw new Error('fixture source has no leading ftyp box');
  copy.write('free', 4, 'latin1');
  return copy;
}

async function build(kind: string, recipe: Recipe, target: string): Promise<void> {
  if ('ffmpeg' in recipe) {
    await runFfmpeg(['-v', 'error', ...recipe.ffmpeg, '-y', fileArg(target)], { timeoutMs: 120_000 });
  } else if ('bytes' in recipe) {
    await fsp.writeFile(target, await recipe.bytes());
  } else {
    const source = await fixturePath(recipe.from);
    if (recipe.transform === 'rotate') {
      const args = ['-v', 'error', '-i', fileArg(source), '-map', '0', '-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mp4'];
      await runFfmpeg([...args, '-y', fileArg(target)]);
      return;
    }
    const bytes = await fsp.readFile(source);
    const derived =
      recipe.transform === 'head-2k' ? bytes.subarray(0, 2048)
      : recipe.transform === 'half' ? bytes.subarray(0, floor(bytes.length / 2))
      : recipe.transform === 'doctype-webm' ? docTypeWebm(bytes)
      : ftypToFree(bytes);
    await fsp.writeFile(target, derived);
  }
  if (!(await exists(target))) throw new Error(`fixture ${kind} came out empty`);
}

const inFlight = new Map<string, Promise<string>>();

async function fixturePath(kind: string): Promise<string> {
  let pending = inFlight.get(kind);
  if (!pending) {
    pending = (async () => {
      const recipe = recipeOf(kind);
      const file = path.join(FIXTURE_DIR, cacheName(kind, recipe));
      if (await exists(file)) return file;
      await fsp.mkdir(FIXTURE_DIR, { recursive: true });
      // Build under a private name, then rename: parallel jest workers never see a half-written file.
      const partial = `${file}.${process.pid}.partial.${recipe.ext}`;
      try {
        await build(kind, recipe, partial);
        await fsp.rename(partial, file);
      } finally {
        await fsp.rm(partial, { force: true });
      }
      return file;
    })();
    inFlight.set(kind, pending);
    pending.catch(() => inFlight.delete(kind));
  }
  return pending;
}

/** Path of a fixture file, generated on first use. Treat it as read-only: it is shared. */
export function makeFixture(kind: FixtureKind): Promise<string> {
  return fixturePath(kind);
}

/** Every temp directory a suite made, removed when the suite ends (a suite that forgets one leaks no disk). */
const madeDirs = new Set<string>();
// Registered at import, so only where jest's hooks exist (the global setup imports this module too).
if (typeof afterAll === 'function') {
  afterAll(async () => {
    await Promise.all([...madeDirs].map((dir) => fsp.rm(dir, { recursive: true, force: true })));
    madeDirs.clear();
  });
}

/** A fresh temp directory for a test's outputs, removed after the suite (or earlier by the test). */
export async function makeTempDir(prefix = 'media-test-'): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}
