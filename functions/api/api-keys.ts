/** The account, and Settings → API access: a signed-in session lists, makes and revokes the account's keys. */
import type { Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam } from '#http/params';
import { created, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { accountAt } from '#domain/account';
import type { ApiKeyRecord } from '#domain/api-keys';
import { createKeyInput } from '#domain/schemas/accounts';
import { createKey } from '#use-cases/create-key';
import { revokeKey } from '#use-cases/revoke-key';
import { accountOfScope } from '#domain/test-mode';

/** Never the key itself: only its hash is stored, and its prefix tells keys apart. */
const keyView = (key: ApiKeyRecord) => ({
  id: key.id,
  name: key.name ?? null,
  prefix: key.prefix,
  scopes: key.scopes,
  mode: key.mode,
  created_at: key.created_at,
  last_used_at: key.last_used_at,
  revoked_at: key.revoked_at,
});

const account: Operation<Pick<Ports, 'accounts'>> = async (request) => {
  const found = await request.deps.accounts.get(accountOfScope(request.principal.accountId));
  if (!found) throw notFound('Account');
  return ok(accountAt(found, request.deps.now()));
};

const listKeys: Operation = async (request) => ok((await request.deps.apiKeys.listOfAccount(request.principal.accountId)).map(keyView));

const createKeyOperation: Operation<NeedsOf<typeof createKey>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(createKeyInput, body.fields, 'API key');
  const key = await createKey(request.deps, request.principal.accountId, input);
  return created({ id: key.id, name: key.name, key: key.key, prefix: key.prefix, scopes: key.scopes, mode: key.mode, created_at: key.created_at });
};

const revokeKeyOperation: Operation<NeedsOf<typeof revokeKey>> = async (request) => {
  const id = idParam(request);
  await revokeKey(request.deps, request.principal.accountId, id);
  return ok({ id, revoked: true });
};

export const apiKeyOperations = { account, listKeys, createKey: createKeyOperation, revokeKey: revokeKeyOperation };
