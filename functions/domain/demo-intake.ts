/**
 * How a product's demo video is taken in (docs/decisions.md, Demo videos): which shapes and lengths
 * are usable as they are, and what the uploader may ask for instead of re-exporting the clip. A
 * landscape or square demo can be reframed to the portrait frame, and a part of a longer one kept.
 * The media work measures the file; these rules decide on what it measured.
 */
import { type AppError, badRequest, RefusedAsAsked } from './errors';
const { min, round } = Math;

/**
 * `blur`: the whole picture, fitted to the frame's width, over a blurred and darkened copy of itself
 * filling the frame. `crop`: the centre of the picture cut to the frame's 9:16 and scaled to fill it.
 */
export const REFRAMES = ['blur', 'crop'] as const;
export type Reframe = (typeof REFRAMES)[number];

/** What the uploader asked for, as stored on the product (every part optional: null). */
export interface DemoIntake {
  reframe: Reframe | null;
  start_s: number | null;
  end_s: number | null;
}

export const DEMO_LENGTH = {
  /** The most of a demo a product keeps: every video plays all of it after the reaction. */
  maxKeptS: 180,
  /** Players and editors round a 3:00 recording to 180.0x s; a fraction over is still "3 minutes". */
  graceS: 0.5,
  /** Less is a flash, not a demo. */
  minKeptS: 1,
  /** How far past the demo's measured end `demo_end_s` may reach (a player shows 9.97 s as 0:10). */
  endGraceS: 0.1,
  /** The largest trim point a request may name: an hour, far past any demo source that fits 50 MB usefully. */
  maxPointS: 3600,
} as const;

/** What the media work measured of a demo, in display pixels and seconds. */
export interface DemoFacts {
  width: number;
  height: number;
  durationS: number;
}

const fmtS = (s: number) => `${round(s * 100) / 100} s`;

/** The intake a request asked for, or null when it asked for nothing (the product then stores none). */
export function demoIntakeOf(fields: { reframe?: Reframe; demo_start_s?: number; demo_end_s?: number }): DemoIntake | null {
  const intake = { reframe: fields.reframe ?? null, start_s: fields.demo_start_s ?? null, end_s: fields.demo_end_s ?? null };
  return intake.reframe === null && intake.start_s === null && intake.end_s === null ? null : intake;
}

/** A 400 for options sent without a demo to apply them to. */
export function intakeWithoutDemo(intake: DemoIntake): AppError {
  const param = intake.reframe !== null ? 'reframe' : intake.start_s !== null ? 'demo_start_s' : 'demo_end_s';
  return badRequest(`${param} applies to a demo video; send it with demo_video, demo_video_upload_id or demo_video_url`, param);
}

/**
 * Judges a measured demo against what was asked: its shape (portrait, unless a reframe was asked
 * for), the trim points against its length, and the length kept. Throws the refusal a client can act
 * on; answers the seconds that will be kept.
 */
export function judgeDemo(facts: DemoFacts, intake: DemoIntake | null, field = 'demo_video'): number {
  const { width, height, durationS } = facts;
  if (!(height > width) && !intake?.reframe) {
    throw new RefusedAsAsked('invalid_media', `${field} must be vertical (portrait, taller than wide); got ${width}x${height}; send reframe: "blur" or "crop" to reframe it`, {
      param: 'reframe',
    });
  }
  const startS = intake?.start_s ?? 0;
  const endAsked = intake?.end_s ?? null;
  if (endAsked !== null && endAsked > durationS + DEMO_LENGTH.endGraceS) {
    throw badRequest(`demo_end_s is ${endAsked} s but ${field} is ${fmtS(durationS)} long`, 'demo_end_s');
  }
  const endS = endAsked === null ? durationS : min(endAsked, durationS);
  const keptS = endS - startS;
  const trimmed = startS > 0 || endAsked !== null;
  // A short demo sent whole is the uploader's choice; a trim that leaves a flash is a mistake.
  if (trimmed && keptS < DEMO_LENGTH.minKeptS) {
    const [param, point] = startS > 0 ? ['demo_start_s', startS] : ['demo_end_s', endS];
    throw badRequest(`${param} (${point} s) leaves less than ${DEMO_LENGTH.minKeptS} s of ${field}, which is ${fmtS(durationS)} long`, param);
  }
  if (keptS > DEMO_LENGTH.maxKeptS + DEMO_LENGTH.graceS) {
    if (!trimmed) {
      throw new RefusedAsAsked('invalid_media', `${field} must be at most ${DEMO_LENGTH.maxKeptS} s long; got ${fmtS(durationS)}. Trim it and re-upload, or send demo_start_s and demo_end_s to keep at most ${DEMO_LENGTH.maxKeptS} s of it`, {
        param: 'demo_end_s',
      });
    }
    throw badRequest(`demo_start_s and demo_end_s keep ${fmtS(keptS)} of ${field}; at most ${DEMO_LENGTH.maxKeptS} s may be kept`, 'demo_end_s');
  }
  return keptS;
}
