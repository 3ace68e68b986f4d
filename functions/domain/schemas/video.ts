/**
 * POST /videos input (docs/decisions.md, Video jobs). The shape is one strict object; which fields a method
 * needs, and which it must not get, is checked after parsing so the message names the field.
 */
import * as z from 'zod/mini';
import { badRequest } from '#domain/errors';
import { HOOK_DURATIONS, HOOK_POSITIONS, HOOK_SIZES, HOOK_STYLES, JOB_DEFAULTS, JOB_LIMITS, JOB_METHODS, JOB_MODES, type JobMethod } from '#domain/jobs';
import { idField, oneOf, trimmedText, withoutControlCharacters } from './common';
import { checkReferenceUrl } from '#domain/reference-url';
import { builtInTrack, isAccountTrackId, SOUND_DEFAULTS, SOUND_MODES, VOICE_LINE_MAX_CHARS, type SoundMode } from '#domain/sound';
import { uploadIdField } from './upload';
import { meaning } from './envelope';

const text = (max: number) => trimmedText('text', max);
const url = z.string({ error: 'must be a string' }).check(withoutControlCharacters('line'));

export const VIDEO_SOURCES = ['link', 'upload'] as const;

/** A built-in track's slug or an account track's id ("t12"); whether the account has it is checked by the use case. */
const musicId = z.string({ error: 'must be a string' }).check(
  z.refine((id) => builtInTrack(id) !== undefined || isAccountTrackId(id), 'must be a built-in track id or one of your tracks (GET /music)'),
);

const SOUND = 'Under the video: `auto` (the default): an effect matched to the reaction, then the demo\'s own audio; `music`: `music_id` under both, ducked under the demo; `none`: the demo\'s audio only';
const MUSIC_ID = 'The music bed for `sound: music` (GET /music lists the built-in and the account\'s tracks); given alone, it means `sound: music`';

/** The sound fields of a job (docs/decisions.md, Sound), shared by create, batch variants, approve and regenerate. */
const soundFields = () => ({
  sound: z.optional(meaning(oneOf(SOUND_MODES), SOUND)),
  music_id: z.optional(meaning(musicId, MUSIC_ID)),
  voice_line: z.optional(meaning(text(VOICE_LINE_MAX_CHARS), `A line the person says during the reaction (at most ${VOICE_LINE_MAX_CHARS} characters)`)),
});

const HOOK_STYLE =
  'How the caption is drawn: `outline` (the default: white, a dark outline), `box` (dark letters on a white box), `highlight` (the long words on a colour band), `glow`, `bold_caps` (uppercase, heavy)';
const HOOK_DURATION = 'How long the caption shows: `reaction` (the default: over the reaction only) or `full` (over the demo too)';

/** The caption's style and duration (docs/decisions.md, Captions), shared by create, batch variants, approve and regenerate. */
const hookLookFields = () => ({
  hook_style: z.optional(meaning(oneOf(HOOK_STYLES), HOOK_STYLE)),
  hook_duration: z.optional(meaning(oneOf(HOOK_DURATIONS), HOOK_DURATION)),
});

const HOOK_TEXT = `The caption over the reaction, the video's hook (at most ${JOB_LIMITS.hookTextMaxChars} characters; POST /hooks suggests some); none when left out`;
const HOOK_POSITION = 'Where the caption sits: the `top` (the default), `middle` or `bottom` third, clear of the apps\' own buttons';
const HOOK_SIZE = 'How large the caption is drawn: `small`, `medium` (the default) or `large`';
const PROMPT = 'What the person does: the reaction the engine generates (`method: prompt`)';
const AVATAR_ID = 'The avatar that plays the person (GET /avatars: a stock one or the account\'s own); with `method: prompt` optional (the engine imagines someone without it)';
const VIDEO_SOURCE = 'Where the motion reference comes from: `link` (`reference_url`) or `upload` (`reference_video_upload_id`, or a multipart `reference_video`)';
const REFERENCE_URL = 'A short-video link (TikTok, Instagram, YouTube Shorts...) whose motion the avatar performs, fetched within the request (`video_source: link`)';
const REFERENCE_UPLOAD_ID = 'A direct upload (POST /uploads, purpose `reference_video`) of the motion reference, instead of a multipart `reference_video` (`video_source: upload`)';

