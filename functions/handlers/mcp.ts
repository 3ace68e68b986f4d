/**
 * The MCP endpoint on AWS (`ANY /mcp` on the HTTP API): API Gateway's v2 event as the web Request the
 * typed client's MCP handler takes, and its Response back as the result. The tools reach the API
 * through its public endpoint (API_BASE_URL) with the caller's own key, like any client; this function
 * holds no grant to the table or the bucket.
 *
 * API Gateway delivers a Lambda's answer whole and gives up after 30 s, so answers are JSON (a
 * notification could only arrive with the result) and a tool waits at most MAX_WAIT_MS, after which
 * it answers the job as it is and says to poll get_job.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { handleMcpRequest } from '#mcp/http';
import type { FetchLike } from '#client/retry';
import { logger, withLambdaContext } from '#functions/logger';
import { API_BASE_URL_ENV, optionalEnv } from '#functions/config';
import { errorBody } from '#http/respond';

const MAX_WAIT_MS = 20_000;

export interface McpHandlerOptions {
  /** Read from API_BASE_URL when left out. */
  apiBaseUrl?: string;
  fetch?: FetchLike;
}

export function createHandler(options: McpHandlerOptions = {}) {
  return withLambdaContext(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
    const requestId = event.requestContext.requestId;
    try {
      const apiBaseUrl = options.apiBaseUrl ?? optionalEnv(API_BASE_URL_ENV);
      if (!apiBaseUrl) throw new Error(`${API_BASE_URL_ENV} is not set`);
      const response = await handleMcpRequest(toRequest(event), { apiBaseUrl, fetch: options.fetch, responses: 'json', maxWaitMs: MAX_WAIT_MS, requestId });
      return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
    } catch (error) {
      logger.error('mcp: unexpected failure', { error, requestId });
      // As every API answer: the envelope, with the id to quote.
      const body = JSON.stringify(errorBody({ code: 'internal_error', message: 'Internal server error' }, requestId));
      return { statusCode: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId }, body };
    }
  });
}

export function toRequest(event: APIGatewayProxyEventV2): Request {
  const { http, domainName } = event.requestContext;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const hasBody = event.body !== undefined && http.method !== 'GET' && http.method !== 'HEAD';
  const url = `https://${domainName}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
  return new Request(url, {
    method: http.method,
    headers,
    body: hasBody ? (event.isBase64Encoded ? new Uint8Array(Buffer.from(event.body!, 'base64')) : event.body) : undefined,
  });
}

export const handler = createHandler();
