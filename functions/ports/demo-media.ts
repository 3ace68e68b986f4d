/**
 * The media work on a product's demo video (ffprobe, ffmpeg): judged when uploaded, converted once
 * to the canonical encoding in the background so that every job joins it by stream copy.
 */
import type { DemoFacts, DemoIntake } from '#domain/demo-intake';

export interface NormalisedDemo {
  /** Which canonical settings made it (stored with the demo: a job can then trust it unprobed). */
  encoding: string;
  durationS: number;
  width: number;
  height: number;
  sizeBytes: number;
  /** The levelled audio's integrated loudness (LUFS), or null when the demo has no sound. */
  loudnessLufs: number | null;
}

export interface DemoMedia {
  /**
   * Judges an upload as media before anything is written: refusals are AppErrors a client can act on
   * (415 unsupported_media_type, 422 invalid_media). Answers the media type to store it under and
   * what the rules of intake (domain/demo-intake.ts) decide on: its display size and length.
   */
  inspect(path: string): Promise<{ contentType: string } & DemoFacts>;
  /**
   * Writes the canonical encoding of `inputPath` to `outputPath`, reframed and trimmed as `intake`
   * asks (without one: the whole demo, fitted to the frame); nothing is left there on failure.
   * A file that cannot be converted rejects with AppError invalid_media (the uploader's to fix); any
   * other rejection is a failure on our side (a tool that could not start or was killed, a timeout).
   */
  normalise(inputPath: string, outputPath: string, options: { timeoutMs: number; intake?: DemoIntake }): Promise<NormalisedDemo>;
}
