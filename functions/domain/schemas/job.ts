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
import { recordId, link, timestamp } from './envelope';
import { VIDEO_SOURCES } from './video';
import { SOUND_MODES } from '#domain/sound';

const keysOf = <T extends Record<string, unknown>>(record: T) => Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

export const jobResponse = z
  .object({
    id: recordId,
    status: describedEnum(JOB_STATUSES, JOB_STATUS_MEANINGS, 'Where the job stands'),
    stage: describedEnum(keysOf(JOB_STAGES), JOB_STAGE_MEANINGS, 'The step the job is at (while it waits for a render slot, the step done last)'),
    progress: z.int().check(z.minimum(0), z.maximum(100)),
    queue_position: z.nullable(z.int().check(z.positive(), z.meta({ description: 'Place in line for a render slot (1 = next) while waiting for one' }))),
    method: z.enum(JOB_METHODS),
    mode: z.enum(JOB_MODES),
    product_id: recordId,
    avatar_id: z.nullable(recordId),
    reaction_id: z.nullable(recordId),
    prompt: z.nullable(z.string()),
    video_source: z.nullable(z.enum(VIDEO_SOURCES)),
    reference_url: z.nullable(z.string()),
    hook_text: z.nullable(z.string()),
    hook_position: z.enum(HOOK_POSITIONS),
    hook_size: z.enum(HOOK_SIZES),
    hook_style: z.enum(HOOK_STYLES).check(z.meta({ description: 'outline: white, dark outline; box: dark text on a white box; highlight: key words on a colour band; glow; bold_caps: uppercase, heavy' })),
    hook_duration: z.enum(HOOK_DURATIONS).check(z.meta({ description: 'reaction: the caption shows over the reaction only; full: over the demo too' })),
    sound: z.enum(SOUND_MODES).check(z.meta({ description: 'auto: an effect matched to the reaction, then the demo audio; music: music_id under both, ducked under the demo; none: the demo audio only' })),
    music_id: z.nullable(z.string().check(z.meta({ description: 'The music bed (GET /music) when sound is music' }))),
    voice_line: z.nullable(z.string().check(z.meta({ description: 'The line the person speaks during the reaction' }))),
    preview_url: z.nullable(link),
    preview_url_expires_at: z.nullable(timestamp),
    preview_still_url: z.nullable(
      link.check(z.meta({ description: 'While preview_ready: the reaction without its caption, as a JPEG of its peak frame (signed like preview_url), to draw a changed caption over (POST /captions/preview) before approving; null when the clip came captioned' })),
    ),
    preview_expires_at: z.nullable(timestamp),
    video_id: z.nullable(recordId),
    charged_units: z.int().check(z.nonnegative()),
    regenerations: z.int().check(z.nonnegative()),
    error: z.nullable(z.object({ code: describedEnum(keysOf(JOB_ERROR_CODES), JOB_ERROR_CODES, 'Why the job failed'), message: z.string() })),
    batch_id: z.nullable(recordId.check(z.meta({ description: 'The batch (POST /videos/batch) the job was made in; null for a job made alone' }))),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'Job' });

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
    preview_url_expires_at: z.nullable(timestamp),
    preview_still_url: z.nullable(link.check(z.meta({ description: "The take's reaction at its peak without its caption (JPEG), as the job's preview_still_url; null when the clip came captioned or the job has ended" }))),
    duration_s: z.number().check(z.positive(), z.meta({ description: "The preview's length in seconds" })),
    options: z
      .object({
        prompt: z.nullable(z.string()),
        avatar_id: z.nullable(recordId),
        video_source: z.nullable(z.enum(VIDEO_SOURCES)),
        reference_url: z.nullable(z.string()),
        hook_text: z.nullable(z.string()),
        hook_position: z.enum(HOOK_POSITIONS),
        hook_size: z.enum(HOOK_SIZES),
        hook_style: z.enum(HOOK_STYLES),
        hook_duration: z.enum(HOOK_DURATIONS),
        sound: z.enum(SOUND_MODES),
        music_id: z.nullable(z.string()),
        voice_line: z.nullable(z.string()),
      })
      .check(z.meta({ description: "The job's inputs that made this take, as the job showed them then; approving the take puts them back on the job" })),
    created_at: timestamp.check(z.meta({ description: 'When its preview was made' })),
  })
  .register(z.globalRegistry, { id: 'Take', description: "One preview of a preview job; a regenerate adds one and keeps the others until the job ends" });
