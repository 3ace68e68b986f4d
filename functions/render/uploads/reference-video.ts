/**
 * An uploaded motion reference (`reference_video`): judged by its bytes (MP4, MOV, WebM or AVI, as the
 * README promises) and by ffprobe with that container's demuxer pinned, before the job is accepted,
 * with the same caps a linked clip gets while downloading.
 */
import { AppError } from '#domain/errors';
import { REFERENCE_CLIP_LIMITS } from '#ports/reference-resolver';
import { readFileHead } from '../ffmpeg/file-head';
import { probeMedia } from '../ffmpeg/probe';
import { sniffVideoContainer, SNIFF_BYTES, type VideoContainer } from '../ffmpeg/video-container';

export interface ReferenceVideoInfo {
  container: VideoContainer;
  durationS: number;
}

const CONTENT_TYPES: Record<VideoContainer, string> = { mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', avi: 'video/x-msvideo' };

export const referenceContentType = (container: string) => CONTENT_TYPES[container as VideoContainer] ?? 'application/octet-stream';

export async function inspectReferenceVideo(path: string, field = 'reference_video'): Promise<ReferenceVideoInfo> {
  const sniffed = await sniffVideoContainer(await readFileHead(path, SNIFF_BYTES));
  if ('refused' in sniffed) throw new AppError('unsupported_media_type', `${field} must be a video (MP4, MOV, WEBM or AVI); got ${sniffed.refused}`);
  const probed = await probeMedia(path, { format: sniffed.demuxer });
  if (!probed.ok) {
    if (probed.reason === 'tool_unavailable') throw new Error(`cannot inspect ${field}: ${probed.detail}`);
    throw new AppError('invalid_media', `${field} cannot be read (truncated or damaged?); export the clip again and re-upload it`);
  }
  const { video } = probed.media;
  if (!video) throw new AppError('invalid_media', `${field} has no video stream; upload a clip with picture`);
  const durationS = video.durationS ?? probed.media.durationS ?? 0;
  if (!(durationS > 0)) throw new AppError('invalid_media', `${field} has no usable duration; export the clip again`);
  if (durationS > REFERENCE_CLIP_LIMITS.maxDurationS) {
    throw new AppError('invalid_media', `${field} is ${durationS.toFixed(1)} s long; the most allowed is ${REFERENCE_CLIP_LIMITS.maxDurationS} s. Trim it and re-upload`);
  }
  return { container: sniffed.container, durationS };
}
