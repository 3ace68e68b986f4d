/**
 * fal.ai HTTP failures as EngineErrors. fal answers validation failures with 4xx (typically 422)
 * and `detail: [{loc, msg, type}]`, infrastructure failures with `{detail: string, error_type}` and
 * an `X-Fal-Error-Type` header (fal's documented error contract). Messages name the input in the user's terms
 * (the prompt, the avatar image, the reference clip) and keep the provider's own words, shortened.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { EngineError } from '#ports/engine';

/**
 * zod's English messages ("Invalid input: expected string, received undefined"), which zod/mini
 * does not load by itself: passed per parse so contract failures read as they always did.
 */
export const ENGLISH_ERRORS: z.core.$ZodErrorMap = en().localeError;

const DetailItem = z.looseObject({
  loc: z.optional(z.array(z.union([z.string(), z.number()]))),
  msg: z.optional(z.string()),
  type: z.optional(z.string()),
});

const ErrorBody = z.looseObject({
  detail: z.optional(z.union([z.array(DetailItem), z.string()])),
  error_type: z.optional(z.string()),
});

type DetailEntry = z.infer<typeof DetailItem>;

/** Our request fields as a user knows them. */
const FIELD_NAMES: Record<string, string> = {
  prompt: 'the prompt',
  negative_prompt: 'the prompt',
  image_url: 'the avatar image',
  start_image_url: 'the avatar image',
  video_url: 'the reference clip',
  image_size: 'the image size',
  duration: 'the clip length',
};

const SAFETY_TYPE = /content_policy|nsfw|safety|moderation/i;
const SAFETY_MSG = /content (policy|checker|filter)|safety|flagged|nsfw|inappropriate|not allowed content|sensitive/i;
const MAX_SUMMARY = 240;

function shorten(text: string, max = MAX_SUMMARY): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function fieldOf(entry: DetailEntry): string | undefined {
  const path = (entry.loc ?? []).filter((p) => p !== 'body').map(String);
  const leaf = path.find((p) => FIELD_NAMES[p]) ?? path[0];
  return leaf === undefined ? undefined : (FIELD_NAMES[leaf] ?? leaf);
}

function isSafety(entry: DetailEntry): boolean {
  return SAFETY_TYPE.test(entry.type ?? '') || SAFETY_MSG.test(entry.msg ?? '');
}

/** "the prompt: <msg>; the avatar image: <msg>", deduplicated and shortened. */
function summariseDetail(entries: readonly DetailEntry[]): string {
  const parts = new Set<string>();
  for (const entry of entries) {
    const field = fieldOf(entry);
    const msg = entry.msg?.trim() || entry.type || 'refused';
    parts.add(field ? `${field}: ${msg}` : msg);
  }
  return shorten([...parts].join('; '));
}

function parseBody(text: string): z.infer<typeof ErrorBody> | undefined {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface FalHttpFailure {
  status: number;
  headers: Headers;
  bodyText: string;
  /** "submit", "status", "result", "result download". */
  describe: string;
}

/** The EngineError for a non-2xx fal answer (after retries, where retries applied). */
export function falHttpError({ status, headers, bodyText, describe }: FalHttpFailure): EngineError {
  const body = parseBody(bodyText);
  const errorType = headers.get('x-fal-error-type') ?? body?.error_type;
  const detail = body?.detail;
  const where = `fal ${describe} answered HTTP ${status}${errorType ? ` (${errorType})` : ''}`;

  if (status === 401 || status === 403) {
    return new EngineError('provider_auth', `fal.ai refused our API key (${where}): check FAL_KEY or the key secret`);
  }
  if (status === 429 || status === 408 || status >= 500) {
    const reason = typeof detail === 'string' ? `: ${shorten(detail, 160)}` : '';
    return new EngineError('provider_unavailable', `The generation provider is busy or down (${where}${reason}); retry later`);
  }
  if (Array.isArray(detail) && detail.length > 0) {
    const summary = summariseDetail(detail);
    if (detail.some(isSafety)) {
      return new EngineError('content_rejected', `flagged by the provider's safety filter (${summary}); try a different prompt or image`);
    }
    return new EngineError('invalid_input', `The generation provider could not use the input (${summary})`);
  }
  if ((status === 400 || status === 422) && typeof detail === 'string') {
    if (SAFETY_MSG.test(detail) || SAFETY_TYPE.test(errorType ?? '')) {
      return new EngineError('content_rejected', `flagged by the provider's safety filter (${shorten(detail)}); try a different prompt or image`);
    }
    return new EngineError('invalid_input', `The generation provider could not use the input (${shorten(detail)})`);
  }
  const reason = typeof detail === 'string' ? `: ${shorten(detail, 160)}` : '';
  return new EngineError('provider_error', `Unexpected answer from the generation provider (${where}${reason})`);
}

/** Turns a zod failure into a provider_error that says which fields broke the contract. */
export function contractError(describe: string, issues: z.core.$ZodError | string): EngineError {
  const text = typeof issues === 'string' ? issues : issues.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  return new EngineError('provider_error', `The generation provider's ${describe} answer broke its contract (${shorten(text, 200)})`);
}
