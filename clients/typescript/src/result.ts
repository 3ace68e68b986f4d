/**
 * openapi-fetch answers `{data}` or `{error}` beside the Response; the helpers want a value or an
 * exception. `unwrap` turns any typed call into the first, throwing ApiError for the second.
 */
import { ApiError } from './errors.js';

interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export async function unwrap<T>(call: Promise<CallResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.from(response, error);
  return data as T;
}
