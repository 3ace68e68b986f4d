/** Deletes a finished video: its record first (so it disappears from lists), then its objects. */
import { notFound } from '#domain/errors';
import { videoObjectPrefix } from '#domain/video';
import type { Ports } from '#ports/ports';

export async function deleteVideo(deps: Pick<Ports, 'videos' | 'blobs'>, input: { accountId: number; videoId: number }): Promise<number> {
  const { accountId, videoId } = input;
  const video = await deps.videos.delete(accountId, videoId);
  if (!video) throw notFound('Video');
  const prefix = videoObjectPrefix(accountId, videoId);
  // The record names its objects; anything else the pipeline left under the video's prefix goes too.
  await Promise.all([deps.blobs.deleteKeys([video.key, video.poster_key].filter((key) => !key.startsWith(prefix))), deps.blobs.deletePrefix(prefix)]);
  return videoId;
}
