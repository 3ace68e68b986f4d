/**
 * POST /videos as the API takes it: which fields a method needs, and which it refuses
 * (docs/decisions.md, Video jobs). Written here because the OpenAPI document describes the body as
 * one flat object (the per-method rules are checked after parsing, so a 400 can name the field);
 * the field types still come from the generated document.
 */
import type { FileInput } from './files.js';
import type { paths } from './types.js';

type Body = NonNullable<paths['/videos']['post']['requestBody']>['content']['application/json'];
type MethodField = 'method' | 'prompt' | 'avatar_id' | 'video_source' | 'reference_url' | 'reference_video_upload_id' | 'reaction_id';
/** Fields every method takes: the product, the mode, the caption, the sound. */
type Common = Omit<Body, MethodField>;
/** Another method's fields, refused at compile time as the API refuses them at run time. */
type Without<K extends MethodField | 'referenceVideo' | 'voice_line'> = { [P in K]?: never };

type Prompt = Common & { method: 'prompt'; prompt: string; avatar_id?: number } & Without<'video_source' | 'reference_url' | 'reference_video_upload_id' | 'reaction_id' | 'referenceVideo'>;

type MotionBase = Common & { method: 'motion'; avatar_id: number } & Without<'prompt' | 'reaction_id'>;
/** A clip on an allowed short-video host, fetched and checked by the API. */
type MotionLink = MotionBase & { video_source: 'link'; reference_url: string } & Without<'reference_video_upload_id' | 'referenceVideo'>;
/** A clip already sent to storage (`uploadFile('reference_video', ...)`). */
type MotionUploadId = MotionBase & { video_source: 'upload'; reference_video_upload_id: string } & Without<'reference_url' | 'referenceVideo'>;
/** A clip sent with the request as multipart (`video_source: 'upload'` is then implied). */
type MotionFile = MotionBase & { video_source?: 'upload'; referenceVideo: FileInput } & Without<'reference_url' | 'reference_video_upload_id'>;

/** A saved reaction replayed as it is: no new voice line. */
type Reuse = Common & { method: 'reuse'; reaction_id: number } & Without<'prompt' | 'avatar_id' | 'video_source' | 'reference_url' | 'reference_video_upload_id' | 'referenceVideo' | 'voice_line'>;

export type CreateVideoJobInput = (Prompt | MotionLink | MotionUploadId | MotionFile | Reuse) & {
  /** Sent as Idempotency-Key; a UUID is made when left out. Pass your own to dedupe across processes. */
  idempotencyKey?: string;
};
