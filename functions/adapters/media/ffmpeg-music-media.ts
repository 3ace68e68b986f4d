/** Uploaded music judged by its bytes and ffprobe, then levelled and encoded by ffmpeg (render/sound/music-track). */
import { ingestMusicTrack } from '#render';
import type { IngestedMusic, MusicMedia } from '#ports/music-media';

export class FfmpegMusicMedia implements MusicMedia {
  async ingest(inputPath: string, outputPath: string, field: string): Promise<IngestedMusic> {
    const { durationS, sizeBytes } = await ingestMusicTrack(inputPath, outputPath, { field });
    return { durationS, sizeBytes };
  }
}
