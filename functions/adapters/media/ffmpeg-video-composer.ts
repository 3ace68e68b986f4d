/** The pipeline's encoding by the render wing's compose (#render: render/compose/compose.ts). */
import type { JoinRequest, VideoComposer } from '#ports/video-composer';
import type { CaptionSpec } from '#domain/jobs';
import { captionSegment, joinWithDemo, posterJpeg, posterTimeS } from '#render';

export class FfmpegVideoComposer implements VideoComposer {
  captionSegment(input: { reactionPath: string; caption: CaptionSpec | null; watermark?: string | null; outputPath: string }): Promise<{ durationS: number }> {
    return captionSegment(input);
  }

  join(input: JoinRequest): Promise<{ durationS: number; sizeBytes: number }> {
    return joinWithDemo(input);
  }

  async poster(input: { videoPath: string; atS: number; outputPath: string }): Promise<void> {
    await posterJpeg(input);
  }

  defaultPosterTimeS(segmentDurationS: number): number {
    return posterTimeS(segmentDurationS);
  }
}
