/**
 * create_video: POST /videos with an Idempotency-Key (the caller's, else the client's own UUID, which
 * its retries reuse), then, with `wait`, the job followed by the client's waitForJob until it settles,
 * each move reported as progress. A wait that runs out is not a failure: the job is still running,
 * so the tool answers it as last seen and says to poll get_job.
 */
import * as z from 'zod';
import { WaitTimeoutError, type CreateVideoJobInput, type Job } from '@reaction-studio/client';
import { Noted } from './results.js';
import { CREATE, tool } from './tool.js';
import { avatarSource, hookFields, id, soundFields, voiceLine } from './fields.js';
import { answerData } from './answers.js';

/** What a video is made of, as create_video, quote_video and each variant of create_video_batch take it. */
export const videoFields = {
  method: z.enum(['prompt', 'motion', 'reuse']).describe('prompt: a reaction drawn from `prompt`; motion: an avatar following a reference clip; reuse: a saved reaction (`reaction_id`)'),
  mode: z.enum(['auto', 'preview']).describe('auto (default): straight to the finished video; preview: stop at preview_ready for approve_job or regenerate_job').optional(),
  prompt: z.string().min(1).max(1000).describe('How the avatar reacts (method prompt)').optional(),
  reaction_id: id('saved reaction (method reuse)').optional(),
  ...hookFields,
  ...avatarSource,
  ...soundFields,
  ...voiceLine,
};

export const createVideo = tool({
  name: 'create_video',
  title: 'Create a video',
  description:
    'Starts a video job (one unit of the monthly allowance) and answers the job. method prompt needs `prompt`; motion needs `avatar_id` and a reference; reuse needs `reaction_id`. `sound` (auto by default, music with a `music_id` from list_music, or none) and `voice_line` shape the soundtrack. mode preview stops at preview_ready for approve_job or regenerate_job. `wait: true` follows the job (progress notifications when the call has a progressToken) and answers it settled.',
  input: z.strictObject({
    product_id: id('product'),
    ...videoFields,
    idempotency_key: z.string().min(1).max(200).describe('Sent as Idempotency-Key: the same key and request again answer the first job, not a second one').optional(),
    wait: z.boolean().describe('Follow the job until done, failed or (mode preview) preview_ready').optional(),
    wait_timeout_s: z.number().int().positive().describe('The longest to wait; the job is then answered as it is').optional(),
  }),
  output: answerData('POST /videos 202'),
  annotations: CREATE,
  async run(rs, { idempotency_key, wait, wait_timeout_s, ...fields }, context) {
    // One flat schema is what a model fills in best; the API's 400 names what a method lacks or refuses.
    const job = await rs.createVideoJob({ ...fields, idempotencyKey: idempotency_key } as CreateVideoJobInput);
    if (!wait) return job;
    const timeoutMs = Math.min(wait_timeout_s === undefined ? Infinity : wait_timeout_s * 1000, context.maxWaitMs);
    try {
      return await rs.waitForJob(job.id, {
        until: fields.mode === 'preview' ? 'preview_ready' : 'final',
        intervalMs: context.intervalMs,
        timeoutMs,
        signal: context.signal,
        onProgress: (seen) => context.progress(seen),
      });
    } catch (error) {
      if (!(error instanceof WaitTimeoutError)) throw error;
      const last = (error.last as Job | undefined) ?? job;
      return new Noted(last, `Job ${last.id} is still ${last.status} (${last.stage}, ${last.progress}%) after ${Math.round(timeoutMs / 1000)} s: follow it with get_job.`);
    }
  },
});
