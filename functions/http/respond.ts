/** Success and error bodies of the contract: `{data, meta?}` and `{error, code, param?, request_id, doc_url}`. */
import type { ApiResult } from './api-types';
import type { AppError, ErrorCode } from '#domain/errors';
import { fullPath } from '#functions/routes';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function ok(data: unknown, status = 200, meta?: Record<string, unknown>): ApiResult {
  return { statusCode: status, headers: { ...JSON_HEADERS }, body: JSON.stringify(meta ? { data, meta } : { data }) };
}

export const created = (data: unknown) => ok(data, 201);
export const accepted = (data: unknown) => ok(data, 202);
export const deleted = (id: number) => ok({ id, deleted: true });

/** Where the served error reference lists a code: the envelope's `doc_url`, relative to the API's host like the API's other links. */
export const ERROR_DOCS_PATH = fullPath('/docs/errors');

/** What went wrong, as the envelope says it, whoever refuses the request (a handler, the local server, MCP). */
export interface Problem {
  code: ErrorCode;
  message: string;
  param?: string;
}

/**
 * The contract's envelope, `{error, code}`, with the field at fault (`param`, when one is), the
 * request's id (every error: it is what a user quotes to support) and the code's entry in the
 * served error reference.
 */
export function errorBody(problem: Problem, requestId: string): Record<string, string> {
  return {
    error: problem.message,
    code: problem.code,
    ...(problem.param === undefined ? {} : { param: problem.param }),
    request_id: requestId,
    doc_url: `${ERROR_DOCS_PATH}#${problem.code}`,
  };
}

export function errorResult(error: AppError, requestId: string): ApiResult {
  const problem = { code: error.code, message: error.expose ? error.message : 'Internal server error', param: error.param };
  return { statusCode: error.status, headers: { ...JSON_HEADERS, ...error.headers }, body: JSON.stringify(errorBody(problem, requestId)) };
}
