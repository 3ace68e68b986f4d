/**
 * Compile-time proof that each view function answers exactly the shape its response schema
 * documents: same keys, and every value the view can produce is one the schema accepts. A field
 * added to a view and not to its schema (or the other way round) fails `tsc`.
 */
import type * as z from 'zod/mini';
import type { ProductView } from '#domain/product';
import type { AvatarView } from '#domain/avatar';
import type { VideoView } from '#domain/video';
import type { SavedReactionView } from '#domain/reaction';
import type { JobView } from '#domain/jobs';
import type { ConnectionView, channelView } from '#domain/social';
import type { PostView } from '#domain/social-post';
import type { AnalyticsOverview } from '#domain/analytics';
import type { productResponse } from '#domain/schemas/product';
import type { avatarResponse } from '#domain/schemas/avatar';
import type { finishedVideoResponse } from '#domain/schemas/finished-video';
import type { savedReactionResponse } from '#domain/schemas/reaction';
import type { jobResponse } from '#domain/schemas/job';
import type { connectionResponse, postResponse } from '#domain/schemas/social';
import type { analyticsOverviewResponse } from '#domain/schemas/analytics';

type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
type Answers<View, Schema extends z.ZodMiniType> = View extends z.output<Schema> ? SameKeys<View, z.output<Schema>> : false;

/** Each entry must be `true`. */
export type ViewShapesMatch = [
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

const check: ViewShapesMatch = [true, true, true, true, true, true, true, true];
void check;