/** `music_id` alone means sound=music; sound=music needs a music_id and no other sound takes one. */
export function soundOf(input: { sound?: SoundMode; music_id?: string }, what: string): { sound: SoundMode; musicId: string | null } | null {
  if (input.sound === undefined && input.music_id === undefined) return null;
  const sound = input.sound ?? (input.music_id !== undefined ? 'music' : SOUND_DEFAULTS.sound);
  if (sound === 'music' && input.music_id === undefined) throw badRequest(`Invalid ${what}: sound=music needs music_id (GET /music lists the tracks)`);
  if (sound !== 'music' && input.music_id !== undefined) throw badRequest(`Invalid ${what}: music_id is for sound=music, not sound=${sound}`);
  return { sound, musicId: input.music_id ?? null };
}

export const createVideoInput = z.strictObject({
  product_id: meaning(idField, 'The product whose demo the video shows (its demo must be `ready`)'),
  method: meaning(oneOf(JOB_METHODS), 'How the reaction is made: `prompt` (generated from a prompt), `motion` (an avatar performs a reference clip\'s motion) or `reuse` (a saved reaction)'),
  mode: z.optional(meaning(oneOf(JOB_MODES), '`auto` (the default): straight to the video; `preview`: stop at `preview_ready` for approve or regenerate')),
  hook_text: z.optional(meaning(text(JOB_LIMITS.hookTextMaxChars), HOOK_TEXT)),
  hook_position: z.optional(meaning(oneOf(HOOK_POSITIONS), HOOK_POSITION)),
  hook_size: z.optional(meaning(oneOf(HOOK_SIZES), HOOK_SIZE)),
  ...hookLookFields(),
  prompt: z.optional(meaning(text(1000), PROMPT)),
  avatar_id: z.optional(meaning(idField, AVATAR_ID)),
  video_source: z.optional(meaning(oneOf(VIDEO_SOURCES), VIDEO_SOURCE)),
  reference_url: z.optional(meaning(url, REFERENCE_URL)),
  reference_video_upload_id: z.optional(meaning(uploadIdField, REFERENCE_UPLOAD_ID)),
  reaction_id: z.optional(meaning(idField, 'The saved reaction to replay (GET /reactions; `method: reuse`)')),
  ...soundFields(),
});

export type CreateVideoInput = z.infer<typeof createVideoInput>;

/** What each method requires and allows beside the common fields (the document's one shape per method is built from it). */
export const METHOD_FIELDS: Record<JobMethod, { required: readonly string[]; allowed: readonly string[] }> = {
  prompt: { required: ['prompt'], allowed: ['prompt', 'avatar_id'] },
  motion: { required: ['avatar_id', 'video_source'], allowed: ['avatar_id', 'video_source', 'reference_url', 'reference_video', 'reference_video_upload_id'] },
  reuse: { required: ['reaction_id'], allowed: ['reaction_id'] },
};
export const METHOD_SPECIFIC = ['prompt', 'avatar_id', 'video_source', 'reference_url', 'reference_video', 'reference_video_upload_id', 'reaction_id'] as const;

export interface VideoRequest {
  productId: number;
  method: JobMethod;
  mode: (typeof JOB_MODES)[number];
  hookText: string | null;
  hookPosition: (typeof HOOK_POSITIONS)[number];
  hookSize: (typeof HOOK_SIZES)[number];
  hookStyle: (typeof HOOK_STYLES)[number];
  hookDuration: (typeof HOOK_DURATIONS)[number];
  prompt: string | null;
  avatarId: number | null;
  videoSource: (typeof VIDEO_SOURCES)[number] | null;
  referenceUrl: string | null;
  reactionId: number | null;
  sound: SoundMode;
  musicId: string | null;
  voiceLine: string | null;
}

/** The clip may come as a file part or as a direct upload's id, not both. */
function referenceClipGiven(hasFilePart: boolean, uploadId: string | undefined, what: string): boolean {
  if (hasFilePart && uploadId !== undefined) throw badRequest(`Invalid ${what}: send either a reference_video file or reference_video_upload_id, not both`);
  return hasFilePart || uploadId !== undefined;
}

