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

/**
 * What every authenticated request reaches besides its operation's own ports: the key or the session,
 * the per-account limit, the Idempotency-Key answers (answered-once), the largest inline body, and the
 * refusal count. Every API function's wiring supplies these with its operations' ports.
 */
export type HttpPorts = Pick<Ports, 'apiKeys' | 'sessions' | 'rateLimits' | 'idempotentAnswers' | 'apiRequestsPerMinute' | 'inlineUploadMaxBytes' | 'metrics' | 'now'>;

/** What the middlewares learn about a request, handed to the operation with the ports `P` its handler was wired with. */
export interface ApiRequest<P = HttpPorts> {
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
  deps: P;
}

export interface AuthenticatedRequest<P = HttpPorts> extends ApiRequest<P> {
  principal: Principal;
}

/** An operation that reaches the ports `P` (a `Pick<Ports, ...>`) besides the HTTP layer's. */
export type Operation<P = unknown> = (request: AuthenticatedRequest<HttpPorts & P>) => Promise<ApiResult>;
/** An operation any caller may reach, with the ports `P` it names (none for the meta routes). */
export type PublicOperation<P = unknown> = (request: ApiRequest<P>) => Promise<ApiResult>;

export interface ApiContext<P = HttpPorts> extends Context {
  api?: ApiRequest<P>;
}
