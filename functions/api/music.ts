/**
 * The music library: the built-in beds every account has, then the account's own tracks (GET /music);
 * adding one (multipart `audio`, or `audio_upload_id` of a direct upload; judged and levelled within
 * the request), playing one (a redirect to a short-lived link to its file) and deleting one.
 */
import type { Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { created, ok } from '#http/respond';
import { badRequest } from '#domain/errors';
import { musicLibraryView, musicTrackView } from '#domain/music';
import { addMusicFromFile, addMusicFromUpload } from '#domain/schemas/music';
import { API_PREFIX } from '#functions/routes';
import { addMusicTrack, type AddMusicTrackInput } from '#use-cases/add-music-track';
import { removeMusicTrack } from '#use-cases/remove-music-track';
import { musicAudioKeyOf } from '#use-cases/music-audio';
import { answeredOnce } from './answered-once';

/** A playback link lives this long: enough to play a 10-minute track, and the page asks again for another. */
const AUDIO_LINK_TTL_S = 60 * 60;

const musicIdParam = (request: Parameters<Operation>[0]): string => {
  const raw = request.pathParameters.music_id ?? '';
  if (!/^[a-z0-9-]{1,40}$/.test(raw)) throw badRequest('Path parameter music_id must be a track id from GET /music ("sunny-pop", "t12")');
  return raw;
};

const list: Operation<Pick<Ports, 'music'>> = async (request) => {
  const own = await request.deps.music.list(request.principal.accountId);
  return ok(musicLibraryView(own, API_PREFIX));
};

const create: Operation<NeedsOf<typeof addMusicTrack>> = async (request) => {
  const body = await readRouteBody(request);
  try {
    const accountId = request.principal.accountId;
    const file = body.files.audio;
    let input: AddMusicTrackInput;
    if (file) {
      if ('audio_upload_id' in body.fields) throw badRequest('Send either an audio file part or audio_upload_id, not both');
      const { name } = parseInput(addMusicFromFile, body.fields, 'music track');
      input = { accountId, audio: { path: file.path, filename: file.filename }, name };
    } else {
      if (!('audio_upload_id' in body.fields)) throw badRequest('Send the track as a multipart file part named audio, or audio_upload_id (a direct upload, POST /uploads with purpose music)');
      const { audio_upload_id, name } = parseInput(addMusicFromUpload, body.fields, 'music track');
      input = { accountId, audio: { uploadId: audio_upload_id }, name };
    }
    return created(musicTrackView(await addMusicTrack(request.deps, input), API_PREFIX));
  } finally {
    await body.cleanup();
  }
};

const audio: Operation<NeedsOf<typeof musicAudioKeyOf> & Pick<Ports, 'blobs' | 'now'>> = async (request) => {
  const key = await musicAudioKeyOf(request.deps, { accountId: request.principal.accountId, musicId: musicIdParam(request) });
  const link = await request.deps.blobs.playbackUrl(key, request.deps.now(), AUDIO_LINK_TTL_S);
  // The link is signed and short-lived: neither the redirect nor the link may be cached past it.
  return { statusCode: 302, headers: { location: link.url, 'cache-control': 'private, no-store' }, body: '' };
};

const remove: Operation<NeedsOf<typeof removeMusicTrack>> = async (request) => {
  const id = await removeMusicTrack(request.deps, { accountId: request.principal.accountId, musicId: musicIdParam(request) });
  return ok({ id, deleted: true });
};

export const musicOperations = { list, create: answeredOnce(create), audio, remove };