const NEEDS_CLIP = 'needs a reference_video file (multipart/form-data) or reference_video_upload_id (POST /uploads)';

/**
 * Checks the per-method rules. `hasFilePart` says whether a `reference_video` file part came with the
 * request (multipart only); `reference_video_upload_id` names a direct upload instead. `what` names
 * the request in messages (a batch names the variant).
 */
export function videoRequestOf(input: CreateVideoInput, hasFilePart: boolean, what = 'video request'): VideoRequest {
  const hasReferenceVideo = referenceClipGiven(hasFilePart, input.reference_video_upload_id, what);
  const given = new Set<string>(METHOD_SPECIFIC.filter((field) => field !== 'reference_video' && input[field] !== undefined));
  if (hasFilePart) given.add('reference_video');
  const rules = METHOD_FIELDS[input.method];
  const foreign = [...given].filter((field) => !rules.allowed.includes(field));
  if (foreign.length > 0) throw badRequest(`Invalid ${what}: ${foreign.join(', ')} cannot be used with method=${input.method}`);
  const missing = rules.required.filter((field) => !given.has(field));
  if (missing.length > 0) throw badRequest(`Invalid ${what}: method=${input.method} needs ${missing.join(' and ')}`);

  if (input.method === 'reuse' && input.voice_line !== undefined) {
    throw badRequest(`Invalid ${what}: voice_line cannot be used with method=reuse (the saved reaction is replayed as it is)`);
  }
  if (input.method === 'motion') {
    if (input.video_source === 'link' && input.reference_url === undefined) {
      throw badRequest(`Invalid ${what}: video_source=link needs reference_url`);
    }
    if (input.video_source === 'link' && hasReferenceVideo) {
      throw badRequest(`Invalid ${what}: reference_video is for video_source=upload; with link send reference_url`);
    }
    if (input.video_source === 'upload' && !hasReferenceVideo) {
      throw badRequest(`Invalid ${what}: video_source=upload ${NEEDS_CLIP}`);
    }
    if (input.video_source === 'upload' && input.reference_url !== undefined) {
      throw badRequest(`Invalid ${what}: reference_url is for video_source=link`);
    }
    // Only https links on the short-video hosts' allow-list, refused when the request arrives.
    if (input.reference_url !== undefined) checkReferenceUrl(input.reference_url, { field: 'reference_url' });
  }

  return {
    productId: input.product_id,
    method: input.method,
    mode: input.mode ?? JOB_DEFAULTS.mode,
    hookText: input.hook_text ?? null,
    hookPosition: input.hook_position ?? JOB_DEFAULTS.hookPosition,
    hookSize: input.hook_size ?? JOB_DEFAULTS.hookSize,
    hookStyle: input.hook_style ?? JOB_DEFAULTS.hookStyle,
    hookDuration: input.hook_duration ?? JOB_DEFAULTS.hookDuration,
    prompt: input.prompt ?? null,
    avatarId: input.avatar_id ?? null,
    videoSource: input.video_source ?? null,
    referenceUrl: input.reference_url ?? null,
    reactionId: input.reaction_id ?? null,
    ...(soundOf(input, what) ?? { sound: SOUND_DEFAULTS.sound, musicId: null }),
    voiceLine: input.voice_line ?? null,
  };
}

/** POST /videos/jobs/{id}/approve: the take to finish, caption and sound overrides; `hook_text: null` removes the caption. */
export const approveVideoInput = z.strictObject({
  take: z.optional(
    idField.check(
      z.meta({ description: 'The take to finish (GET /videos/jobs/{id}/takes), from 1; the newest when left out. Its reaction, caption look and sound make the video, with the overrides below on top' }),
    ),
  ),
  hook_text: z.optional(meaning(z.nullable(text(JOB_LIMITS.hookTextMaxChars)), 'A new caption for the video; `null` drops it; left out, the take\'s stays')),
  hook_position: z.optional(meaning(oneOf(HOOK_POSITIONS), HOOK_POSITION)),
  hook_size: z.optional(meaning(oneOf(HOOK_SIZES), HOOK_SIZE)),
  ...hookLookFields(),
  sound: z.optional(meaning(oneOf(SOUND_MODES), SOUND)),
  music_id: z.optional(meaning(musicId, MUSIC_ID)),
});
export type ApproveVideoInput = z.infer<typeof approveVideoInput>;

