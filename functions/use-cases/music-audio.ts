/**
 * GET /music/{music_id}/audio: where a track of the library plays from. A built-in's file comes from the
 * sound bank (made the first time it is asked for); the account's own from its record; anything else,
 * another account's track included, is 404.
 */
import { notFound } from '#domain/errors';
import { accountTrackNumber } from '#domain/music';
import { builtInTrack } from '#domain/sound';
import type { Ports } from '#ports/ports';

/** The blob key that plays the track. */
export async function musicAudioKeyOf(deps: Pick<Ports, 'music' | 'sounds'>, input: { accountId: number; musicId: string }): Promise<string> {
  if (builtInTrack(input.musicId)) return deps.sounds.builtInKey(input.musicId);
  const number = accountTrackNumber(input.musicId);
  const track = number === undefined ? undefined : await deps.music.get(input.accountId, number);
  if (!track) throw notFound(`Music track ${input.musicId}`);
  return track.audio_key;
}
