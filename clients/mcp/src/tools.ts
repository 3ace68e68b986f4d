/**
 * The tools, one table entry each: a name, what it tells the model, a zod input schema and what it
 * calls on the typed client. Schemas describe each field for the model and catch what is plainly
 * wrong (a missing id, a string for a number); every rule of the API itself (a product's demo must
 * be ready, the allowance, scopes) stays the API's, whose refusal comes back as the tool's error.
 */
import * as z from 'zod';
import { unwrap, type ReactionStudioClient } from '@reaction-studio/client';
import { createVideo } from './create-video.js';
import { BATCH_TOOLS } from './batch-tools.js';
import { id, paging, uploadId, hookFields, hookLook, avatarSource, soundFields, voiceLine } from './fields.js';
import { CREATE, READ, tool, type ToolDefinition } from './tool.js';
import { answerBody, answerData } from './answers.js';

/** A read of what the account has that takes no arguments: GET `path`, answered with its `data`. */
const accountRead = ({ path, ...about }: Pick<ToolDefinition, 'name' | 'title' | 'description'> & { path: '/avatars' | '/music' | '/reactions' | '/social/connections' | '/usage' }) =>
  tool({
    ...about,
    input: z.strictObject({}),
    output: answerData(`GET ${path} 200`),
    annotations: READ,
    run: async (rs) => (await unwrap(rs.GET(path))).data,
  });

/** A page of a list the account has: GET `path` with the paging arguments, answered whole (`meta` has the paging). */
const pagedRead = ({ path, ...about }: Pick<ToolDefinition, 'name' | 'title' | 'description'> & { path: '/products' | '/videos' }) =>
  tool({
    ...about,
    input: z.strictObject(paging),
    output: answerBody(`GET ${path} 200`),
    annotations: READ,
    run: async (rs, query) => unwrap(rs.GET(path, { params: { query } })),
  });