/** POST /videos/jobs/{id}/regenerate: changed inputs of the job's own method (reference_video is a file part). */
export const regenerateVideoInput = z.strictObject({
  prompt: z.optional(meaning(text(1000), 'A new prompt (a `prompt` job only)')),
  avatar_id: z.optional(meaning(idField, 'Another avatar (a `motion` job only)')),
  video_source: z.optional(meaning(oneOf(VIDEO_SOURCES), `A new motion reference's source (a \`motion\` job only): ${VIDEO_SOURCE}`)),
  reference_url: z.optional(meaning(url, `A new motion reference (a \`motion\` job only): ${REFERENCE_URL}`)),
  reference_video_upload_id: z.optional(meaning(uploadIdField, `A new motion reference (a \`motion\` job only): ${REFERENCE_UPLOAD_ID}`)),
  ...hookLookFields(),
  ...soundFields(),
});
export type RegenerateVideoInput = z.infer<typeof regenerateVideoInput>;

export interface RegenerateChanges {
  prompt?: string;
  avatarId?: number;
  /** A new source: a link to fetch, or an uploaded clip (the file part). */
  reference?: { source: 'link'; url: string } | { source: 'upload' };
  sound?: { sound: SoundMode; musicId: string | null };
  voiceLine?: string;
  hookStyle?: (typeof HOOK_STYLES)[number];
  hookDuration?: (typeof HOOK_DURATIONS)[number];
}

/** Changes any method's regenerate may carry: the sound, and how the caption looks (the next preview shows it). */
const ANY_METHOD_CHANGES = ['sound', 'music_id', 'voice_line', 'hook_style', 'hook_duration'];

/** Which changes a regenerate may carry for the job's method; anything else is a 400 naming the field. */
export function regenerateChangesOf(method: JobMethod, input: RegenerateVideoInput, hasFilePart: boolean): RegenerateChanges {
  const hasReferenceVideo = referenceClipGiven(hasFilePart, input.reference_video_upload_id, 'regenerate request');
  const given = Object.keys(input).filter((field) => input[field as keyof RegenerateVideoInput] !== undefined);
  if (hasFilePart) given.push('reference_video');
  const allowed = [...(method === 'prompt' ? ['prompt'] : method === 'motion' ? ['avatar_id', 'video_source', 'reference_url', 'reference_video', 'reference_video_upload_id'] : []), ...ANY_METHOD_CHANGES];
  const foreign = given.filter((field) => !allowed.includes(field));
  if (foreign.length > 0) throw badRequest(`Invalid regenerate request: ${foreign.join(', ')} cannot be changed on a ${method} job`);
  const changes: RegenerateChanges = {};
  const sound = soundOf(input, 'regenerate request');
  if (sound) changes.sound = sound;
  if (input.voice_line !== undefined) changes.voiceLine = input.voice_line;
  if (input.hook_style !== undefined) changes.hookStyle = input.hook_style;
  if (input.hook_duration !== undefined) changes.hookDuration = input.hook_duration;
  if (input.prompt !== undefined) changes.prompt = input.prompt;
  if (input.avatar_id !== undefined) changes.avatarId = input.avatar_id;
  const source = input.video_source ?? (input.reference_url !== undefined ? 'link' : hasReferenceVideo ? 'upload' : undefined);
  if (source === 'link') {
    if (hasReferenceVideo) throw badRequest('Invalid regenerate request: reference_video is for video_source=upload; with link send reference_url');
    if (input.reference_url === undefined) throw badRequest('Invalid regenerate request: video_source=link needs reference_url');
    checkReferenceUrl(input.reference_url, { field: 'reference_url' });
    changes.reference = { source: 'link', url: input.reference_url };
  } else if (source === 'upload') {
    if (input.reference_url !== undefined) throw badRequest('Invalid regenerate request: reference_url is for video_source=link');
    if (!hasReferenceVideo) throw badRequest(`Invalid regenerate request: video_source=upload ${NEEDS_CLIP}`);
    changes.reference = { source: 'upload' };
  }
  return changes;
}
