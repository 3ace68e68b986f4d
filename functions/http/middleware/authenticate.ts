/**
 * Finds the principal behind a request. Credential resolvers are tried in order; an API key is the
 * only one today, and a session-cookie resolver for the studio slots in beside it. Every lookup is a
 * strongly consistent read with no cache, so revocation takes effect on the very next request.
 */
import type middy from '@middy/core';
import { AppError } from '#domain/errors';
import { hashKey, isWellFormedKey } from '#domain/api-keys';
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
  return { accountId: record.account_id, scopes: record.scopes, credential: { kind: 'api_key', keyId: record.id } };
};

const DEFAULT_RESOLVERS: readonly CredentialResolver[] = [bearerApiKey];

export function authenticate(
  resolvers: readonly CredentialResolver[] = DEFAULT_RESOLVERS,
): middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  return {
    before: async (request) => {
      const api = request.context.api!;
      if (api.route.auth === 'none') return;
      api.principal = await resolvePrincipal(request.event, api, resolvers);
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
  throw unauthorized('Missing API key: send "Authorization: Bearer <API key>"');
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
