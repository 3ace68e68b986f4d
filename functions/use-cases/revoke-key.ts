/** DELETE /keys/{id}: revokes one of the account's own keys; the next request with it is 401. A foreign id is not found. */
import { notFound } from '#domain/errors';
import type { Ports } from '#ports/ports';

export async function revokeKey(deps: Pick<Ports, 'apiKeys' | 'now'>, accountId: number, keyId: number): Promise<void> {
  const own = (await deps.apiKeys.listOfAccount(accountId)).some((key) => key.id === keyId);
  if (!own || !(await deps.apiKeys.revoke(keyId, deps.now()))) throw notFound('API key');
}
