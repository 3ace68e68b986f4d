/**
 * What the Regenerate panel sends (POST /videos/jobs/{id}/regenerate): only what differs from the job,
 * so leaving the form as it is asks for the same inputs with a new seed. The method's own inputs
 * (a prompt job's prompt, a motion job's avatar and reference) and, for every method, the sound and
 * the voice line (functions/domain/schemas/video.ts, regenerateVideoInput).
 */
import type { Job, paths } from '#client/types';
import { TEXT_LIMITS } from '../../intake/limits';
import { overLimit } from '../../intake/text-count';
import { referenceFields, type Reference } from '../create/reference';
import { soundOverride, type SoundChoice } from '../create/sound';

export type RegenerateBody = NonNullable<paths['/videos/jobs/{id}/regenerate']['post']['requestBody']>['content']['application/json'];

export interface RegenerateForm {
  prompt: string;
  avatarId: string | null;
  /** A new reference is sent only when the person asked to change it. */
  reference: Reference | null;
  sound: SoundChoice;
  voiceLine: string;
}

type JobInputs = Pick<Job, 'method' | 'prompt' | 'avatar_id' | 'sound' | 'music_id' | 'voice_line'>;

/** The form as the job left it: what a regenerate changes nothing of. */
export function regenerateFormOf(job: JobInputs): RegenerateForm {
  return {
    prompt: job.prompt ?? '',
    avatarId: job.avatar_id ? String(job.avatar_id) : null,
    reference: null,
    sound: { sound: job.sound, musicId: job.music_id },
    voiceLine: job.voice_line ?? '',
  };
}

/**
 * The API takes a new voice line but has no way to remove one (a regenerate is another take of the
 * same job, and the line is part of what was asked for): clearing it is refused here, in words.
 */
export const VOICE_LINE_KEPT = 'This job has a voice line: change it, or make a new video to have none.';

/** The body, or the first thing still missing in words (in the panel's order: the sound comes last). */
export function regenerateRequest(form: RegenerateForm, job: JobInputs): RegenerateBody | string {
  const body: RegenerateBody = {};
  const tooLong = (job.method === 'prompt' ? overLimit(TEXT_LIMITS.reactionPrompt, form.prompt, 'The prompt') : null) ?? overLimit(TEXT_LIMITS.voiceLine, form.voiceLine, 'The voice line');
  if (tooLong) return tooLong;
  const prompt = form.prompt.trim();
  if (job.method === 'prompt' && prompt && prompt !== job.prompt) body.prompt = prompt;
  if (job.method === 'motion') {
    if (form.avatarId && Number(form.avatarId) !== job.avatar_id) body.avatar_id = Number(form.avatarId);
    if (form.reference) {
      const reference = referenceFields(form.reference);
      if (typeof reference === 'string') return reference;
      Object.assign(body, reference);
    }
  }
  const sound = soundOverride(form.sound, job);
  if (typeof sound === 'string') return sound;
  const voiceLine = form.voiceLine.trim();
  if (!voiceLine && job.voice_line) return VOICE_LINE_KEPT;
  return { ...body, ...sound, ...(voiceLine && voiceLine !== job.voice_line ? { voice_line: voiceLine } : {}) };
}
