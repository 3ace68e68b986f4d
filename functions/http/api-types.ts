import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { RouteDefinition, Scope } from '#functions/routes';
import type { Ports } from '#ports/ports';
import type { SessionRecord } from '#domain/session';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2 & { headers?: Record<string, string> };

/** Who is calling. A studio session resolves to the same shape as an API key, with every scope. */
export interface Principal {
  /**
   * Whose records the request works on: the account's id, or for a test key its test scope
   * (domain/test-mode), so operations and stores need not know about test mode to keep it apart.
   */
  accountId: number;
  scopes: readonly Scope[];
  credential: { kind: 'api_key'; keyId: number } | SessionCredential;
}

/** The session as found (after this request's use), and its token's hash: what signing out revokes. */
export interface SessionCredential {
  kind: 'session';
  sessionId: string;
  tokenHash: string;
  session: SessionRecord;
}

/** What the middlewares learn about a request, handed to the operation. */
export interface ApiRequest {
  event: ApiEvent;
  route: RouteDefinition;
  requestId: string;
  pathParameters: Record<string, string>;
  query: Record<string, string | undefined>;
  principal?: Principal;
  /** Response headers middlewares want on whatever the operation answers (rate-limit headers, ...). */
  responseHeaders: Record<string, string>;
  /** Bookkeeping writes that must finish before the invocation ends (Lambda freezes what is left). */
  pending: Promise<unknown>[];
  /** What the operation calls out through, built by the runtime's wiring module. */
  deps: Ports;
}

export interface AuthenticatedRequest extends ApiRequest {
  principal: Principal;
}

export type Operation = (request: AuthenticatedRequest) => Promise<ApiResult>;
export type PublicOperation = (request: ApiRequest) => Promise<ApiResult>;

export interface ApiContext extends Context {
  api?: ApiRequest;
}
