/** The hook caption drawn as a picture, by the same renderer the videos use (functions/render/caption). */
import type { CaptionSpec, FrameBox } from '#domain/jobs';

export interface CaptionImages {
  /** The caption on a transparent 1080x1920 PNG, exactly the layer Compose lays over the video. */
  draw(spec: CaptionSpec): Promise<Buffer>;
  /**
   * Where the face's eyes-to-mouth is on the frame of a typical reaction (a drawn avatar at rest):
   * what a caption is kept clear of before any reaction exists.
   */
  readonly typicalFaceBox: FrameBox;
}
