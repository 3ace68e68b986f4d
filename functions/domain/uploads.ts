/** How large each kind of upload may be: the API promises these sizes, the route table sizes bodies by them. */
const MB = 1024 * 1024;

export const DEMO_VIDEO_MAX_BYTES = 50 * MB;
export const AVATAR_UPLOAD_MAX_BYTES = 10 * MB;
/** An uploaded motion reference (method=motion, video_source=upload): the same cap as a linked one. */
export const REFERENCE_VIDEO_MAX_BYTES = 100 * MB;
