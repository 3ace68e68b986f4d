/** Examples of the creative records: products, avatars, music, jobs and their takes, videos, saved reactions. */
import type * as z from 'zod/mini';
import { productResponse } from '#domain/schemas/product';
import { avatarResponse } from '#domain/schemas/avatar';
import { deletedMusicResponse, musicTrackResponse } from '#domain/schemas/music';
import { savedReactionResponse } from '#domain/schemas/reaction';
import { finishedVideoResponse } from '#domain/schemas/finished-video';
import { jobResponse, takeResponse } from '#domain/schemas/job';
import { videoBatchResponse } from '#domain/schemas/video-batch';
import { videoQuoteResponse } from '#domain/schemas/quote';
import { hookIdeasResponse } from '#domain/schemas/hooks';
import { uploadResponse } from '#domain/schemas/upload';
import { CREATED_AT, IDS, LINKS_EXPIRE_AT, UPDATED_AT, UPLOAD_ID, sample, signedLink } from './sample';
import { fileExpiry, retentionOfPlan } from '#domain/video-retention';

export const PRODUCT: z.output<typeof productResponse> = {
  id: IDS.product,
  name: 'Glow Serum',
  description: 'A vitamin C serum that fades dark spots in two weeks',
  demo_video: {
    status: 'ready',
    url: signedLink('demos/12/demo.mp4'),
    url_expires_at: LINKS_EXPIRE_AT,
    duration_s: 14.2,
    width: 1080,
    height: 1920,
    error: null,
  },
  reframe: null,
  demo_start_s: null,
  demo_end_s: null,
  test: false,
  created_at: CREATED_AT,
  updated_at: UPDATED_AT,
};

/** Just created from a link or an upload: the demo is being normalised in the background. */
export const PRODUCT_PROCESSING: z.output<typeof productResponse> = {
  ...PRODUCT,
  demo_video: { status: 'processing', url: null, url_expires_at: null, duration_s: null, width: null, height: null, error: null },
  updated_at: CREATED_AT,
};

export const PRODUCT_DEMO_FAILED: z.output<typeof productResponse> = {
  ...PRODUCT_PROCESSING,
  demo_video: {
    status: 'failed',
    url: null,
    url_expires_at: null,
    duration_s: null,
    width: null,
    height: null,
    error: { code: 'invalid_media', message: 'The demo video has no readable video stream' },
  },
  updated_at: UPDATED_AT,
};

export const AVATAR: z.output<typeof avatarResponse> = {
  id: IDS.avatar,
  stock: false,
  source: 'prompt',
  prompt: 'A woman in her twenties with curly hair, in a bright kitchen, looking into the camera',
  status: 'ready',
  image_url: signedLink('avatars/31/image.png'),
  image_url_expires_at: LINKS_EXPIRE_AT,
  width: 1024,
  height: 1024,
  error: null,
  test: false,
  created_at: CREATED_AT,
  updated_at: UPDATED_AT,
};

/** A hosted engine makes it in the background. */
export const AVATAR_PROCESSING: z.output<typeof avatarResponse> = {
  ...AVATAR,
  status: 'processing',
  image_url: null,
  image_url_expires_at: null,
  width: null,
  height: null,
  updated_at: CREATED_AT,
};

export const AVATAR_FAILED: z.output<typeof avatarResponse> = {
  ...AVATAR_PROCESSING,
  status: 'failed',
  error: { code: 'content_rejected', message: 'The image provider refused the prompt; describe the person differently' },
  updated_at: UPDATED_AT,
};

const MUSIC_TRACK: z.output<typeof musicTrackResponse> = {
  id: 'sunny-pop',
  name: 'Sunny Pop',
  mood: 'upbeat',
  bpm: 118,
  duration_s: 60,
  built_in: true,
  preview_url: '/api/v1/music/sunny-pop/audio',
  created_at: null,
};

export const OWN_MUSIC_TRACK: z.output<typeof musicTrackResponse> = {
  id: 't12',
  name: 'Brand jingle',
  mood: null,
  bpm: null,
  duration_s: 31.5,
  built_in: false,
  preview_url: '/api/v1/music/t12/audio',
  created_at: CREATED_AT,
};

const SAVED_REACTION: z.output<typeof savedReactionResponse> = {
  id: IDS.reaction,
  job_id: IDS.job,
  method: 'prompt',
  avatar_id: IDS.avatar,
  prompt: 'She gasps, then laughs in disbelief',
  clip_url: signedLink('reactions/7/clip.mp4'),
  clip_url_expires_at: LINKS_EXPIRE_AT,
  duration_s: 3.2,
  emotion: 'shocked',
  test: false,
  created_at: UPDATED_AT,
};

const VIDEO: z.output<typeof finishedVideoResponse> = {
  id: IDS.video,
  job_id: IDS.job,
  product_id: IDS.product,
  url: signedLink('videos/95/video.mp4'),
  url_expires_at: LINKS_EXPIRE_AT,
  download_url: signedLink('videos/95/video.mp4?download'),
  thumbnail_url: signedLink('videos/95/poster.jpg'),
  duration_s: 17.4,
  width: 1080,
  height: 1920,
  size_bytes: 8_412_330,
  test: false,
  // Made under the pro plan.
  expires_at: fileExpiry(new Date(UPDATED_AT), retentionOfPlan('pro').days).toISOString(),
  expired: false,
  created_at: UPDATED_AT,
};

