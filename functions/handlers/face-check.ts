/**
 * The face-check function: invoked synchronously by the functions that have no face runtime on AWS
 * (face-check-protocol.ts): the videos function, with the frames of a motion reference it sampled
 * (does any show a face?), and the render function under a hosted engine, with frames sampled across a
 * generated reaction (where is the face's eyes-to-mouth box?). It decodes them with sharp (the
 * native-modules layer) and asks human (the face-runtime layer) as the local checks do (#render:
 * framesShowFace, faceBoxInFrames). A malformed event or frame is an error answer, never a throw;
 * only the face runtime failing (or Lambda's timeout) fails the invocation.
 */
import { isEngineError } from '#ports/engine';
import { faceBoxInFrames, framesShowFace } from '#render';
import { logger, withLambdaContext } from '#functions/logger';
import { parseFaceCheckRequest, type FaceBoxAnswer, type FaceCheckAnswer } from '#adapters/lambda/face-check-protocol';

export async function checkFrames(event: unknown): Promise<FaceCheckAnswer | FaceBoxAnswer> {
  const parsed = parseFaceCheckRequest(event);
  if (!parsed.success) {
    // The first problem of each field: zod goes on checking a value of the wrong type (a 25-character string against the frame count).
    const byField = new Map<string, string>();
    for (const issue of parsed.error.issues) if (!byField.has(issue.path.join('.'))) byField.set(issue.path.join('.'), issue.message);
    const message = [...byField].map(([field, problem]) => `${field || 'event'}: ${problem}`).join('; ');
    const answer = { error: { code: 'invalid_event', message } } as const;
    logger.warn('face check refused its event', answer.error);
    return answer;
  }
  const request = parsed.data;
  try {
    return 'kind' in request ? { box: await faceBoxInFrames(request.frames) } : { face: await framesShowFace(request.frames) };
  } catch (error) {
    if (!isEngineError(error) || error.code !== 'invalid_input') throw error;
    logger.warn('face check refused a frame', { message: error.message });
    return { error: { code: 'invalid_frame', message: error.message } };
  }
}

export const handler = withLambdaContext(checkFrames);
