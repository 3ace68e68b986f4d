/**
 * POST /videos as the API takes it: the generated body is one shape per method (the document's oneOf
 * on `method`); here a motion job is narrowed further by where its clip comes from, and each shape
 * refuses the others' fields at compile time, as the API refuses them at run time
 * (docs/decisions.md, Video jobs).
 */
import type { FileInput } from './files.js';
import type { paths } from './types.js';

type Body = NonNullable<paths['/videos']['post']['requestBody']>['content']['application/json'];
/** The shape the document gives one method. */
type Of<M extends Body['method']> = Extract<Body, { method: M }>;
type MethodField = 'prompt' | 'avatar_id' | 'video_source' | 'reference_url' | 'reference_video_upload_id' | 'reaction_id';
/** Another method's fields, refused at compile time as the API refuses them at run time. */
type Without<K extends MethodField | 'referenceVideo' | 'voice_line'> = { [P in K]?: never };

type Prompt = Of<'prompt'> & Without<'video_source' | 'reference_url' | 'reference_video_upload_id' | 'reaction_id' | 'referenceVideo'>;

type MotionBase = Omit<Of<'motion'>, 'video_source' | 'reference_url' | 'reference_video_upload_id'> & Without<'prompt' | 'reaction_id'>;
/** A clip on an allowed short-video host, fetched and checked by the API. */
type MotionLink = MotionBase & { video_source: 'link'; reference_url: string } & Without<'reference_video_upload_id' | 'referenceVideo'>;
/** A clip already sent to storage (`uploadFile('reference_video', ...)`). */
type MotionUploadId = MotionBase & { video_source: 'upload'; reference_video_upload_id: string } & Without<'reference_url' | 'referenceVideo'>;
/** A clip sent with the request as multipart (`video_source: 'upload'` is then implied). */
type MotionFile = MotionBase & { video_source?: 'upload'; referenceVideo: FileInput } & Without<'reference_url' | 'reference_video_upload_id'>;

/** A saved reaction replayed as it is: no new voice line. */
type Reuse = Of<'reuse'> & Without<'prompt' | 'avatar_id' | 'video_source' | 'reference_url' | 'reference_video_upload_id' | 'referenceVideo' | 'voice_line'>;

export type CreateVideoJobInput = (Prompt | MotionLink | MotionUploadId | MotionFile | Reuse) & {
  /** Sent as Idempotency-Key; a UUID is made when left out. Pass your own to dedupe across processes. */
  idempotencyKey?: string;
};
