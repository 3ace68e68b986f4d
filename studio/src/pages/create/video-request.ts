/** The create form's values and what they become in POST /videos (only the chosen method's fields: others are 400). */
import type { paths } from '#client/types';
import { TEXT_LIMITS } from '../../intake/limits';
import { overLimit } from '../../intake/text-count';
import type { Caption } from './caption';
import { referenceFields, type Reference } from './reference';
import { soundBody, type SoundChoice } from './sound';

export type CreateVideoBody = paths['/videos']['post']['requestBody']['content']['application/json'];
export type Method = CreateVideoBody['method'];
export type Mode = NonNullable<CreateVideoBody['mode']>;

export interface CreateForm {
  productId: string | null;
  method: Method;
  prompt: string;
  avatarId: string | null;
  reactionId: string | null;
  mode: Mode;
  caption: Caption;
  sound: SoundChoice;
  /** Spoken during the reaction; not sent for a reuse (the saved reaction plays as it is). */
  voiceLine: string;
}

/** The body, or the first thing still missing in words (in the form's order: the sound comes last). */
export function videoRequest(form: CreateForm, reference: Reference): CreateVideoBody | string {
  if (!form.productId) return 'Choose a product with a ready demo.';
  const reaction = reactionFields(form, reference);
  if (typeof reaction === 'string') return reaction;
  const tooLong = overLimit(TEXT_LIMITS.hookText, form.caption.text, 'The hook text') ?? (form.method === 'reuse' ? null : overLimit(TEXT_LIMITS.voiceLine, form.voiceLine, 'The voice line'));
  if (tooLong) return tooLong;
  const sound = soundBody(form.sound);
  if (typeof sound === 'string') return sound;
  const caption = form.caption.text.trim();
  const voiceLine = form.voiceLine.trim();
  return {
    product_id: Number(form.productId),
    mode: form.mode,
    hook_position: form.caption.position,
    hook_size: form.caption.size,
    hook_style: form.caption.style,
    hook_duration: form.caption.duration,
    ...(caption ? { hook_text: caption } : {}),
    ...reaction,
    ...sound,
    ...(voiceLine && form.method !== 'reuse' ? { voice_line: voiceLine } : {}),
  };
}

/** The method and its own fields. */
function reactionFields(form: CreateForm, reference: Reference) {
  if (form.method === 'prompt') {
    if (!form.prompt.trim()) return 'Describe the reaction in the prompt.';
    const tooLong = overLimit(TEXT_LIMITS.reactionPrompt, form.prompt, 'The prompt');
    if (tooLong) return tooLong;
    return { method: form.method, prompt: form.prompt.trim(), ...(form.avatarId ? { avatar_id: Number(form.avatarId) } : {}) };
  }
  if (form.method === 'motion') {
    if (!form.avatarId) return 'Choose the avatar that will copy the movement.';
    const source = referenceFields(reference);
    if (typeof source === 'string') return source;
    return { method: form.method, avatar_id: Number(form.avatarId), ...source };
  }
  if (!form.reactionId) return 'Choose a saved reaction from the library.';
  return { method: form.method, reaction_id: Number(form.reactionId) };
}
