/** Assertions shared by the social provider adapter tests. */
import { ProviderError } from '#ports/social-provider';
import type { ProviderName } from '#domain/social';

/**
 * The ProviderError a call rejects with (anything else fails the test), after checking it names the
 * expected provider and that no secret shows up in its message.
 */
export async function providerFailure(promise: Promise<unknown>, check: { provider?: ProviderName; secrets: string[] }): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  if (check.provider !== undefined) expect(error.provider).toBe(check.provider);
  for (const secret of check.secrets) expect(error.message).not.toContain(secret);
  return error;
}
