/** How large each kind of upload may be: the API promises these sizes, the route table sizes bodies by them. */
const MB = 1024 * 1024;

export const DEMO_VIDEO_MAX_BYTES = 50 * MB;
export const AVATAR_UPLOAD_MAX_BYTES = 10 * MB;
/** An uploaded motion reference (method=motion, video_source=upload): the same cap as a linked one. */
export const REFERENCE_VIDEO_MAX_BYTES = 100 * MB;
/** An account's own music track (POST /music): ten minutes of a lossless FLAC or a high-rate MP3 fit. */
export const MUSIC_MAX_BYTES = 20 * MB;
/**
 * On AWS a request body reaches the function inside a 6 MB Lambda invocation, base64-encoded (4/3 of
 * its size) beside the event's headers: about 4.4 MB of file. The API functions take multipart bodies
 * up to this much and answer past it with a 413 that points to POST /uploads (locally, unset: the sizes
 * above). Past about 4.4 MB the platform refuses the request before any function runs.
 */
export const AWS_INLINE_UPLOAD_MAX_BYTES = 4 * MB;
