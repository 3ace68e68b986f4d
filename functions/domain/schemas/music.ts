/** The music library's inputs and answers as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { MUSIC_LIMITS } from '#domain/music';
import { MUSIC_MOODS } from '#domain/sound';
import { trimmedText } from './common';
import { timestamp } from './envelope';
import { uploadIdField } from './upload';

const trackName = trimmedText('line', MUSIC_LIMITS.nameMaxChars);

/** The multipart form: the file as `audio`, and an optional name (else the file's name). */
const NAME = "The track's name (at most 100 characters); the file's name when left out";
export const addMusicFromFile = z.strictObject({ name: z.optional(trackName.check(z.meta({ description: NAME }))) });
/** A JSON or form body: the file sent before with POST /uploads (purpose music). */
export const addMusicFromUpload = z.strictObject({
  audio_upload_id: uploadIdField.check(z.meta({ description: 'The audio sent before (POST /uploads, purpose `music`)' })),
  name: z.optional(trackName.check(z.meta({ description: NAME }))),
});

/** How a track is shown (musicTrackView and builtInTrackView in functions/domain/music.ts answer this shape). */
export const musicTrackResponse = z
  .object({
    id: z.string().check(z.meta({ description: 'A built-in track\'s slug ("sunny-pop") or one of the account\'s ("t12"): what a job\'s `music_id` names' })),
    name: z.string().check(z.meta({ description: "The track's name, to show" })),
    mood: z.nullable(z.enum(MUSIC_MOODS)).check(z.meta({ description: 'Built-in tracks only' })),
    bpm: z.nullable(z.int()).check(z.meta({ description: 'Built-in tracks only' })),
    duration_s: z.number().check(z.meta({ description: 'Its length in seconds (a video loops or cuts it to fit)' })),
    built_in: z.boolean().check(z.meta({ description: 'One of the service\'s own beds (every account has them; not deletable); false for the account\'s own' })),
    preview_url: z
      .string()
      .check(
        z.meta({
          description:
            'Plays the track: the path of GET /music/{music_id}/audio from the API host\'s root (send the same credentials), which answers 302 to a short-lived link to the audio (AAC in .m4a)',
        }),
      ),
    created_at: z.nullable(timestamp).check(z.meta({ description: 'When the account added it; null for built-in tracks' })),
  })
  .register(z.globalRegistry, { id: 'MusicTrack', description: 'A built-in bed or one of the account\'s own tracks, levelled to −14 LUFS' });

export const deletedMusicResponse = z
  .object({ id: z.string().check(z.meta({ description: 'The id of the track deleted' })), deleted: z.literal(true).check(z.meta({ description: 'Always true' })) })
  .register(z.globalRegistry, { id: 'DeletedMusicTrack', description: 'A track of the account\'s, deleted with its file' });
