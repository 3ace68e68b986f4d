/**
 * The encoding a job's last steps need (ffmpeg, the render wing's compose): the reaction segment with
 * its caption, the finished video and its poster. Every path is a local file in the step's scratch
 * directory: the steps move blobs and decide what goes in; the composer only encodes, so only the
 * function that renders bundles it.
 */
import type { CaptionSpec } from '#domain/jobs';

/** The reaction's sound (the job's SoundPlan) as local files of levelled sounds. */
export interface SoundFiles {
  /** A file whose audio is the spoken voice line (the engine's clip), mixed above the rest; null without one. */
  voicePath: string | null;
  effectPath: string | null;
  bed: { path: string; role: 'music' | 'fill' } | null;
}

export interface JoinRequest {
  segmentPath: string;
  /** As captionSegment answered it (whole frames), or as stored with a segment made earlier. */
  segmentDurationS: number;
  /**
   * The product's normalised demo, or null for the segment alone. `encoding` and `loudnessLufs` are
   * what was stored with it: a current encoding spares probing it, a stored level spares measuring it.
   */
  demo: { path: string; durationS: number; encoding?: string; loudnessLufs?: number | null } | null;
  /** null: the segment's and the demo's own audio only. */
  sound: SoundFiles | null;
  /** hook_duration=full: the caption stays over the demo too, which then costs one encode. */
  demoCaption?: CaptionSpec | null;
  /** A corner label over every frame, demo included (a test job's "TEST"). */
  watermark?: string | null;
  outputPath: string;
}

export interface VideoComposer {
  /** The reaction in the canonical encoding with `caption` laid over (null: as it is); its exact length. */
  captionSegment(input: { reactionPath: string; caption: CaptionSpec | null; watermark?: string | null; outputPath: string }): Promise<{ durationS: number }>;
  /** The segment, then the demo by stream copy, the sound mixed anew and levelled. */
  join(input: JoinRequest): Promise<{ durationS: number; sizeBytes: number }>;
  /** The JPEG of the frame at `atS`. */
  poster(input: { videoPath: string; atS: number; outputPath: string }): Promise<void>;
  /** Where the poster is cut when the reaction's peak is not known. */
  defaultPosterTimeS(segmentDurationS: number): number;
}
