/** How a video job is shown (jobView in functions/domain/jobs.ts answers this shape). */
import * as z from 'zod/mini';
import {
  HOOK_DURATIONS,
  HOOK_POSITIONS,
  HOOK_SIZES,
  HOOK_STYLES,
  JOB_ERROR_CODES,
  JOB_METHODS,
  JOB_MODES,
  JOB_STAGES,
  JOB_STAGE_MEANINGS,
  JOB_STATUSES,
  JOB_STATUS_MEANINGS,
} from '#domain/jobs';
import { describedEnum } from './common';
import { createdAt, meaning, recordId, link, timestamp, updatedAt, testRecord } from './envelope';
import { VIDEO_SOURCES } from './video';
import { SOUND_MODES } from '#domain/sound';

const keysOf = <T extends Record<string, unknown>>(record: T) => Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

export const jobResponse = z
  .object({
    id: meaning(recordId, "The job's id"),
    status: describedEnum(JOB_STATUSES, JOB_STATUS_MEANINGS, 'Where the job stands'),
    stage: describedEnum(keysOf(JOB_STAGES), JOB_STAGE_MEANINGS, 'The step the job is at (while it waits for a render slot, the step done last)'),
    progress: z.int().check(z.minimum(0), z.maximum(100), z.meta({ description: 'How far the job is, 0 to 100; it only rises (after a regenerate it holds until composing)' })),
    queue_position: z.nullable(z.int().check(z.positive(), z.meta({ description: 'Place in line for a render slot (1 = next) while waiting for one' }))),
    method: meaning(z.enum(JOB_METHODS), 'How its reaction is made: `prompt`, `motion` (an avatar performs a reference clip) or `reuse` (a saved reaction)'),
    mode: meaning(z.enum(JOB_MODES), '`auto`: straight to the video; `preview`: stops at `preview_ready` for approve or regenerate'),
    product_id: meaning(recordId, 'The product whose demo the video shows'),
    avatar_id: meaning(z.nullable(recordId), 'The avatar that plays the person; null when the engine imagined one, or for a reused reaction'),
    reaction_id: meaning(z.nullable(recordId), 'The saved reaction replayed (`method: reuse`); null otherwise'),
    prompt: meaning(z.nullable(z.string()), 'What the person does (`method: prompt`); null otherwise'),
    video_source: meaning(z.nullable(z.enum(VIDEO_SOURCES)), "Where the motion reference came from (`method: motion`): `link` or `upload`; null otherwise"),
    reference_url: meaning(z.nullable(z.string()), 'The motion reference\'s link (`video_source: link`); null otherwise'),
    hook_text: meaning(z.nullable(z.string()), 'The caption over the reaction; null: none'),
    hook_position: meaning(z.enum(HOOK_POSITIONS), 'Where the caption sits: the top, middle or bottom third'),
    hook_size: meaning(z.enum(HOOK_SIZES), 'How large the caption is drawn'),
    hook_style: z.enum(HOOK_STYLES).check(z.meta({ description: 'outline: white, dark outline; box: dark text on a white box; highlight: key words on a colour band; glow; bold_caps: uppercase, heavy' })),
    hook_duration: z.enum(HOOK_DURATIONS).check(z.meta({ description: 'reaction: the caption shows over the reaction only; full: over the demo too' })),
    sound: z.enum(SOUND_MODES).check(z.meta({ description: 'auto: an effect matched to the reaction, then the demo audio; music: music_id under both, ducked under the demo; none: the demo audio only' })),
    music_id: z.nullable(z.string().check(z.meta({ description: 'The music bed (GET /music) when sound is music' }))),
    voice_line: z.nullable(z.string().check(z.meta({ description: 'The line the person speaks during the reaction' }))),
    preview_url: meaning(z.nullable(link), 'While `preview_ready`: the captioned preview (MP4), a signed link; null otherwise'),
    preview_url_expires_at: meaning(z.nullable(timestamp), 'When `preview_url` (and `preview_still_url`) stop working: GET the job again for fresh ones'),
    preview_still_url: z.nullable(
      link.check(z.meta({ description: 'While preview_ready: the reaction without its caption, as a JPEG of its peak frame (signed like preview_url), to draw a changed caption over (POST /captions/preview) before approving; null when the clip came captioned' })),
    ),
    preview_expires_at: meaning(z.nullable(timestamp), 'While `preview_ready`: approve or regenerate before this, or the job fails (`preview_expired`)'),
    video_id: meaning(z.nullable(recordId), 'Once `done`: the finished video (GET /videos/{id}); null before'),
    charged_units: meaning(z.int().check(z.nonnegative()), 'Allowance units charged for it so far (a preview is charged when shown, each regenerate one more)'),
    regenerations: meaning(z.int().check(z.nonnegative()), 'How many times its preview was regenerated'),
    error: meaning(
      z.nullable(
        z.object({
          code: describedEnum(keysOf(JOB_ERROR_CODES), JOB_ERROR_CODES, 'Why the job failed'),
          message: meaning(z.string(), 'What went wrong and what to do, in words fit to show'),
        }),
      ),
      'Once `failed`: why; null otherwise',
    ),
    batch_id: z.nullable(recordId.check(z.meta({ description: 'The batch (POST /videos/batch) the job was made in; null for a job made alone' }))),
    test: testRecord,
    created_at: createdAt,
    updated_at: updatedAt,
  })
  .register(z.globalRegistry, { id: 'Job', description: 'A video job: where it stands and the inputs it was made with' });

