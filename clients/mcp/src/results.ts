/**
 * What a tool answers: the API's data as JSON text (for any model) and as structuredContent (for
 * clients that read it, checked against the tool's outputSchema), or a tool error (`isError: true`)
 * that says what the API said: its code, message, status and request id. A failed call is an answer
 * the model can act on, never a crash of the server or a protocol error.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StorageUploadError, isApiError } from '@reaction-studio/client';

/** Where a tool error's details are, for clients that branch on them. */
const ERROR_META = 'reaction-studio/error';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function dataResult(data: unknown, note?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data, null, 2) }, ...(note ? [{ type: 'text' as const, text: note }] : [])],
    // structuredContent is an object by the protocol: a bare list goes under `data`.
    structuredContent: isRecord(data) ? data : { data },
  };
}

interface ToolProblem {
  code: string;
  message: string;
  status?: number;
  request_id?: string | null;
}

export function errorResult(error: unknown): CallToolResult {
  const problem = problemOf(error);
  const where = [problem.code, problem.status && `HTTP ${problem.status}`, problem.request_id && `request ${problem.request_id}`].filter(Boolean).join(', ');
  // Under _meta, not structuredContent: the SDK's client checks any structuredContent, an error's too,
  // against the tool's outputSchema, and would turn the API's refusal into a protocol error.
  return { isError: true, content: [{ type: 'text', text: `${problem.message} (${where})` }], _meta: { [ERROR_META]: problem } };
}

function problemOf(error: unknown): ToolProblem {
  if (isApiError(error)) return { code: error.code, message: error.message, status: error.status, request_id: error.requestId };
  if (error instanceof StorageUploadError) return { code: 'storage_refused', message: error.message, status: error.status };
  // fetch rejects with a TypeError when the API cannot be reached at all.
  if (error instanceof TypeError && error.message === 'fetch failed') return { code: 'api_unreachable', message: 'The Reaction Studio API could not be reached' };
  if (error instanceof Error && error.name === 'AbortError') return { code: 'cancelled', message: 'The call was cancelled' };
  return { code: 'tool_failed', message: error instanceof Error ? error.message : String(error) };
}

/** A tool's value with a line for the model beside it (a wait that ran out: what to do next). */
export class Noted {
  constructor(
    readonly value: unknown,
    readonly note: string,
  ) {}
}
