/**
 * The finished video (docs/architecture.md, Media): the reaction clip with its hook caption is the only part encoded
 * per job; the demo, normalised once at upload, is joined to it by stream copy. The captioned
 * segment is itself a playable canonical MP4, so it doubles as the preview clip.
 *
 * Every output is written beside its final path and renamed when verified: a crash never leaves a
 * half-written file where a reader (or an upload) would take it for a finished one.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import type { CaptionBox, CaptionSpec } from '../caption/caption';
import { renderOverlayPng } from '../caption/watermark';
import { captionOverlayChains } from '../caption/caption-overlay';
import { POSTER_ENCODE_ARGS, POSTER_FILTER } from './poster';

export { posterTimeS } from './poster';
import {
  CANONICAL,
  CANONICAL_ENCODING_ID,
  canonicalConcatList,
  canonicalEncodeArgs,
  canonicalFrameCount,
  canonicalLength,
  canonicalMismatches,
  canonicalSilence,
  fitToCanonicalFrame,
  toCanonicalAudio,
  type CanonicalSpeed,
} from '../encoding/canonical-encoding';
import { probeMedia, type MediaProbe } from '../ffmpeg/probe';
import { encodeLevelled } from '../sound/level-encode';
import { measureLoudness } from '../sound/loudness';
import { SOUND_LEVEL } from '../sound/levels';
import { expectedLufs, soundtrackGraph, type SoundtrackSpec } from '../sound/soundtrack';

export interface CaptionSegmentInput {
  reactionPath: string;
  /** null (or blank text): no caption, the segment is the reaction as is. */
  caption: CaptionSpec | null;
  outputPath: string;
  timeoutMs?: number;
  /** `standard` for camera footage (a demo under a full-length caption); default `rendered`, for drawn reactions. */
  speed?: CanonicalSpeed;
  /** A corner label burnt in with the caption (a test job's "TEST"); absent or null: none. */
  watermark?: string | null;
}

export interface CaptionSegmentResult {
  /** Exact: whole frames / 30. This is the value the join's concat list needs. */
  durationS: number;
}

export interface JoinInput {
  segmentPath: string;
  segmentDurationS: number;
  /**
   * The product's normalised demo (canonical encoding), or null for a reaction-only video. `encoding`
   * is the id it was stored with: the current CANONICAL_ENCODING_ID spares probing it again.
   */
  demo: {
    path: string;
    durationS: number;
    encoding?: string;
    /** As stored with the demo: its levelled loudness, null when it has no sound, absent when it predates levelling. */
    loudnessLufs?: number | null;
  } | null;
  /** What plays beside the demo's own audio (local files of levelled sounds); null: the segment's and the demo's audio only. */
  sound: JoinSound | null;
  /**
   * hook_duration=full: the caption stays over the demo too. Its pictures are then re-encoded with the
   * caption laid over (the one encode this costs); absent or null, the demo is stream-copied as stored.
   */
  demoCaption?: CaptionSpec | null;
  /** A corner label over the whole video, demo included (which then costs the demo's encode too). */
  watermark?: string | null;
  outputPath: string;
  timeoutMs?: number;
}

/** The reaction's sound for the join (the job's SoundPlan, resolved to files). */
export interface JoinSound {
  /** A file whose audio is the spoken voice line (the engine's clip), mixed above the rest; null without one. */
  voicePath: string | null;
  effectPath: string | null;
  bed: { path: string; role: 'music' | 'fill' } | null;
}

export interface JoinResult {
  durationS: number;
  sizeBytes: number;
  /** The finished video's loudness, measured as its sound was encoded. */
  loudness: { integratedLufs: number | null; truePeakDbtp: number | null };
}

export interface PosterInput {
  videoPath: string;
  atS: number;
  outputPath: string;
  timeoutMs?: number;
}

const partialOf = (outputPath: string, suffix = 'partial') => `${outputPath}.${randomUUID()}.${suffix}`;

async function probeOrThrow(file: string, what: string): Promise<MediaProbe> {
  const probed = await probeMedia(file);
  if (!probed.ok) throw new Error(`${what} is unreadable (${probed.reason}): ${probed.detail}`);
  return probed.media;
}

/** Writes to a private name, runs `verify` on it, then renames; on any failure nothing is left. */
async function writeVerified<T>(outputPath: string, make: (partial: string) => Promise<void>, verify: (partial: string) => Promise<T>): Promise<T> {
  const partial = partialOf(outputPath);
  try {
    await make(partial);
    const result = await verify(partial);
    await fsp.rename(partial, outputPath);
    return result;
  } catch (error) {
    await fsp.rm(partial, { force: true });
    throw error;
  }
}

/**
 * A canonical file copied into a fresh +faststart MP4 without touching a sample. A plain remux keeps
 * the AAC priming edit list (audio exactly as long as the video); the concat demuxer does not, which
 * is why a single file does not go through the join.
 */
