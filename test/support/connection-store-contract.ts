/**
 * What every ConnectionStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions. The credentials are an opaque sealed record to a
 * store, so these use one made up rather than sealing a key.
 */
import type { Channel, Connection, ProviderName } from '#domain/social';
import type { ConnectionStore } from '#ports/connection-store';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-01T11:00:00.000Z');
const TIKTOK: Channel = { id: 'pk1:tiktok', platform: 'tiktok', name: 'Acme on TikTok', username: 'acme', active: true };
const YOUTUBE: Channel = { id: 'pk1:youtube', platform: 'youtube', name: 'Acme', username: null, active: true };

function connectionOf(accountId: number, provider: ProviderName, generation: string): Connection {
  return {
    account_id: accountId,
    provider,
    status: 'active',
    credentials: { v: 1, alg: 'AES-256-GCM', kek: 'file', encrypted_key: 'a2V5', iv: 'aXY=', tag: 'dGFn', ciphertext: `c2VhbGVk${generation}` },
    key_hint: '…1234',
    channels: [TIKTOK],
    connected_at: T0.toISOString(),
    synced_at: T0.toISOString(),
    updated_at: T0.toISOString(),
    last_error: null,
    generation,
  };
}

/** `firstAccount`: the suite takes accounts from there up, which no other suite on the same table uses. */
export function connectionStoreContract(store: () => ConnectionStore, firstAccount: number): void {
  let nextAccount = firstAccount;
  const freshAccount = () => nextAccount++;

  describe('the connection store', () => {
    test('a connection reads back as stored, only in its account; a second put replaces it', async () => {
      const accountId = freshAccount();
      const first = connectionOf(accountId, 'provider_a', 'g1');
      expect(await store().put(first)).toEqual({ created: true });
      expect(await store().get(accountId, 'provider_a')).toEqual(first);
      expect(await store().get(accountId + 1, 'provider_a')).toBeUndefined();
      const second = { ...connectionOf(accountId, 'provider_a', 'g2'), channels: [YOUTUBE], key_hint: null };
      expect(await store().put(second)).toEqual({ created: false });
      expect(await store().get(accountId, 'provider_a')).toEqual(second);
    });

    test("lists an account's connections only, in provider order", async () => {
      const accountId = freshAccount();
      await store().put(connectionOf(accountId, 'provider_b', 'g1'));
      await store().put(connectionOf(accountId, 'provider_a', 'g1'));
      await store().put(connectionOf(freshAccount(), 'provider_a', 'g1'));
      expect((await store().list(accountId)).map((c) => c.provider)).toEqual(['provider_a', 'provider_b']);
      expect(await store().list(freshAccount())).toEqual([]);
    });

    test('an error is marked, and a new listing heals it, on the generation read only', async () => {
      const accountId = freshAccount();
      const connection = connectionOf(accountId, 'provider_a', 'g1');
      await store().put(connection);
      const errored = await store().markError(accountId, 'provider_a', 'g1', { code: 'provider_refused_key', message: 'refused' }, T1);
      expect(errored).toEqual({ ...connection, status: 'error', last_error: { code: 'provider_refused_key', message: 'refused', at: T1.toISOString() }, updated_at: T1.toISOString() });
      expect(await store().get(accountId, 'provider_a')).toEqual(errored);
      const healed = await store().updateChannels(accountId, 'provider_a', 'g1', [YOUTUBE], T1);
      expect(healed).toEqual({ ...connection, channels: [YOUTUBE], synced_at: T1.toISOString(), updated_at: T1.toISOString() });
      expect(await store().get(accountId, 'provider_a')).toEqual(healed);

      expect(await store().updateChannels(accountId, 'provider_a', 'g0', [TIKTOK], T1)).toBeUndefined();
      expect(await store().markError(accountId, 'provider_a', 'g0', { code: 'c', message: 'm' }, T1)).toBeUndefined();
      expect(await store().get(accountId, 'provider_a')).toEqual(healed);
    });

    test('a provider that is not connected is neither updated nor made by trying', async () => {
      const accountId = freshAccount();
      expect(await store().updateChannels(accountId, 'provider_b', 'g1', [TIKTOK], T1)).toBeUndefined();
      expect(await store().markError(accountId, 'provider_b', 'g1', { code: 'c', message: 'm' }, T1)).toBeUndefined();
      expect(await store().get(accountId, 'provider_b')).toBeUndefined();
    });

    test('a removal answers what it removed, then nothing', async () => {
      const accountId = freshAccount();
      const connection = connectionOf(accountId, 'provider_b', 'g1');
      await store().put(connection);
      expect(await store().remove(accountId, 'provider_b')).toEqual(connection);
      expect(await store().remove(accountId, 'provider_b')).toBeUndefined();
      expect(await store().get(accountId, 'provider_b')).toBeUndefined();
    });
  });
}
