/** Demo videos judged by their bytes and ffprobe, normalised by ffmpeg (#render: render/uploads/demo-video.ts, render/encoding/normalise.ts). */
import type { DemoFacts, DemoIntake } from '#domain/demo-intake';
import { AppError } from '#domain/errors';
import type { DemoMedia, NormalisedDemo } from '#ports/demo-media';
import { inspectDemoVideo, MediaToolError, normaliseVideo } from '#render';

const CONTAINER_TYPES = { mp4: 'video/mp4', mov: 'video/quicktime', avi: 'video/x-msvideo', webm: 'video/webm' } as const;

export class FfmpegDemoMedia implements DemoMedia {
  async inspect(path: string): Promise<{ contentType: string } & DemoFacts> {
    const info = await inspectDemoVideo(path);
    return { contentType: CONTAINER_TYPES[info.container], width: info.width, height: info.height, durationS: info.durationS };
  }

  async normalise(inputPath: string, outputPath: string, options: { timeoutMs: number; intake?: DemoIntake }): Promise<NormalisedDemo> {
    const { intake } = options;
    try {
      return await normaliseVideo(inputPath, outputPath, {
        timeoutMs: options.timeoutMs,
        framing: intake?.reframe ?? 'fit',
        ...(intake?.start_s != null ? { startS: intake.start_s } : {}),
        ...(intake?.end_s != null ? { endS: intake.end_s } : {}),
      });
    } catch (error) {
      // ffmpeg ran and gave up on the file (an exit code, not a signal): the file is the problem.
      if (error instanceof MediaToolError && error.kind === 'exit' && error.exitCode !== null) {
        throw new AppError('invalid_media', 'The demo video could not be converted (damaged or unusual encoding?); export it again and re-upload it', { cause: error });
      }
      throw error;
    }
  }
}
