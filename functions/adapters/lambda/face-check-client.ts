/**
 * FaceFinder's clip questions for a function with ffmpeg but no face runtime (the videos function on
 * AWS; the render function under a hosted engine): it samples the clip's frames here (#render:
 * sampleReferenceFramesJpeg, sampleFaceBoxFramesJpeg) and asks the face-check function, synchronously,
 * whether any shows a face, or where the face's eyes-to-mouth box is (face-check-protocol.ts). Nothing
 * passes unseen: a throttle or a timeout is FaceCheckUnavailable, any other failure an error naming
 * what went wrong.
 */
import { InvokeCommand, LambdaClient, type InvokeCommandOutput } from '@aws-sdk/client-lambda';
import { requiredEnv } from '#functions/config';
import { FaceCheckUnavailable, type FaceFinder } from '#ports/face-finder';
import type { FrameBox } from '#domain/jobs';
import { sampleFaceBoxFramesJpeg, sampleReferenceFramesJpeg } from '#render';
import type * as z from 'zod/mini';
import {
  FACE_BOX_KIND,
  FACE_BOX_VERSION,
  FACE_CHECK_FUNCTION_ENV,
  faceBoxAnswer,
  faceCheckAnswer,
  type FaceBoxEvent,
  type FaceCheckEvent,
} from './face-check-protocol';

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

/** What the function's answer says (read with `answer`), or the error its FunctionError or a malformed answer is. */
function answerOf<S extends typeof faceCheckAnswer | typeof faceBoxAnswer>(output: InvokeCommandOutput, name: string, answer: S): Exclude<z.infer<S>, { error: unknown }> {
  const text = output.Payload ? Buffer.from(output.Payload).toString('utf8') : '';
  if (output.FunctionError) {
    const failure = safeJson(text) as { errorType?: string; errorMessage?: string } | undefined;
    const detail = `${output.FunctionError}: ${failure?.errorType ?? 'Error'}: ${failure?.errorMessage ?? text.slice(0, 500)}`;
    if (failure?.errorType === 'Sandbox.Timedout' || /task timed out/i.test(failure?.errorMessage ?? '')) {
      throw new FaceCheckUnavailable(`the face-check function ${name} timed out (${detail})`);
    }
    throw new Error(`the face-check function ${name} failed (${detail})`);
  }
  const parsed = answer.safeParse(safeJson(text));
  if (!parsed.success) throw new Error(`the face-check function ${name} answered outside its contract: ${text.slice(0, 500)}`);
  const data: object = parsed.data;
  if ('error' in parsed.data) throw new Error(`the face-check function ${name} refused the frames (${parsed.data.error.code}: ${parsed.data.error.message})`);
  return data as Exclude<z.infer<S>, { error: unknown }>;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function lambdaClipFaces(options: LambdaClipFacesOptions = {}): Pick<FaceFinder, 'clipShowsFace' | 'faceBoxInClip'> {
  let client = options.client;
  const functionName = options.functionName ?? (() => requiredEnv(FACE_CHECK_FUNCTION_ENV));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  async function invoke(event: FaceCheckEvent | FaceBoxEvent): Promise<{ output: InvokeCommandOutput; name: string }> {
    const name = functionName();
    client ??= new LambdaClient({});
    try {
      const output = await client.send(
        new InvokeCommand({ FunctionName: name, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(event)) }),
        { abortSignal: AbortSignal.timeout(timeoutMs) },
      );
      return { output, name };
    } catch (cause) {
      throw callFailure(cause, name);
    }
  }
  return {
    async clipShowsFace(path) {
      const frames = await sampleReferenceFramesJpeg(path);
      // No frame decoded is no face seen, as the local check answers it; nothing to ask.
      if (frames.length === 0) return false;
      const { output, name } = await invoke({ frames: frames.map((jpeg) => jpeg.toString('base64')) });
      return answerOf(output, name, faceCheckAnswer).face;
    },
    async faceBoxInClip(path) {
      const sampled = await sampleFaceBoxFramesJpeg(path);
      if (sampled.frames.length === 0) return null;
      const event: FaceBoxEvent = { kind: FACE_BOX_KIND, version: FACE_BOX_VERSION, frames: sampled.frames.map((jpeg) => jpeg.toString('base64')) };
      const { output, name } = await invoke(event);
      const { box } = answerOf(output, name, faceBoxAnswer);
      return box && inClip(box, sampled);
    },
  };
}

/** A box in the sampled frames' pixels as one in the clip's, rounded outwards and kept inside it. */
function inClip(box: FrameBox, sampled: { width: number; clip: { width: number; height: number } }): FrameBox {
  const { floor, ceil, max, min } = Math;
  const k = sampled.clip.width / sampled.width;
  const x = max(0, floor(box.x * k)), y = max(0, floor(box.y * k));
  return { x, y, width: min(sampled.clip.width, ceil((box.x + box.width) * k)) - x, height: min(sampled.clip.height, ceil((box.y + box.height) * k)) - y };
}
