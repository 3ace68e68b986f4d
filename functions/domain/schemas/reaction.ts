/** Saved reactions: the save request and how a saved reaction is shown (savedReactionView answers it). */
import * as z from 'zod/mini';
import { JOB_METHODS } from '#domain/jobs';
import { idField } from './common';
import { link, recordId, timestamp } from './envelope';

export const saveReactionInput = z.strictObject({ job_id: idField });

export const savedReactionResponse = z
  .object({
    id: recordId,
    job_id: recordId,
    method: z.enum(JOB_METHODS),
    avatar_id: z.nullable(recordId),
    prompt: z.nullable(z.string()),
    clip_url: link,
    clip_url_expires_at: timestamp,
    duration_s: z.number(),
    emotion: z.nullable(z.string()),
    created_at: timestamp,
  })
  .register(z.globalRegistry, { id: 'SavedReaction' });