export const TOOLS: readonly ToolDefinition[] = [
  pagedRead({
    name: 'list_products',
    title: 'List products',
    description: 'The account\'s products, newest first, with their demo video\'s status; `meta` has the paging.',
    path: '/products',
  }),
  tool({
    name: 'get_product',
    title: 'Get a product',
    description: 'One product; its demo_video.status must be `ready` before a video can be made of it.',
    input: z.strictObject({ product_id: id('product') }),
    output: answerData('GET /products/{id} 200'),
    annotations: READ,
    run: async (rs, { product_id }) => (await unwrap(rs.GET('/products/{id}', { params: { path: { id: product_id } } }))).data,
  }),
  tool({
    name: 'create_upload',
    title: 'Start a direct upload',
    description:
      'Declares a file and answers a one-hour presigned form (url, method, fields or headers): send the file there yourself, then name the upload\'s id in create_product (demo_video), create_avatar (avatar_image), create_video (reference_video) or add_music (music).',
    input: z.strictObject({
      purpose: z.enum(['demo_video', 'avatar_image', 'reference_video', 'music']).describe('What the file is for: a product demo, an avatar portrait, a motion reference clip or a music track'),
      content_type: z.string().min(1).max(100).describe('The file\'s media type, e.g. video/mp4 or image/png'),
      size_bytes: z.number().int().positive().describe('The exact size of the file'),
      filename: z.string().max(255).describe('The file\'s name, kept for display').optional(),
    }),
    output: answerData('POST /uploads 201'),
    annotations: CREATE,
    run: async (rs, body) => (await unwrap(rs.POST('/uploads', { body }))).data,
  }),
  tool({
    name: 'create_product',
    title: 'Create a product',
    description:
      'A product, with its demo clip (MP4, MOV, AVI or WebM; vertical unless `reframe` is given; at most 180 s kept) from a link (demo_video_url) or a direct upload (demo_video_upload_id). The demo is normalised in the background to 1080x1920: `wait: true` answers once it is ready or failed.',
    input: z.strictObject({
      name: z.string().min(1).max(200).describe('The product\'s name, at most 200 characters'),
      description: z.string().max(2000).describe('What the product is, for suggest_hooks and the studio; at most 2000 characters').optional(),
      demo_video_url: z.string().describe('A public link to the demo clip').optional(),
      demo_video_upload_id: uploadId('demo_video').optional(),
      reframe: z
        .enum(['blur', 'crop'])
        .describe('For a landscape or square demo, which is refused without it: blur (the whole picture over a blurred copy of itself) or crop (the centre cut to 9:16)')
        .optional(),
      demo_start_s: z.number().min(0).describe('Keep the demo from this second').optional(),
      demo_end_s: z.number().positive().describe('Keep the demo up to this second (at least 1 s and at most 180 s after demo_start_s)').optional(),
      wait: z.boolean().describe('Wait until the demo is ready (or failed)').optional(),
    }),
    output: answerData('POST /products 201'),
    annotations: CREATE,
    run: async (rs, { wait, ...fields }, context) => {
      const product = await rs.createProduct(fields);
      if (!wait || product.demo_video?.status !== 'processing') return product;
      return rs.waitForDemo(product.id, { signal: context.signal, intervalMs: context.intervalMs, timeoutMs: context.maxWaitMs });
    },
  }),
  tool({
    name: 'suggest_hooks',
    title: 'Suggest hooks',
    description: 'Ten hook caption ideas for a product, each with its format; one of them is a good hook_text for create_video.',
    input: z.strictObject({ product_id: id('product') }),
    output: answerData('POST /hooks 200'),
    annotations: CREATE,
    run: async (rs, body) => (await unwrap(rs.POST('/hooks', { body }))).data,
  }),
  accountRead({
    name: 'list_avatars',
    title: 'List avatars',
    description: 'Every avatar of the account (an avatar is the face of a method=motion video).',
    path: '/avatars',
  }),
  accountRead({
    name: 'list_music',
    title: 'List music',
    description: 'The tracks a video can play under it (create_video music_id): the built-in ones (with mood and bpm), then the account\'s own. All are levelled to -14 LUFS.',
    path: '/music',
  }),
  tool({
    name: 'add_music',
    title: 'Add a music track',
    description:
      'Adds one of the account\'s own tracks from a direct upload (create_upload purpose music: MP3, M4A/AAC, WAV, OGG/Opus or FLAC, at most 20 MB and 10 minutes). It is levelled to -14 LUFS and answered with its id (t12) for create_video music_id.',
    input: z.strictObject({ audio_upload_id: uploadId('music'), name: z.string().min(1).max(100).describe('Else the uploaded file\'s name').optional() }),
    output: answerData('POST /music 201'),
    annotations: CREATE,
    run: async (rs, body) => (await unwrap(rs.POST('/music', { body }))).data,
  }),
  tool({
    name: 'create_avatar',
    title: 'Create an avatar',
    description: 'An avatar from exactly one of: a prompt describing the person, a portrait uploaded with create_upload (image_upload_id), or a link to a portrait (image_url).',
    input: z
      .strictObject({
        prompt: z.string().min(3).max(1000).describe('The person to draw: age, hair, glasses, clothes, expression (3-1000 characters)').optional(),
        image_upload_id: uploadId('avatar_image').optional(),
        image_url: z.string().describe('A public link to a portrait (one person, face visible)').optional(),
      })
      .refine((source) => Object.values(source).filter((v) => v !== undefined).length === 1, { message: 'Give exactly one of prompt, image_upload_id, image_url' }),
    output: answerData('POST /avatars 201'),
    annotations: CREATE,
    run: async (rs, source) => rs.createAvatar(source as Parameters<ReactionStudioClient['createAvatar']>[0]),
  }),
  createVideo,
  ...BATCH_TOOLS,
  tool({
    name: 'get_job',
    title: 'Get a video job',
    description: 'A video job: status, stage, progress, queue position; a preview_url at preview_ready, a video_id when done, an error when failed.',
    input: z.strictObject({ job_id: id('job') }),
    output: answerData('GET /videos/jobs/{id} 200'),
    annotations: READ,
    run: async (rs, { job_id }) => rs.getJob(job_id),
  }),
  tool({
    name: 'approve_job',
    title: 'Approve a preview',
    description: 'Approves a preview job at preview_ready: its newest take, or the one named by `take` (list_takes), optionally changing its hook or its sound (sound, music_id); the final video is then composed.',
    input: z.strictObject({
      job_id: id('job'),
      take: z.number().int().min(1).describe('The take to compose (list_takes); left out, the newest').optional(),
      ...hookFields,
      ...soundFields,
    }),
    output: answerData('POST /videos/jobs/{id}/approve 202'),
    annotations: CREATE,
    run: async (rs, { job_id, ...body }) => rs.approveJob(job_id, body),
  }),
  tool({
    name: 'list_takes',
    title: "List a preview job's takes",
    description: 'Every preview a job showed, oldest first: take 1 is the first, each regenerate adds one and keeps the others (each with its preview_url while the job runs, the options that made it, and whether it is current). approve_job may name one. An auto job has none.',
    input: z.strictObject({ job_id: id('job') }),
    output: answerData('GET /videos/jobs/{id}/takes 200'),
    annotations: READ,
    run: async (rs, { job_id }) => rs.listTakes(job_id),
  }),
  tool({
    name: 'regenerate_job',
    title: 'Regenerate a preview',
    description: 'A new take of a preview job at preview_ready, with a new prompt or avatar/reference, caption style or duration, sound or voice line if given (uses one unit).',
    input: z.strictObject({ job_id: id('job'), prompt: z.string().min(1).max(1000).describe('A new reaction prompt (method prompt); left out, the same one with a new seed').optional(), ...avatarSource, ...hookLook(), ...soundFields, ...voiceLine }),
    output: answerData('POST /videos/jobs/{id}/regenerate 202'),
    annotations: CREATE,
    run: async (rs, { job_id, ...body }) => rs.regenerateJob(job_id, body),
  }),
  tool({
    name: 'save_reaction',
    title: 'Save a reaction',
    description: 'Keeps the reaction clip of a finished job in the library, to reuse with create_video method reuse.',
    input: z.strictObject({ job_id: id('job') }),
    output: answerData('POST /reactions 201'),
    annotations: CREATE,
    run: async (rs, body) => (await unwrap(rs.POST('/reactions', { body }))).data,
  }),
  accountRead({
    name: 'list_reactions',
    title: 'List saved reactions',
    description: 'The saved-reaction library, newest first.',
    path: '/reactions',
  }),
  pagedRead({
    name: 'list_videos',
    title: 'List videos',
    description: 'Finished videos, newest first, with their download links; `meta` has the paging.',
    path: '/videos',
  }),
  tool({
    name: 'get_video',
    title: 'Get a video',
    description: 'A finished video with a fresh download link.',
    input: z.strictObject({ video_id: id('video') }),
    output: answerData('GET /videos/{id} 200'),
    annotations: READ,
    run: async (rs, { video_id }) => rs.getVideo(video_id),
  }),
  accountRead({
    name: 'list_social_connections',
    title: 'List social connections',
    description: 'The connected scheduling providers and their channels; a channel\'s id is what publish_to_social takes in account_ids.',
    path: '/social/connections',
  }),
  tool({
    name: 'publish_to_social',
    title: 'Publish to social',
    description: 'Posts a finished video to channels of a connected provider, now, at schedule_at (ISO 8601), or as a draft.',
    input: z.strictObject({
      provider: z.enum(['provider_a', 'provider_b']).describe('The connected scheduling provider (list_social_connections)'),
      video_id: id('video'),
      account_ids: z.array(z.string().min(1).max(200)).min(1).max(20).describe('Channel ids from list_social_connections'),
      caption: z.string().describe('The post\'s text (the strictest limit of the chosen networks applies); provider_b requires one; left out, provider_a posts none').optional(),
      schedule_at: z.string().describe('When to publish, ISO 8601; left out: now').optional(),
      draft: z.boolean().describe('Keep it as a draft on the provider instead of publishing').optional(),
    }),
    output: answerData('POST /social/posts 201'),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    run: async (rs, body) => (await unwrap(rs.POST('/social/posts', { body }))).data,
  }),
  accountRead({
    name: 'get_usage',
    title: 'Get usage',
    description: 'The plan, the videos used, reserved and left this month, and the library and avatar counts against their caps.',
    path: '/usage',
  }),
];
