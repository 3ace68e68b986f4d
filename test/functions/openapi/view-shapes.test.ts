/**
 * Each view function answers exactly the shape its response schema documents. At compile time: the
 * same keys, and every value the view's type allows is one the schema accepts (a field added to a
 * view and not to its schema, or the other way round, fails `tsc`). At run time: views of sample
 * records parse.
 */
import * as z from 'zod/mini';
import { productView, type ProductView } from '#domain/product';
import { avatarView, type AvatarView } from '#domain/avatar';
import { videoView, type VideoView } from '#domain/video';
import { savedReactionView, type SavedReactionView } from '#domain/reaction';
import { jobView, type Job, type JobView } from '#domain/jobs';
import type { ConnectionView, channelView } from '#domain/social';
import type { PostView } from '#domain/social-post';
import type { AnalyticsOverview } from '#domain/analytics';
import { productResponse } from '#domain/schemas/product';
import { avatarResponse } from '#domain/schemas/avatar';
import { finishedVideoResponse } from '#domain/schemas/finished-video';
import { savedReactionResponse } from '#domain/schemas/reaction';
import { jobResponse } from '#domain/schemas/job';
import type { connectionResponse, postResponse } from '#domain/schemas/social';
import type { analyticsOverviewResponse } from '#domain/schemas/analytics';

type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type Answers<View, Schema extends z.ZodMiniType> = View extends z.output<Schema> ? SameKeys<View, z.output<Schema>> : false;

type ViewShapesMatch = [
  Answers<ProductView, typeof productResponse>,
  Answers<AvatarView, typeof avatarResponse>,
  Answers<VideoView, typeof finishedVideoResponse>,
  Answers<SavedReactionView, typeof savedReactionResponse>,
  Answers<JobView, typeof jobResponse>,
  // connectionView fills `channels` with channelView (a Platform each); ConnectionView declares them wider.
  Answers<Omit<ConnectionView, 'channels'> & { channels: ReturnType<typeof channelView>[] }, typeof connectionResponse>,
  Answers<PostView, typeof postResponse>,
  Answers<AnalyticsOverview, typeof analyticsOverviewResponse>,
];

const at = '2026-11-25T12:00:00.000Z';
const link = { url: 'https://bucket.example/object?X-Amz-Signature=abc', expiresAt: at };

describe('views answer their documented schemas', () => {
  test('every view type matches its schema (checked by tsc)', () => {
    const matches: ViewShapesMatch = [true, true, true, true, true, true, true, true];
    expect(matches.every(Boolean)).toBe(true);
  });

  test('views of sample records parse', () => {
    const product = { id: 1, account_id: 2, name: 'Serum', description: null, created_at: at, updated_at: at };
    expect(productResponse.safeParse(productView({ ...product, demo: null })).success).toBe(true);
    expect(productResponse.safeParse(productView({ ...product, demo: { status: 'ready', original_key: 'k', key: 'k2', duration_s: 8.5, width: 1080, height: 1920 } }, link)).success).toBe(true);
    const avatar = { id: 3, account_id: 2, source: 'prompt', prompt: 'a smiling chef', status: 'ready', image_key: 'k', width: 1024, height: 1024, engine: 'local', seed: 7, error: null, created_at: at, updated_at: at } as const;
    expect(avatarResponse.safeParse(avatarView(avatar, link)).success).toBe(true);
    const video = { id: 4, account_id: 2, job_id: 5, product_id: 1, key: 'v', poster_key: 'p', duration_s: 12, width: 1080, height: 1920, size_bytes: 1000, created_at: at };
    expect(finishedVideoResponse.safeParse(videoView(video, link, link, link, new Date(at))).success).toBe(true);
    const kept = { ...video, retention_days: 30, file_expires_at: '2026-12-26T00:00:00.000Z' };
    expect(finishedVideoResponse.safeParse(videoView(kept, link, link, link, new Date(at))).success).toBe(true);
    const reaction = { id: 6, account_id: 2, job_id: 5, method: 'prompt', avatar_id: null, prompt: 'wow', clip_key: 'c', duration_s: 3, emotion: 'shocked', created_at: at } as const;
    expect(savedReactionResponse.safeParse(savedReactionView(reaction, link)).success).toBe(true);
    const job: Job = {
      id: 5, account_id: 2, status: 'preview_ready', stage: 'awaiting_approval', progress: 70, method: 'prompt', mode: 'preview', product_id: 1,
      avatar_id: null, reaction_id: null, prompt: 'wow', video_source: null, reference_url: null, reference_key: null, hook_text: 'Wait',
      hook_position: 'top', hook_size: 'medium', seed: 1, regenerations: 0, charged_units: 1, reaction: null, preview: null,
      preview_expires_at: at, video_id: null, error: null, queue_position: null, created_at: at, updated_at: at,
    };
    expect(jobResponse.safeParse(jobView(job, link)).success).toBe(true);
  });
});
