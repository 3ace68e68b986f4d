import type { CaptionImages } from '#ports/caption-images';
import { renderCaptionPng, typicalFaceBox } from '#render';

/** Caption pictures drawn by the render wing's caption renderer (Skia), as Compose draws them. */
export class SkiaCaptionImages implements CaptionImages {
  readonly typicalFaceBox = typicalFaceBox();

  async draw(spec: Parameters<CaptionImages['draw']>[0]): Promise<Buffer> {
    return (await renderCaptionPng(spec)).png;
  }
}
