/**
 * Judges an uploaded music file and makes the account's copy of it (render/sound/music-track.ts):
 * audio the bytes say is MP3, M4A/AAC, WAV, Ogg (Vorbis or Opus) or FLAC, readable, with a sound
 * stream, at most MUSIC_LIMITS.maxDurationS; then transcoded to MUSIC_ENCODING, levelled. Refusals
 * are AppErrors (415 unsupported_media_type, 422 invalid_media); a broken toolchain a plain Error.
 */

export interface IngestedMusic {
  durationS: number;
  sizeBytes: number;
}

export interface MusicMedia {
  /** Writes the levelled .m4a of `inputPath` to `outputPath`; `field` names the file in refusals. */
  ingest(inputPath: string, outputPath: string, field: string): Promise<IngestedMusic>;
}
