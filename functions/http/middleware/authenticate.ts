/**
 * Finds the principal behind a request. Credential resolvers are tried in order: a bearer API key,
 * then the studio's session cookie, so a request carrying both is the key's. Every lookup is a
 * strongly consistent read with no cache, so revocation takes effect on the very next request.
 */
import type middy from '@middy/core';
import { AppError } from '#domain/errors';
import { timingSafeEqual } from 'node:crypto';
import { ALL_SCOPES, hashKey, isWellFormedKey } from '#domain/api-keys';
import { scopeOf } from '#domain/test-mode';
import { hashSessionToken, isSessionLive, isWellFormedSessionToken, slidSession } from '#domain/session';
import { isSameOrigin, sessionTokenOf } from '#http/session-cookie';
import type { ApiContext, ApiEvent, ApiRequest, ApiResult, Principal } from '#http/api-types';
import { logger } from '#functions/logger';

/**
 * What a resolver reaches: the request's dependencies (read only once a credential is there, so an
 * anonymous request builds none) and `pending`, where bookkeeping it wants done (the key's last use)
 * goes for the request to settle before it ends.
 */
export type CredentialContext = Pick<ApiRequest, 'deps' | 'pending'>;

/** Answers `undefined` when the request carries no credential of its kind. */
export type CredentialResolver = (event: ApiEvent, context: CredentialContext) => Promise<Principal | undefined>;

const unauthorized = (message: string) => new AppError('unauthorized', message);

const bearerApiKey: CredentialResolver = async (event, context) => {
  const header = event.headers?.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match || !isWellFormedKey(match[1]!)) {
    throw unauthorized('Malformed Authorization header: expected "Bearer <API key>"');
  }
  const hash = hashKey(match[1]!);
  const { apiKeys, now } = context.deps;
  const record = await apiKeys.findByHash(hash);
  if (!record) throw unauthorized('Unknown API key');
  if (record.revoked_at) throw unauthorized('This API key has been revoked');
  // Best effort, alongside the request: a failed bookkeeping write must not fail the caller's request.
  context.pending.push(apiKeys.recordUse(record, hash, now()).catch((error) => logger.warn('could not record key use', { error })));
  // A test key works in its account's test scope: every store then finds test records only.
  return { accountId: scopeOf(record.account_id, record.mode), scopes: record.scopes, credential: { kind: 'api_key', keyId: record.id } };
};

const SIGNED_OUT = 'Not signed in, or the session has ended: sign in again (POST /auth/login)';
const SAFE_METHODS = new Set(['GET', 'HEAD']);

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A browser sends cookies with requests other sites make it send, so a state-changing cookie request
 * must also prove it came from the studio: the session's CSRF token, which another site cannot read,
 * and no Origin but this API's own.
 */
function refuseCrossSite(event: ApiEvent, csrfToken: string): void {
  if (SAFE_METHODS.has(event.requestContext?.http?.method?.toUpperCase() ?? 'GET')) return;
  const sent = event.headers?.['x-csrf-token'];
  if (!sent || !sameText(sent, csrfToken)) {
    throw new AppError('forbidden', 'Missing or wrong X-CSRF-Token: send the csrf_token GET /auth/session answers with every change made with the session cookie');
  }
  const origin = event.headers?.origin;
  if (origin !== undefined && !isSameOrigin(event, origin)) throw new AppError('forbidden', `Requests from ${origin} may not use the session cookie`);
}

const sessionCookie: CredentialResolver = async (event, context) => {
  const token = sessionTokenOf(event);
  if (token === undefined) return undefined;
  if (!isWellFormedSessionToken(token)) throw unauthorized(SIGNED_OUT);
  const { sessions, now } = context.deps;
  const tokenHash = hashSessionToken(token);
  const found = await sessions.findByHash(tokenHash);
  const at = now();
  if (!found || !isSessionLive(found, at)) throw unauthorized(SIGNED_OUT);
  refuseCrossSite(event, found.csrf_token);
  const slid = slidSession(found, at);
  if (slid) context.pending.push(sessions.touch(tokenHash, slid).catch((error) => logger.warn('could not record session use', { error })));
  const session = slid ?? found;
  return { accountId: session.account_id, scopes: ALL_SCOPES, credential: { kind: 'session', sessionId: session.id, tokenHash, session } };
};

const DEFAULT_RESOLVERS: readonly CredentialResolver[] = [bearerApiKey, sessionCookie];

export function authenticate(
  resolvers: readonly CredentialResolver[] = DEFAULT_RESOLVERS,
): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    before: async (request) => {
      const api = request.context.api!;
      if (api.route.auth === 'none') return;
      const principal = await resolvePrincipal(request.event, api, resolvers);
      if (api.route.auth === 'session' && principal.credential.kind !== 'session') {
        throw new AppError('forbidden', api.route.keyRefusal ?? 'Only a signed-in studio session may do this: an API key cannot manage keys or sessions');
      }
      api.principal = principal;
    },
  };
}

/**
 * The principal behind a request, or a 401. Also called by the local server before it reads a large
 * body, so that an anonymous client cannot make it buffer one.
 */
export async function resolvePrincipal(
  event: ApiEvent,
  context: CredentialContext,
  resolvers: readonly CredentialResolver[] = DEFAULT_RESOLVERS,
): Promise<Principal> {
  for (const resolve of resolvers) {
    const principal = await resolve(event, context);
    if (principal) return principal;
  }
  throw unauthorized('Missing API key: send "Authorization: Bearer <API key>", or sign in to the studio');
}

/** Runs after the rate limit, so a request refused for scope still counts as a request. */
export function requireScopes(): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    before: (request) => {
      const { route, principal } = request.context.api!;
      if (!principal) return;
      const missing = route.scopes.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length > 0) {
        throw new AppError('forbidden', `This API key lacks the scope(s) this call needs: ${missing.join(', ')}`);
      }
    },
  };
}
