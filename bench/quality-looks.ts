/**
 * The finished videos' looks, beside their sound (`npm run bench -- --only quality`): per method, on
 * the MP4 the API hands out, how alive the reaction is and how clean its picture (issue 27). The face
 * region is where human finds the face (functions/render/face/face-motion.ts, the same measure the
 * liveliness tests use):
 *   - motion: the quietest 1 s window of the reaction's face-box change (mean absolute luma difference
 *     between consecutive frames, 0-255);
 *   - freeze at start: how long a freeze (ffmpeg freezedetect n=0.003 d=0.1) that starts in the first
 *     0.1 s lasts (0 when the reaction moves at once);
 *   - whole-frame freezes: how many freezes the same freezedetect finds anywhere in the reaction (a
 *     backdrop that stands still while only the person moves reads as a still with a sticker on it);
 *   - seam: the largest mean luma step between neighbouring rows away from the face, averaged over the
 *     columns outside the caption's area (a seam crosses the whole width; the caption's text is not one);
 *   - poster: SSIM of the poster against the video's frame at the engine's peak;
 *   - for motion, the share of the reference's head movement followed (both measured with the face
 *     resampled to 256 px wide).
 *   - caption vs face: how far the caption's ink (redrawn from the job's caption as compose drew it)
 *     stays from the eyes-to-mouth box human finds (the target; negative: it covers that many
 *     rows of it), and beside it from the whole face (forehead to chin), reported, not judged; and
 *     whether every pixel of it is inside the platforms' safe area.
 */
import { join } from 'node:path';
import { fmt, type Table, type Target } from './report';

const LOOKS_TARGETS = { minWindow: 1, freezeAtStartS: 0, reactionFreezes: 0, seam: 5, posterSsim: 0.95, motionFollowed: 0.8, captionGapPx: 0 } as const;

/** The caption's horizontal safe area in a finished 1080-wide frame (docs/architecture.md, captions). */
const CAPTION_X = [120, 930] as const;
const CAPTION_COLUMN = 'caption vs eyes-to-mouth (vs whole face): gap px, in safe area';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LooksRow {
  method: string;
  windows: number[];
  minWindow: number;
  freezeAtStartS: number;
  /** Whole-frame freezes (freezedetect n=0.003 d=0.1) anywhere in the reaction. */
  reactionFreezes: number;
  seam: number;
  posterSsim: number;
  /** Motion only: the video's face motion over the reference's. */
  followed: number | null;
  /** Rows between the caption's ink and the eyes-to-mouth box (negative: overlapping rows); null without a caption. */
  captionGapPx: number | null;
  /** The same against the whole face, forehead to chin: reported beside it. */
  captionFaceGapPx: number | null;
  captionInSafeArea: boolean | null;
}

export interface LooksInput {
  method: string;
  video: string;
  /** Seconds of the video that are the reaction (the demo follows). */
  reactionS: number;
  /** The engine's peak, where the poster was cut (seconds into the video). */
  peakS: number | null;
  poster: string;
  /** For motion: the reference clip it followed. */
  reference?: string;
  /** The caption's ink box on the frame, as compose drew it; null without one. */
  caption: Box | null;
  dir: string;
}

/** A method whose video shows no face human can find: reported as such (a MISS), not a crash. */
function faceless(method: string): LooksRow {
  return { method, windows: [], minWindow: NaN, freezeAtStartS: NaN, reactionFreezes: NaN, seam: NaN, posterSsim: NaN, followed: null, captionGapPx: NaN, captionFaceGapPx: NaN, captionInSafeArea: null };
}

/**
 * Rows from the caption to the face, where their columns meet (a caption beside the face is clear of
 * it whatever its rows): the gap between them, negative for rows of the face it covers.
 */
function gapBetween(caption: Box, face: Box): number {
  if (caption.x >= face.x + face.width || face.x >= caption.x + caption.width) return Infinity;
  return Math.max(face.y - (caption.y + caption.height), caption.y - (face.y + face.height));
}

export async function measureLooks(input: LooksInput): Promise<LooksRow> {
  const { measureFaceMotion, findFaceBox, freezes, lumaFrameAt, seamStep, subjectOf, runFfmpeg, fileArg, CAPTION_SAFE_AREA } = await import('#render');
  const { ssimOf } = await import('./ssim');
  // A drawn face under a caption is missed in some samples: where 8 find none, 30 look again (both boxes alike).
  const lookFor = async (region?: 'eyes-to-mouth') =>
    (await findFaceBox(input.video, { durationS: input.reactionS, region })) ?? (await findFaceBox(input.video, { durationS: input.reactionS, samples: 30, region }));
  const box = await lookFor();
  if (!box) return faceless(input.method);
  const motion = await measureFaceMotion(input.video, { durationS: input.reactionS, box });
  const eyesToMouth = input.caption ? await lookFor('eyes-to-mouth') : null;
  const atStart = (await freezes(input.video, { durationS: Math.min(1, input.reactionS) })).find((f) => f.startS < 0.1);
  const reactionFreezes = (await freezes(input.video, { durationS: input.reactionS })).length;
  const peakS = input.peakS ?? input.reactionS * 0.6;
  const frame = await lumaFrameAt(input.video, peakS);
  const seam = seamStep(frame.luma, frame.width, frame.height, subjectOf(motion.box, frame.height), { columns: [[0, CAPTION_X[0]], [CAPTION_X[1], frame.width]] });
  const peakPng = join(input.dir, `${input.method}-peak.png`);
  await runFfmpeg(['-v', 'error', '-ss', peakS.toFixed(3), '-i', fileArg(input.video), '-frames:v', '1', '-y', fileArg(peakPng)]);
  let followed: number | null = null;
  if (input.reference) {
    const source = await measureFaceMotion(input.reference, { faceWidth: 256 });
    const video = await measureFaceMotion(input.video, { durationS: input.reactionS, faceWidth: 256 });
    followed = video.mean / source.mean;
  }
  return {
    method: input.method,
    windows: motion.windows,
    minWindow: motion.minWindow,
    freezeAtStartS: atStart ? Math.min(input.reactionS, atStart.endS) - atStart.startS : 0,
    reactionFreezes,
    seam: seam.step,
    posterSsim: await ssimOf(input.poster, peakPng),
    followed,
    captionGapPx: input.caption ? (eyesToMouth ? gapBetween(input.caption, eyesToMouth) : NaN) : null,
    captionFaceGapPx: input.caption ? gapBetween(input.caption, motion.box) : null,
    captionInSafeArea: input.caption ? insideSafeArea(input.caption, CAPTION_SAFE_AREA) : null,
  };
}

