/** POST /keys: a named key for the signed-in account; without scopes it gets every scope, as the session has; without a mode it is live. */
import { ALL_SCOPES, type CreatedApiKey } from '#domain/api-keys';
import type { CreateKeyInput } from '#domain/schemas/accounts';
import type { Ports } from '#ports/ports';

export async function createKey(
  deps: Pick<Ports, 'apiKeys' | 'now'>,
  accountId: number,
  input: CreateKeyInput,
): Promise<CreatedApiKey & { name: string; created_at: string }> {
  const now = deps.now();
  const scopes = [...new Set(input.scopes ?? ALL_SCOPES)];
  const key = await deps.apiKeys.create(accountId, scopes, now, input.name, input.mode ?? 'live');
  return { ...key, name: input.name, created_at: now.toISOString() };
}
