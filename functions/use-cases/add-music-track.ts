/**
 * POST /music: adds a track to the account's library. The cap is refused up front, so a full library
 * spends no upload work; the file (a multipart part or a direct upload) is judged and levelled into a
 * scratch file, stored under the account's prefix, then recorded. A refusal at any step leaves
 * nothing behind: the scratch file goes, a stored file goes again if the record is refused (the cap,
 * under a race), and a direct upload is given back (or dropped, when it was the file that was refused).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MUSIC_ENCODING, MUSIC_LIMITS, musicAudioKey, trackNameOf, type MusicTrack } from '#domain/music';
import type { Ports } from '#ports/ports';
import { musicFull } from '#ports/music-store';
import { dropObjectsIfFails } from './drop-objects';
import { withFile, type SentFile, type SentFileDeps } from './use-upload';

export type AddMusicTrackDeps = Pick<Ports, 'music' | 'musicMedia' | 'blobs' | 'now'> & SentFileDeps;

export interface AddMusicTrackInput {
  accountId: number;
  /** A multipart part on disk (with the name it was sent under) or a direct upload's id. */
  audio: SentFile & { filename?: string };
  name?: string;
}

export async function addMusicTrack(deps: AddMusicTrackDeps, input: AddMusicTrackInput): Promise<MusicTrack> {
  const { accountId, audio } = input;
  const cap = MUSIC_LIMITS.perAccountCap;
  if ((await deps.music.count(accountId)) >= cap) throw musicFull(cap);
  const field = 'path' in audio ? 'audio' : 'audio_upload_id';
  const filename = input.name ? undefined : 'path' in audio ? audio.filename : (await deps.uploads.get(accountId, audio.uploadId))?.filename;
  return withFile(deps, accountId, 'music', audio, async (path) => {
    const dir = await mkdtemp(join(tmpdir(), 'rs-music-'));
    try {
      const output = join(dir, 'audio.m4a');
      const ingested = await deps.musicMedia.ingest(path, output, field);
      const id = await deps.music.newTrackId();
      const key = musicAudioKey(accountId, id);
      await deps.blobs.putFile(key, output, MUSIC_ENCODING.contentType);
      const track: MusicTrack = {
        id,
        account_id: accountId,
        name: trackNameOf(input.name, filename),
        duration_s: ingested.durationS,
        audio_key: key,
        size_bytes: ingested.sizeBytes,
        created_at: deps.now().toISOString(),
      };
      await dropObjectsIfFails(deps.blobs, [key], () => deps.music.create(track, cap));
      return track;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
