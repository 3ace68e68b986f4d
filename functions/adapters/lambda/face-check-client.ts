/**
 * FaceFinder.clipShowsFace for a function with ffmpeg but no face runtime (the videos function on AWS):
 * it samples the clip's frames here (#render: sampleReferenceFramesJpeg) and asks the face-check
 * function, synchronously, whether any shows a face (face-check-protocol.ts). Nothing passes unseen:
 * a throttle or a timeout is FaceCheckUnavailable, any other failure an error naming what went wrong.
 */
import { InvokeCommand, LambdaClient, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { requiredEnv } from '#functions/config';
import { FaceCheckUnavailable, type FaceFinder } from '#ports/face-finder';
import { sampleReferenceFramesJpeg } from '#render';
import { FACE_CHECK_FUNCTION_ENV, faceCheckAnswer, type FaceCheckEvent } from './face-check-protocol';

export interface LambdaClipFacesOptions {
  client?: LambdaClient;
  /** The face-check function's name; by default FACE_CHECK_FUNCTION_NAME, read when a clip is checked. */
  functionName?: () => string;
  /** How long one check may wait for its answer: past the function's own timeout (lib/cloud/function-sizes.ts), under the API's 29 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Errors of the call itself that say "not now" rather than "wrong": Lambda's throttles, a service fault, our own deadline. */
const UNAVAILABLE_ERRORS = new Set(['TooManyRequestsException', 'EC2ThrottledException', 'ServiceException', 'ResourceNotReadyException', 'AbortError', 'TimeoutError']);

function callFailure(cause: unknown, name: string): Error {
  const error = cause as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = error.$metadata?.httpStatusCode ?? 0;
  const detail = `${error.name ?? 'Error'}: ${error.message ?? String(cause)}`;
  if (UNAVAILABLE_ERRORS.has(error.name ?? '') || status === 429 || status >= 500) {
    return new FaceCheckUnavailable(`the face-check function ${name} could not answer now (${detail})`, { cause });
  }
  return new Error(`the face-check function ${name} could not be invoked (${detail})`, { cause });
}

/** What the function's answer says, or the error its FunctionError or a malformed answer is. */
function answerOf(output: InvokeCommandOutput, name: string): boolean {
  const text = output.Payload ? Buffer.from(output.Payload).toString('utf8') : '';
  if (output.FunctionError) {
    const failure = safeJson(text) as { errorType?: string; errorMessage?: string } | undefined;
    const detail = `${output.FunctionError}: ${failure?.errorType ?? 'Error'}: ${failure?.errorMessage ?? text.slice(0, 500)}`;
    if (failure?.errorType === 'Sandbox.Timedout' || /task timed out/i.test(failure?.errorMessage ?? '')) {
      throw new FaceCheckUnavailable(`the face-check function ${name} timed out (${detail})`);
    }
    throw new Error(`the face-check function ${name} failed (${detail})`);
  }
  const parsed = faceCheckAnswer.safeParse(safeJson(text));
  if (!parsed.success) throw new Error(`the face-check function ${name} answered outside its contract: ${text.slice(0, 500)}`);
  if ('error' in parsed.data) throw new Error(`the face-check function ${name} refused the frames (${parsed.data.error.code}: ${parsed.data.error.message})`);
  return parsed.data.face;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function lambdaClipFaces(options: LambdaClipFacesOptions = {}): Pick<FaceFinder, 'clipShowsFace'> {
  let client = options.client;
  const functionName = options.functionName ?? (() => requiredEnv(FACE_CHECK_FUNCTION_ENV));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async clipShowsFace(path) {
      const frames = await sampleReferenceFramesJpeg(path);
      // No frame decoded is no face seen, as the local check answers it; nothing to ask.
      if (frames.length === 0) return false;
      const name = functionName();
      const event: FaceCheckEvent = { frames: frames.map((jpeg) => jpeg.toString('base64')) };
      client ??= new LambdaClient({});
      let output: InvokeCommandOutput;
      try {
        output = await client.send(
          new InvokeCommand({ FunctionName: name, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(event)) }),
          { abortSignal: AbortSignal.timeout(timeoutMs) },
        );
      } catch (cause) {
        throw callFailure(cause, name);
      }
      return answerOf(output, name);
    },
  };
}
