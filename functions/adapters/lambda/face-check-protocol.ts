/**
 * What the functions without a face runtime send the face-check function and what it answers, on AWS.
 * Two kinds of request, both frames of one clip as base64 JPEGs:
 *
 * - the first (no `kind`, kept as it was for callers deployed before the second): the frames a motion
 *   reference is judged on (#render: sampleReferenceFramesJpeg), answered with whether any shows a face
 *   (the videos function, FaceFinder.clipShowsFace);
 * - `{kind: 'face_box', version: 1}`: frames sampled across a generated reaction
 *   (#render: sampleFaceBoxFramesJpeg), answered with the eyes-to-mouth box over them in the frames'
 *   pixels, or null (the render function with a hosted engine, FaceFinder.faceBoxInClip).
 *
 * Both sides read it here: the Lambda adapter of the FaceFinder (face-check-client.ts) and the
 * function's handler (functions/handlers/face-check.ts).
 */
// zod/mini with the English messages only: the classic API with every locale is about 450 KB in the videos bundle.
import * as z from 'zod/mini';
import { en } from 'zod/locales';

/** The variable holding the face-check function's name, set by the stack for the functions that call it. */
export const FACE_CHECK_FUNCTION_ENV = 'FACE_CHECK_FUNCTION_NAME';

/** What one event may carry: the check's ten frames of about 11 KB each, with room to spare. */
export const FACE_CHECK_LIMITS = { maxFrames: 20, maxFrameBytes: 200 * 1024 } as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const { ceil } = Math;

const ENGLISH_ERRORS: z.core.$ZodErrorMap = en().localeError;

const frame = z.pipe(
  z.string().check(
    // Bounded before it is decoded: 4 characters for every 3 bytes.
    z.maxLength(ceil(FACE_CHECK_LIMITS.maxFrameBytes / 3) * 4, `a frame is at most ${FACE_CHECK_LIMITS.maxFrameBytes} bytes`),
    z.regex(BASE64, 'a frame is base64'),
  ),
  z.transform((text: string, ctx): Buffer => {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === 0 || bytes.length > FACE_CHECK_LIMITS.maxFrameBytes) {
      ctx.issues.push({ code: 'custom', message: `a frame is 1 to ${FACE_CHECK_LIMITS.maxFrameBytes} bytes`, input: text });
    }
    return bytes;
  }),
);
const frames = z.array(frame).check(z.minLength(1, 'at least one frame'), z.maxLength(FACE_CHECK_LIMITS.maxFrames, `at most ${FACE_CHECK_LIMITS.maxFrames} frames`));

/** The event: `{frames: [base64 JPEG, ...]}`, 1 to 20 frames in clip order, each at most 200 KB decoded. */
const faceCheckEvent = z.strictObject({ frames });

export type FaceCheckEvent = z.input<typeof faceCheckEvent>;

/** The `kind` of a face-box request, and the only version of it there is. */
export const FACE_BOX_KIND = 'face_box';
export const FACE_BOX_VERSION = 1;

/**
 * `{kind: 'face_box', version: 1, frames: [base64 JPEG, ...]}`: 1 to 20 frames of one clip at one
 * size, in clip order. A later version is refused by name, not guessed at.
 */
const faceBoxEvent = z.strictObject({
  kind: z.literal(FACE_BOX_KIND),
  version: z.literal(FACE_BOX_VERSION, `the only version is ${FACE_BOX_VERSION}`),
  frames,
});

export type FaceBoxEvent = z.input<typeof faceBoxEvent>;

/**
 * Which request an event is: one that names a `kind` is read as that kind (and refused if it is none
 * we know), anything else as the first request, so a caller of the first kind sees the errors it saw.
 */
export function parseFaceCheckRequest(event: unknown) {
  if (event !== null && typeof event === 'object' && !Array.isArray(event) && 'kind' in event) {
    return z.discriminatedUnion('kind', [faceBoxEvent], { error: `one of "${FACE_BOX_KIND}"` }).safeParse(event, { error: ENGLISH_ERRORS });
  }
  return faceCheckEvent.safeParse(event, { error: ENGLISH_ERRORS });
}

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

const pixels = z.int().check(z.nonnegative());

/**
 * The answer to a face-box request: the eyes-to-mouth box over the frames, in their pixels (whole,
 * inside the frame), `null` when no frame shows a face; or an error answer as above.
 */
export const faceBoxAnswer = z.union([
  z.strictObject({ box: z.nullable(z.strictObject({ x: pixels, y: pixels, width: pixels, height: pixels })) }),
  z.strictObject({ error: z.strictObject({ code: z.enum(['invalid_event', 'invalid_frame']), message: z.string() }) }),
]);

export type FaceBoxAnswer = z.infer<typeof faceBoxAnswer>;