/** One take of a preview job (takeView in functions/domain/takes.ts answers this shape). */
export const takeResponse = z
  .object({
    take: z.int().check(z.positive(), z.meta({ description: 'The take\'s number: 1 for the first preview, one more per regenerate; approve names it as `take`' })),
    current: z.boolean().check(
      z.meta({ description: 'The take the job stands on: the one shown at preview_ready, or the one approved; false for every take while a regenerate makes the next one' }),
    ),
    preview_url: z.nullable(
      link.check(z.meta({ description: "The take's captioned preview, signed like the job's preview_url; null once the job is done or failed (a take's files go with the job's working files)" })),
    ),
    preview_url_expires_at: meaning(z.nullable(timestamp), 'When `preview_url` and `preview_still_url` stop working: list the takes again for fresh ones'),
    preview_still_url: z.nullable(link.check(z.meta({ description: "The take's reaction at its peak without its caption (JPEG), as the job's preview_still_url; null when the clip came captioned or the job has ended" }))),
    duration_s: z.number().check(z.positive(), z.meta({ description: "The preview's length in seconds" })),
    options: z
      .object({
        prompt: meaning(z.nullable(z.string()), 'The prompt (`prompt` jobs)'),
        avatar_id: meaning(z.nullable(recordId), 'The avatar'),
        video_source: meaning(z.nullable(z.enum(VIDEO_SOURCES)), "The motion reference's source (`motion` jobs)"),
        reference_url: meaning(z.nullable(z.string()), "The motion reference's link (`video_source: link`)"),
        hook_text: meaning(z.nullable(z.string()), 'The caption'),
        hook_position: meaning(z.enum(HOOK_POSITIONS), "The caption's third"),
        hook_size: meaning(z.enum(HOOK_SIZES), "The caption's size"),
        hook_style: meaning(z.enum(HOOK_STYLES), "The caption's style"),
        hook_duration: meaning(z.enum(HOOK_DURATIONS), 'How long the caption shows'),
        sound: meaning(z.enum(SOUND_MODES), 'The sound'),
        music_id: meaning(z.nullable(z.string()), 'The music bed (`sound: music`)'),
        voice_line: meaning(z.nullable(z.string()), 'The line the person says'),
      })
      .check(z.meta({ description: "The job's inputs that made this take, as the job showed them then; approving the take puts them back on the job" })),
    created_at: timestamp.check(z.meta({ description: 'When its preview was made' })),
  })
  .register(z.globalRegistry, { id: 'Take', description: "One preview of a preview job; a regenerate adds one and keeps the others until the job ends" });
