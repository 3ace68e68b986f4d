/**
 * The face-check function: invoked synchronously by the videos function on AWS, which has ffmpeg but no
 * room for the face runtime, with the frames of a motion reference it sampled (face-check-protocol.ts).
 * It decodes them with sharp (the native-modules layer) and asks human (the face-runtime layer) as the
 * local check does (#render: framesShowFace). A malformed event or frame is an error answer, never a
 * throw; only the face runtime failing (or Lambda's timeout) fails the invocation.
 */
import { isEngineError } from '#ports/engine';
import { framesShowFace } from '#render';
import { logger, withLambdaContext } from '#functions/logger';
import { faceCheckEvent, type FaceCheckAnswer } from '#adapters/lambda/face-check-protocol';

export async function checkFrames(event: unknown): Promise<FaceCheckAnswer> {
  const parsed = faceCheckEvent.safeParse(event);
  if (!parsed.success) {
    // The first problem of each field: zod goes on checking a value of the wrong type (a 25-character string against the frame count).
    const byField = new Map<string, string>();
    for (const issue of parsed.error.issues) if (!byField.has(issue.path.join('.'))) byField.set(issue.path.join('.'), issue.message);
    const message = [...byField].map(([field, problem]) => `${field || 'event'}: ${problem}`).join('; ');
    const answer = { error: { code: 'invalid_event', message } } as const;
    logger.warn('face check refused its event', answer.error);
    return answer;
  }
  try {
    return { face: await framesShowFace(parsed.data.frames) };
  } catch (error) {
    if (!isEngineError(error) || error.code !== 'invalid_input') throw error;
    logger.warn('face check refused a frame', { message: error.message });
    return { error: { code: 'invalid_frame', message: error.message } };
  }
}

export const handler = withLambdaContext(checkFrames);
