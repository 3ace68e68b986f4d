/**
 * Tools around create_video: its dry run (quote_video), variants of one product made together
 * (create_video_batch, get_batch) and the account's jobs newest first (list_jobs).
 */
import * as z from 'zod';
import { unwrap, type CreateVideoJobInput, type ReactionStudioClient } from '@reaction-studio/client';
import { videoFields } from './create-video.js';
import { id } from './fields.js';
import { CREATE, READ, tool } from './tool.js';
import { answerBody, answerData } from './answers.js';

type BatchInput = Parameters<ReactionStudioClient['createVideoBatch']>[0];

export const BATCH_TOOLS = [
  tool({
    name: 'quote_video',
    title: 'Quote a video',
    description:
      'create_video as a dry run: every check the real request makes (the product\'s demo, the avatar, the reference, the allowance), nothing made or reserved. Answers the units it would take, the allowance now and estimated_seconds to its next stop.',
    input: z.strictObject({
      product_id: id('product'),
      ...videoFields,
      idempotency_key: z.string().min(1).max(200).describe('The key create_video would send: a repeat of an earlier request with it quotes 0 units').optional(),
    }),
    output: answerData('POST /videos 200'),
    annotations: READ,
    run: async (rs, { idempotency_key, ...fields }) => rs.quoteVideoJob({ ...fields, idempotencyKey: idempotency_key } as CreateVideoJobInput),
  }),
  tool({
    name: 'create_video_batch',
    title: 'Create a batch of variants',
    description:
      'Up to 20 videos of one product at once, one unit each, reserved together (402 for all if they do not fit): the variants marketers test, e.g. one saved reaction (method reuse) under several hooks. Answers the batch with its jobs; follow it with get_batch.',
    input: z.strictObject({
      product_id: id('product'),
      variants: z.array(z.strictObject(videoFields)).min(1).max(20).describe('Each variant takes the fields of create_video but product_id; a motion clip comes from reference_video_upload_id or reference_url'),
    }),
    output: answerData('POST /videos/batch 202'),
    annotations: CREATE,
    run: async (rs, body) => rs.createVideoBatch(body as BatchInput),
  }),
  tool({
    name: 'get_batch',
    title: 'Get a batch',
    description: 'A batch: its jobs as they are now and how many are queued, processing, preview_ready, done or failed.',
    input: z.strictObject({ batch_id: id('batch') }),
    output: answerData('GET /videos/batches/{id} 200'),
    annotations: READ,
    run: async (rs, { batch_id }) => rs.getVideoBatch(batch_id),
  }),
  tool({
    name: 'list_jobs',
    title: 'List video jobs',
    description: 'The account\'s video jobs, newest first, with their status and stage; `meta.next_before` continues the list.',
    input: z.strictObject({
      limit: z.number().int().min(1).max(100).describe('Jobs in this slice (default 20)').optional(),
      before: id('job to continue before (meta.next_before of the last slice)').optional(),
    }),
    output: answerBody('GET /videos/jobs 200'),
    annotations: READ,
    run: async (rs, query) => unwrap(rs.GET('/videos/jobs', { params: { query } })),
  }),
];
