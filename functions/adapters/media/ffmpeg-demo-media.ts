/** Demo videos judged by their bytes and ffprobe, normalised by ffmpeg (#render: render/uploads/demo-video.ts, render/encoding/normalise.ts). */
import type { DemoMedia, NormalisedDemo } from '#ports/demo-media';
import { inspectDemoVideo, normaliseVideo } from '#render';

const CONTAINER_TYPES = { mp4: 'video/mp4', mov: 'video/quicktime', avi: 'video/x-msvideo' } as const;

export class FfmpegDemoMedia implements DemoMedia {
  async inspect(path: string): Promise<{ contentType: string }> {
    const info = await inspectDemoVideo(path);
    return { contentType: CONTAINER_TYPES[info.container] };
  }

  normalise(inputPath: string, outputPath: string, options: { timeoutMs: number }): Promise<NormalisedDemo> {
    return normaliseVideo(inputPath, outputPath, options);
  }
}
