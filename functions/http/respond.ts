/** Success and error bodies of the contract: `{data, meta?}` and `{error, code}`. */
import type { ApiResult } from './api-types';
import type { AppError } from '#domain/errors';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function ok(data: unknown, status = 200, meta?: Record<string, unknown>): ApiResult {
  return { statusCode: status, headers: { ...JSON_HEADERS }, body: JSON.stringify(meta ? { data, meta } : { data }) };
}

export const created = (data: unknown) => ok(data, 201);
export const accepted = (data: unknown) => ok(data, 202);
export const deleted = (id: number) => ok({ id, deleted: true });

export function errorResult(error: AppError, requestId: string): ApiResult {
  const body: Record<string, unknown> = { error: error.expose ? error.message : 'Internal server error', code: error.code };
  // Only 500s carry the id in the body: it is what a user quotes to support.
  if (!error.expose) body.request_id = requestId;
  return { statusCode: error.status, headers: { ...JSON_HEADERS, ...error.headers }, body: JSON.stringify(body) };
}