function remuxArgs(inputPath: string, outputPath: string): string[] {
  return [
    '-v', 'error',
    '-i', fileArg(inputPath),
    '-map', '0:v:0',
    '-map', '0:a:0',
    '-c', 'copy',
    '-map_metadata', '-1',
    '-map_chapters', '-1',
    '-video_track_timescale', String(CANONICAL.video.timescale),
    '-movflags', '+faststart',
    '-f', 'mp4',
    '-y', fileArg(outputPath),
  ];
}

/** The full ffmpeg argument list of the segment encode (exported so tests and tools can show what is run). */
function captionSegmentArgs(input: {
  reactionPath: string;
  reaction: MediaProbe;
  frames: number;
  caption: { pngPath: string; box: CaptionBox } | null;
  outputPath: string;
  speed: CanonicalSpeed;
}): string[] {
  const { reaction, frames, caption } = input;
  const video = reaction.video;
  if (!video) throw new Error('captionSegmentArgs needs a video stream');
  const length = canonicalLength(frames);
  // A canonical clip skips the fit chain; anything else (another engine's output) is brought to it.
  const base = canonicalMismatches(reaction).length === 0 ? 'null' : fitToCanonicalFrame();
  const graph: string[] = [];
  if (caption) {
    graph.push(`[0:${video.index}]${base}[base]`, ...captionOverlayChains('[1:v]', caption.box, `${length.video}[v]`));
  } else {
    graph.push(`[0:${video.index}]${base},${length.video}[v]`);
  }
  const audio = reaction.audio ? `[0:${reaction.audio.index}]${toCanonicalAudio()}` : canonicalSilence();
  graph.push(`${audio},${length.audio}[a]`);
  return [
    '-v', 'error',
    '-i', fileArg(input.reactionPath),
    ...(caption ? ['-i', fileArg(caption.pngPath)] : []),
    '-filter_complex', graph.join(';'),
    '-map', '[v]',
    '-map', '[a]',
    ...canonicalEncodeArgs({ speed: input.speed }),
    '-y', fileArg(input.outputPath),
  ];
}

/**
 * The reaction clip with its caption burnt in, encoded once in the canonical encoding (+faststart):
 * joinable to the demo by stream copy, and playable alone as the preview. Without a caption a
 * canonical clip is only remuxed (nothing to draw, so nothing to re-encode).
 */
export async function captionSegment(input: CaptionSegmentInput): Promise<CaptionSegmentResult> {
  const reaction = await probeOrThrow(input.reactionPath, 'reaction clip');
  const video = reaction.video;
  const lengthS = video?.durationS ?? reaction.durationS;
  if (!video || !lengthS) throw new Error('reaction clip has no playable video stream');
  const canonical = canonicalMismatches(reaction).length === 0;
  const frames = canonical && video.frameCount ? video.frameCount : canonicalFrameCount(lengthS);
  const caption = input.caption && input.caption.text.trim() ? input.caption : null;
  const watermark = input.watermark || null;
  const timeoutMs = input.timeoutMs ?? 3 * 60_000;

  const pngPath = caption || watermark ? partialOf(input.outputPath, 'caption.png') : null;
  try {
    let overlay: { pngPath: string; box: CaptionBox } | null = null;
    if (pngPath) {
      const image = await renderOverlayPng(caption, watermark);
      await fsp.writeFile(pngPath, image.png);
      if (image.box.width > 0) overlay = { pngPath, box: image.box };
    }
    await writeVerified(
      input.outputPath,
      async (partial) => {
        if (!overlay && canonical) {
          await runFfmpeg(remuxArgs(input.reactionPath, partial), { timeoutMs });
        } else {
          await runFfmpeg(captionSegmentArgs({ reactionPath: input.reactionPath, reaction, frames, caption: overlay, outputPath: partial, speed: input.speed ?? 'rendered' }), { timeoutMs });
        }
      },
      async (partial) => {
        const out = await probeOrThrow(partial, 'captioned segment');
        // Checked here, not at the join: a wrong segment would break the finished video silently.
        const problems = canonicalMismatches(out);
        if (out.video?.frameCount !== frames) problems.push(`frame count is ${out.video?.frameCount}, expected ${frames}`);
        if (problems.length > 0) throw new Error(`captioned segment is not canonical: ${problems.join('; ')}`);
      },
    );
  } finally {
    if (pngPath) await fsp.rm(pngPath, { force: true });
  }
  return { durationS: frames / CANONICAL.fps };
}

/**
 * The finished video: segment then demo, the pictures joined by stream copy (no pixel is re-encoded;
 * with `demoCaption` the demo's pictures are encoded once more, caption on),
 * the sound mixed anew (render/sound/soundtrack) and levelled to the platforms' loudness, +faststart.
 * A demo that is not canonical (made before a change to CANONICAL) is refused: the copy would produce
 * a file players choke on.
 */
