/**
 * What the videos function sends the face-check function and what it answers, on AWS: the frames a
 * motion reference is judged on (#render: sampleReferenceFramesJpeg), as base64 JPEGs, and whether any
 * shows a face. Both sides read it here: the Lambda adapter of FaceFinder.clipShowsFace
 * (face-check-client.ts) and the function's handler (functions/handlers/face-check.ts).
 */
import { z } from 'zod';

/** The variable holding the face-check function's name, set by the stack for the functions that call it. */
export const FACE_CHECK_FUNCTION_ENV = 'FACE_CHECK_FUNCTION_NAME';

/** What one event may carry: the check's ten frames of about 11 KB each, with room to spare. */
export const FACE_CHECK_LIMITS = { maxFrames: 20, maxFrameBytes: 200 * 1024 } as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const { ceil } = Math;

const frame = z
  .string()
  // Bounded before it is decoded: 4 characters for every 3 bytes.
  .max(ceil(FACE_CHECK_LIMITS.maxFrameBytes / 3) * 4, `a frame is at most ${FACE_CHECK_LIMITS.maxFrameBytes} bytes`)
  .regex(BASE64, 'a frame is base64')
  .transform((text) => Buffer.from(text, 'base64'))
  .refine((bytes) => bytes.length > 0 && bytes.length <= FACE_CHECK_LIMITS.maxFrameBytes, `a frame is 1 to ${FACE_CHECK_LIMITS.maxFrameBytes} bytes`);

/** The event: `{frames: [base64 JPEG, ...]}`, 1 to 20 frames in clip order, each at most 200 KB decoded. */
export const faceCheckEvent = z.strictObject({
  frames: z.array(frame).min(1, 'at least one frame').max(FACE_CHECK_LIMITS.maxFrames, `at most ${FACE_CHECK_LIMITS.maxFrames} frames`),
});

export type FaceCheckEvent = z.input<typeof faceCheckEvent>;

/**
 * The answer: whether a face shows, or why the event was not looked at (`invalid_event`: not the
 * shape above; `invalid_frame`: a frame that is not a decodable JPEG). A failure of the function
 * itself (the face runtime, a timeout) is Lambda's FunctionError, not an answer.
 */
export const faceCheckAnswer = z.union([
  z.strictObject({ face: z.boolean() }),
  z.strictObject({ error: z.strictObject({ code: z.enum(['invalid_event', 'invalid_frame']), message: z.string() }) }),
]);

export type FaceCheckAnswer = z.infer<typeof faceCheckAnswer>;