/** Accepted a moment ago: waiting for its first step. */
export const JOB_QUEUED: z.output<typeof jobResponse> = {
  id: IDS.job,
  status: 'queued',
  stage: 'queued',
  progress: 0,
  queue_position: null,
  method: 'prompt',
  mode: 'preview',
  product_id: IDS.product,
  avatar_id: IDS.avatar,
  reaction_id: null,
  prompt: 'She gasps, then laughs in disbelief',
  video_source: null,
  reference_url: null,
  hook_text: 'I did not expect this to work',
  hook_position: 'top',
  hook_size: 'medium',
  hook_style: 'outline',
  hook_duration: 'reaction',
  sound: 'auto',
  music_id: null,
  voice_line: null,
  preview_url: null,
  preview_url_expires_at: null,
  preview_still_url: null,
  preview_expires_at: null,
  video_id: null,
  charged_units: 1,
  regenerations: 0,
  error: null,
  batch_id: null,
  test: false,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

/** A preview to approve or regenerate. */
export const JOB_PREVIEW_READY: z.output<typeof jobResponse> = {
  ...JOB_QUEUED,
  status: 'preview_ready',
  stage: 'awaiting_approval',
  progress: 70,
  preview_url: signedLink('jobs/481/preview-1.mp4'),
  preview_url_expires_at: LINKS_EXPIRE_AT,
  preview_still_url: signedLink('jobs/481/still-1.jpg'),
  preview_expires_at: '2026-12-02T12:01:42.000Z',
  updated_at: UPDATED_AT,
};

/** Approved: being composed with the demo. */
export const JOB_COMPOSING: z.output<typeof jobResponse> = {
  ...JOB_PREVIEW_READY,
  status: 'processing',
  stage: 'composing',
  progress: 80,
  preview_url: null,
  preview_url_expires_at: null,
  preview_still_url: null,
  preview_expires_at: null,
};

export const JOB_DONE: z.output<typeof jobResponse> = { ...JOB_COMPOSING, status: 'done', stage: 'done', progress: 100, video_id: IDS.video };

export const JOB_FAILED: z.output<typeof jobResponse> = {
  ...JOB_COMPOSING,
  status: 'failed',
  stage: 'failed',
  progress: 100,
  charged_units: 0,
  error: { code: 'generation_failed', message: 'The reaction could not be generated after retries; try again later' },
};

/** A take's `options`: the inputs of the job that made it, as the job shows them. */
function takeOptionsOf(job: z.output<typeof jobResponse>): z.output<typeof takeResponse>['options'] {
  const { prompt, avatar_id, video_source, reference_url, hook_text, hook_position, hook_size, hook_style, hook_duration, sound, music_id, voice_line } = job;
  return { prompt, avatar_id, video_source, reference_url, hook_text, hook_position, hook_size, hook_style, hook_duration, sound, music_id, voice_line };
}

const TAKE: z.output<typeof takeResponse> = {
  take: 1,
  current: true,
  preview_url: JOB_PREVIEW_READY.preview_url,
  preview_url_expires_at: LINKS_EXPIRE_AT,
  preview_still_url: JOB_PREVIEW_READY.preview_still_url,
  duration_s: 17.4,
  options: takeOptionsOf(JOB_QUEUED),
  created_at: UPDATED_AT,
};

const VIDEO_BATCH: z.output<typeof videoBatchResponse> = {
  id: IDS.batch,
  product_id: IDS.product,
  created_at: CREATED_AT,
  jobs: [
    { ...JOB_QUEUED, batch_id: IDS.batch },
    { ...JOB_QUEUED, id: IDS.job + 1, mode: 'auto', prompt: null, method: 'reuse', avatar_id: null, reaction_id: IDS.reaction, hook_text: 'POV: your skin after 14 days', batch_id: IDS.batch },
  ],
  counts: { queued: 2, processing: 0, preview_ready: 0, done: 0, failed: 0 },
};

const QUOTE: z.output<typeof videoQuoteResponse> = {
  valid: true,
  units: 1,
  allowance: { limit: 150, used: 41, reserved: 2, remaining: 107 },
  estimated_seconds: 95,
};

const HOOK_IDEAS: z.output<typeof hookIdeasResponse> = {
  product_id: IDS.product,
  hooks: [
    { text: 'POV: you finally found a serum that works', format: 'pov' },
    { text: 'Why did nobody tell me about this sooner?', format: 'question' },
    { text: 'I tried it for 14 days and this happened', format: 'curiosity_gap' },
  ],
};

const UPLOAD: z.output<typeof uploadResponse> = {
  id: UPLOAD_ID,
  purpose: 'demo_video',
  method: 'POST',
  url: 'https://uploads.reaction-studio.example/',
  fields: { key: `uploads/1/${UPLOAD_ID}`, 'Content-Type': 'video/mp4', Policy: 'eyJleHBpcmF0aW9uIjoi', 'X-Amz-Signature': '9b2e7f0c1a' },
  max_bytes: 48_000_000,
  expires_at: '2026-11-25T13:00:00.000Z',
};

export const MEDIA_SAMPLES = [
  sample(productResponse, PRODUCT),
  sample(avatarResponse, AVATAR),
  sample(musicTrackResponse, MUSIC_TRACK),
  sample(deletedMusicResponse, { id: OWN_MUSIC_TRACK.id, deleted: true }),
  sample(savedReactionResponse, SAVED_REACTION),
  sample(finishedVideoResponse, VIDEO),
  sample(jobResponse, JOB_PREVIEW_READY),
  sample(takeResponse, TAKE),
  sample(videoBatchResponse, VIDEO_BATCH),
  sample(videoQuoteResponse, QUOTE),
  sample(hookIdeasResponse, HOOK_IDEAS),
  sample(uploadResponse, UPLOAD),
];