const gapText = (gap: number) => (Number.isNaN(gap) ? 'no face' : Number.isFinite(gap) ? fmt(gap, 0) : 'beside');

function insideSafeArea(box: Box, safe: { left: number; right: number; top: number; bottom: number }): boolean {
  return box.x >= safe.left && box.x + box.width <= safe.right && box.y >= safe.top && box.y + box.height <= safe.bottom;
}

/** A floor as a bench target (the bench's targets are ceilings): how far short of it a figure is. */
const shortOf = (what: string, value: number, floor: number): Target => ({ what, value: Number.isNaN(value) ? Infinity : Math.max(0, floor - value), max: 0, unit: '' });

export function looksSummary(rows: readonly LooksRow[]): { table: Table; targets: Target[] } {
  const t = LOOKS_TARGETS;
  const targets: Target[] = rows.flatMap((r) => [
    // NaN (no face found) fails every comparison, so it stays a MISS.
    shortOf(`${r.method}: quietest 1 s window of face motion, short of ${t.minWindow}`, r.minWindow, t.minWindow),
    { what: `${r.method}: freeze at start`, value: Number.isNaN(r.freezeAtStartS) ? Infinity : r.freezeAtStartS, max: t.freezeAtStartS, unit: 's' },
    { what: `${r.method}: whole-frame freezes in the reaction`, value: Number.isNaN(r.reactionFreezes) ? Infinity : r.reactionFreezes, max: t.reactionFreezes, unit: '' },
    { what: `${r.method}: seam (row luma step away from the face)`, value: Number.isNaN(r.seam) ? Infinity : r.seam, max: t.seam, unit: '' },
    shortOf(`${r.method}: poster SSIM against the peak frame, short of ${t.posterSsim}`, r.posterSsim, t.posterSsim),
    ...(r.followed !== null ? [shortOf(`${r.method}: share of the reference's head movement followed, short of ${t.motionFollowed}`, r.followed, t.motionFollowed)] : []),
    ...(r.captionGapPx !== null ? [shortOf(`${r.method}: rows between the caption and the eyes-to-mouth box human finds, short of ${t.captionGapPx}`, r.captionGapPx, t.captionGapPx)] : []),
    ...(r.captionInSafeArea !== null ? [{ what: `${r.method}: caption pixels outside the safe area`, value: r.captionInSafeArea ? 0 : 1, max: 0, unit: '' }] : []),
  ]);
  const captionOk = (r: LooksRow) => r.captionGapPx === null || (r.captionGapPx >= t.captionGapPx && r.captionInSafeArea === true);
  const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  return {
    table: {
      title: `Looks of finished videos, per method (targets: every 1 s window ≥ ${t.minWindow}, no freeze at start, no whole-frame freeze in the reaction, seam ≤ ${t.seam}, poster SSIM ≥ ${t.posterSsim}, motion follows ≥ ${t.motionFollowed * 100} %, the caption clear of the eyes-to-mouth box and in the safe area)`,
      head: ['method', 'face motion per 1 s window', 'min', 'freeze at start s', 'whole-frame freezes in the reaction', 'seam step', 'poster SSIM', 'reference followed', CAPTION_COLUMN, 'verdict'],
      rows: rows.map((r) => [
        r.method,
        r.windows.length ? r.windows.map((w) => fmt(w, 2)).join(' ') : 'no face found',
        fmt(r.minWindow, 2),
        fmt(r.freezeAtStartS, 2),
        fmt(r.reactionFreezes, 0),
        fmt(r.seam, 2),
        fmt(r.posterSsim, 4),
        r.followed !== null ? `${fmt(r.followed * 100, 0)} %` : '',
        r.captionGapPx === null ? 'no caption' : `${gapText(r.captionGapPx)} (${gapText(r.captionFaceGapPx ?? NaN)}), ${r.captionInSafeArea ? 'yes' : 'no'}`,
        pass(r.minWindow >= t.minWindow && r.freezeAtStartS <= t.freezeAtStartS && r.reactionFreezes <= t.reactionFreezes && r.seam <= t.seam && r.posterSsim >= t.posterSsim && (r.followed === null || r.followed >= t.motionFollowed) && captionOk(r)),
      ]),
    },
    targets,
  };
}