export async function joinWithDemo(input: JoinInput): Promise<JoinResult> {
  const timeoutMs = input.timeoutMs ?? 2 * 60_000;
  const demo = input.demo;
  if (demo && demo.encoding !== CANONICAL_ENCODING_ID) {
    const problems = canonicalMismatches(await probeOrThrow(demo.path, 'normalised demo'));
    if (problems.length > 0) throw new Error(`demo is not in the canonical encoding, normalise it again: ${problems.join('; ')}`);
  }
  const listPath = partialOf(input.outputPath, 'ffconcat');
  const captionedDemoPath = partialOf(input.outputPath, 'demo.mp4');
  try {
    // The captioned demo takes the stored demo's place in the pictures only: the mix still reads the
    // stored demo's sound, so the caption costs no audio generation.
    const demoPictures = demo && (input.demoCaption?.text.trim() || input.watermark)
      ? {
          path: captionedDemoPath,
          durationS: (await captionSegment({ reactionPath: demo.path, caption: input.demoCaption ?? null, watermark: input.watermark, outputPath: captionedDemoPath, speed: 'standard', timeoutMs })).durationS,
        }
      : demo;
    const spec = await soundtrackSpecOf(input);
    const sound = soundtrackGraph(spec);
    // The pictures are the inputs after the sound's: the segment alone is read as it is (the concat
    // demuxer would rewrite a single file's timestamps), segment + demo through a concat list.
    const pictureInput = sound.inputs.filter((arg) => arg === '-i').length;
    if (demo) {
      await fsp.writeFile(listPath, canonicalConcatList([{ path: input.segmentPath, durationS: input.segmentDurationS }, { path: demoPictures!.path, durationS: demoPictures!.durationS }]));
    }
    const pictures = {
      inputs: demo ? ['-f', 'concat', '-safe', '0', '-i', fileArg(listPath)] : ['-i', fileArg(input.segmentPath)],
      outputArgs: ['-map', `${pictureInput}:v:0`, '-c:v', 'copy', '-video_track_timescale', String(CANONICAL.video.timescale), '-map_chapters', '-1'],
    };
    // Not probed once written (an ffprobe is a sixth of the join): its pictures are copies of the
    // segment's (checked when it was made) and the demo's (checked above, or by its encoding id), its
    // sound is encoded here in the canonical settings and exactly as long as the two, so a probe would
    // only restate what the inputs said. The compose tests probe it.
    const loudness = await encodeLevelled({ ...sound, pictures, expectedLufs: expectedLufs(spec, SOUND_LEVEL.integratedLufs), coder: 'fast', outputPath: input.outputPath, timeoutMs });
    return { durationS: spec.reactionS + spec.demoS, sizeBytes: (await fsp.stat(input.outputPath)).size, loudness };
  } finally {
    await fsp.rm(listPath, { force: true });
    await fsp.rm(captionedDemoPath, { force: true });
  }
}

/**
 * The mix for this join. A demo normalised before levelling existed is measured now and levelled in
 * the mix (its stored file stays as it is); a demo without sound takes no part in it.
 */
async function soundtrackSpecOf(input: JoinInput): Promise<SoundtrackSpec> {
  const demo = input.demo;
  let demoSound: SoundtrackSpec['demo'] = null;
  if (demo) {
    const levelled = demo.loudnessLufs;
    const measured = levelled === undefined ? (await measureLoudness(demo.path)).integratedLufs : levelled;
    if (measured !== null) demoSound = { path: demo.path, gainDb: levelled === undefined ? SOUND_LEVEL.integratedLufs - measured : 0 };
  }
  const sound = input.sound;
  return {
    reactionS: input.segmentDurationS,
    demoS: demo ? demo.durationS : 0,
    // Without a sound plan the segment's own audio (a voice, or another engine's sound) is kept as it is.
    voicePath: sound ? sound.voicePath : input.segmentPath,
    demo: demoSound,
    effectPath: sound?.effectPath ?? null,
    bed: sound?.bed ?? null,
  };
}

/** A 1080x1920 JPEG of the frame at `atS` (see POSTER_FILTER for its colours). */
export async function posterJpeg(input: PosterInput): Promise<{ sizeBytes: number }> {
  return writeVerified(
    input.outputPath,
    async (partial) => {
      await runFfmpeg([
        '-v', 'error',
        '-ss', input.atS.toFixed(3),
        '-i', fileArg(input.videoPath),
        '-vf', POSTER_FILTER,
        ...POSTER_ENCODE_ARGS,
        '-y', fileArg(partial),
      ], { timeoutMs: input.timeoutMs ?? 60_000 });
    },
    async (partial) => {
      // Seeking past the end makes ffmpeg succeed with no picture written.
      const sizeBytes = await fsp.stat(partial).then((s) => s.size, () => 0);
      if (sizeBytes === 0) throw new Error(`no frame at ${input.atS} s in ${input.videoPath}`);
      return { sizeBytes };
    },
  );
}
