/**
 * The finished video's sound as the forms hold it (create, approve, regenerate): auto, a music track,
 * or none, and the voice line. The API's own rules (functions/domain/schemas/video.ts): music needs a
 * music_id and no other sound takes one; the voice line is at most 100 characters and not for
 * method=reuse.
 */
import type { paths } from '#client/types';
import { optionsOf } from '../../components/options';

type CreateBody = paths['/videos']['post']['requestBody']['content']['application/json'];
export type SoundMode = NonNullable<CreateBody['sound']>;

export interface SoundChoice {
  sound: SoundMode;
  /** A built-in track's slug or one of the account's ("t12"); kept while another sound is chosen. */
  musicId: string | null;
}

export const SOUND_DEFAULT: SoundChoice = { sound: 'auto', musicId: null };

export const SOUND_OPTIONS = optionsOf<SoundMode>({ auto: 'Auto', music: 'Music', none: 'None' });

export const SOUND_HELP: Record<SoundMode, string> = {
  auto: 'A sound effect matched to the reaction, then the demo’s own audio.',
  music: 'A music track plays under the whole video, quieter while the demo speaks.',
  none: 'No added sound: only the demo’s own audio.',
};

/** The sound fields of a body, or what is still missing in words. */
export function soundBody(choice: SoundChoice): { sound: SoundMode; music_id?: string } | string {
  if (choice.sound !== 'music') return { sound: choice.sound };
  if (!choice.musicId) return 'Choose a music track, or another sound.';
  return { sound: 'music', music_id: choice.musicId };
}

/** What an approve or a regenerate sends of the sound: only a change from the job's own, else nothing. */
export function soundOverride(choice: SoundChoice, job: { sound: SoundMode; music_id: string | null }): { sound?: SoundMode; music_id?: string } | string {
  const body = soundBody(choice);
  if (typeof body === 'string') return body;
  const same = body.sound === job.sound && (body.music_id ?? null) === (job.sound === 'music' ? job.music_id : null);
  return same ? {} : body;
}
