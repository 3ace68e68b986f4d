/**
 * DELETE /music/{music_id}: the account's own track, its record first (so a job created from then on
 * is refused), then its file. Built-in tracks belong to every account and cannot be deleted (409).
 */
import { conflict, notFound } from '#domain/errors';
import { accountTrackNumber, musicObjectPrefix } from '#domain/music';
import { builtInTrack } from '#domain/sound';
import type { Ports } from '#ports/ports';

export async function removeMusicTrack(deps: Pick<Ports, 'music' | 'blobs'>, input: { accountId: number; musicId: string }): Promise<string> {
  const { accountId, musicId } = input;
  if (builtInTrack(musicId)) throw conflict(`${musicId} is a built-in track, which every account shares: it cannot be deleted (only your own tracks, t<n>, can)`);
  const number = accountTrackNumber(musicId);
  const track = number === undefined ? undefined : await deps.music.delete(accountId, number);
  if (!track) throw notFound(`Music track ${musicId}`);
  await deps.blobs.deletePrefix(musicObjectPrefix(accountId, track.id));
  return musicId;
}

