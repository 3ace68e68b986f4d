/**
 * Every answer of the API is JSON (or bodiless). Anything else means the request reached something
 * that is not the API, most often a `baseUrl` without `/api/v1` (the studio's HTML is served there),
 * which openapi-fetch would report only as a JSON parse error ("Unexpected token '<'").
 */
import type { Middleware } from 'openapi-fetch';

/** A body that is not JSON where the API answers JSON: the request went somewhere else. */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  constructor(
    message: string,
    readonly status: number,
    /** The answer's Content-Type, or null when it had none. */
    readonly contentType: string | null,
    /** What was asked: `GET http://host/videos`. */
    readonly request: { method: string; url: string },
  ) {
    super(message);
  }
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;
/** Statuses another server (or a wrong prefix) answers with its own page; other failures stay ApiErrors with their status. */
const MISDIRECTED = new Set([404, 405]);

export function jsonAnswers(baseUrl: string): Middleware {
  return {
    onResponse({ request, response, options }) {
      if (!expectsJson(response, options.parseAs)) return undefined;
      const contentType = response.headers.get('content-type');
      if (contentType !== null && JSON_TYPE.test(contentType)) return undefined;
      const { pathname } = new URL(request.url);
      const got = contentType === null ? 'an answer without a Content-Type' : `${/html/i.test(contentType) ? 'HTML' : 'a non-JSON answer'} (${contentType})`;
      throw new UnexpectedResponseError(`got ${got} from ${request.method} ${pathname}, status ${response.status}: ${hintFor(baseUrl)}`, response.status, contentType, {
        method: request.method,
        url: request.url,
      });
    },
  };
}

function expectsJson(response: Response, parseAs: string | undefined): boolean {
  if (response.status === 204 || response.status === 304 || response.headers.get('content-length') === '0') return false;
  if (response.ok) return parseAs === undefined || parseAs === 'json';
  return MISDIRECTED.has(response.status);
}

function hintFor(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!/\/api\/v\d+$/.test(trimmed)) return `is baseUrl missing /api/v1? (it is ${baseUrl})`;
  return `is baseUrl the API's root? (it is ${baseUrl})`;
}
