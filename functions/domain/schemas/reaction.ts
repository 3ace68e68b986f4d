/** Saved reactions: the save request and how a saved reaction is shown (savedReactionView answers it). */
import * as z from 'zod/mini';
import { JOB_METHODS } from '#domain/jobs';
import { idField } from './common';
import { link, meaning, recordId, timestamp, testRecord } from './envelope';

export const saveReactionInput = z.strictObject({ job_id: idField.check(z.meta({ description: 'The preview job whose reaction to keep (it must have shown its preview)' })) });

export const savedReactionResponse = z
  .object({
    id: meaning(recordId, "The saved reaction's id: a `reuse` job's `reaction_id`"),
    job_id: meaning(recordId, 'The preview job it was saved from'),
    method: meaning(z.enum(JOB_METHODS), 'How that job made it'),
    avatar_id: meaning(z.nullable(recordId), 'The avatar that played it; null when the engine imagined the person'),
    prompt: meaning(z.nullable(z.string()), 'The prompt it was generated from; null for a motion reaction'),
    clip_url: meaning(link, 'The reaction clip (MP4, no caption), a signed link'),
    clip_url_expires_at: meaning(timestamp, 'When `clip_url` stops working: GET it again for a fresh one'),
    duration_s: meaning(z.number(), 'Its length in seconds'),
    emotion: meaning(z.nullable(z.string()), 'The emotion the engine performed (`shocked`, `laughing`...), which picks its sound effect; null when unknown'),
    test: testRecord,
    created_at: meaning(timestamp, 'When it was saved'),
  })
  .register(z.globalRegistry, { id: 'SavedReaction', description: 'A reaction clip kept in the library, to make more videos with (`method: reuse`) without generating again' });
